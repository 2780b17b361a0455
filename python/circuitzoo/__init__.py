"""circuitzoo: exact, checkable BaseConv / arithmetic-circuit constructions, from Python.

    import circuitzoo as cz
    cz.list()                                   # constructions and their parameters
    r = cz.verify("primitive/shift_down", {"N": 8, "s": 2})    # the JSON report as a dict
    m = cz.build("primitive/cumsum", {"N": 8})  # weights as numpy arrays (int64 where they fit)
    cz.eval(m, u)                               # exact output on an N×d integer input
    cz.stats("mqar/dyadic", {"n": 8, "c": 16})
    pandas.DataFrame(cz.sweep("mqar/dyadic", "n", [4, 8, 16], {"c": 32}))
    inputs, labels = cz.mqar_data(vocab=8192, seq_len=64, kv=8, examples=1000, seed=0)

Parameters are given as a dict (values may be ints or strings). Bad input raises ValueError with
the CLI's message. Long calls (verify, build, stats, sweep, eval, mqar_data) release the GIL.
Matrices use the model-json layout (contract.md): W is d'×d' acting on rows (u·W); b1, h, b2 are
N'×d' with h[k][j] tap k of channel j. For PyTorch-named tensors use `circuitzoo export --format
safetensors` (src/model/weights.h).
"""
import builtins as _builtins
import json as _json
from fractions import Fraction as _Fraction

import numpy as _np

from . import _core

__version__ = _core.version
_INT64 = (-(2 ** 63), 2 ** 63 - 1)
_MATRIX_KEYS = {"W", "b1", "h", "b2", "W1", "B1", "W2", "B2", "Wq", "Wk", "Wv"}


def _params(params):
    if params is None:
        return {}
    if not isinstance(params, dict):
        raise TypeError(f"params must be a dict of KEY: VALUE, not {type(params).__name__}")
    out = {}
    for k, v in params.items():
        out[str(k)] = str(v).lower() if isinstance(v, bool) else str(v)
    return out


def _uint(x, name):
    """An integer argument as decimal text: the C++ side range-checks it with the CLI's code
    (app/cli/arg_checks.h), so that -5, 10**6 threads or 0 examples are refused as the CLI refuses them."""
    if isinstance(x, bool) or not isinstance(x, (int, _np.integer)):
        raise TypeError(f"{name} must be an integer, not {type(x).__name__}")
    return str(int(x))


def _entry(x):
    if isinstance(x, int):
        return x
    if "/" in x:
        f = _Fraction(x)
        return f.numerator if f.denominator == 1 else f
    return int(x)


def _array(rows):
    """A model-json matrix as int64 when every entry fits, else an object array of int/Fraction."""
    vals = [[_entry(x) for x in r] for r in rows]
    flat = [x for r in vals for x in r]
    if all(isinstance(x, int) and _INT64[0] <= x <= _INT64[1] for x in flat):
        return _np.array(vals, dtype=_np.int64).reshape(len(vals), len(vals[0]) if vals else 0)
    a = _np.empty((len(vals), len(vals[0]) if vals else 0), dtype=object)
    for i, r in enumerate(vals):
        for j, x in enumerate(r):
            a[i, j] = x
    return a


def _to_json_entry(x):
    if isinstance(x, _Fraction):
        return f"{x.numerator}/{x.denominator}" if x.denominator != 1 else _to_json_entry(x.numerator)
    if isinstance(x, (_np.integer, int)):
        x = int(x)
        return x if abs(x) < 2 ** 53 else str(x)
    if isinstance(x, str):
        return x
    raise ValueError(f"not an exact number: {x!r} (want an integer or a fractions.Fraction)")


def _matrix_json(a):
    a = _np.asarray(a, dtype=object) if not isinstance(a, _np.ndarray) or a.dtype.kind == "f" else a
    if isinstance(a, _np.ndarray) and a.dtype.kind == "f":
        raise ValueError("floating-point matrix: exact entries only (integers or fractions.Fraction)")
    if a.ndim != 2:
        raise ValueError(f"expected a 2-D matrix, got shape {a.shape}")
    return [[_to_json_entry(x) for x in row] for row in a.tolist()]


def _model_from_json(mj):
    m = {k: v for k, v in mj.items() if k != "layers"}
    m["layers"] = [{k: (_array(v) if k in _MATRIX_KEYS else v) for k, v in L.items()} for L in mj["layers"]]
    return m


def _model_to_json(model):
    if not isinstance(model, dict):
        raise TypeError(f"model must be a dict (build(...)'s result, its 'model', or a model-json dict), not {type(model).__name__}")
    if "layers" not in model and isinstance(model.get("model"), dict):
        model = model["model"]
    if "layers" not in model:
        raise ValueError("not a model: want build(...)'s result, its 'model', or a model-json dict")
    out = {k: v for k, v in model.items() if k != "layers"}
    out.setdefault("format", "circuitzoo.model/1")
    layers = model["layers"]
    # Matrices are converted where the shape is right; anything else goes to the C++ reader as it
    # is, which refuses it with the CLI's message (ValueError), never an AttributeError here.
    if isinstance(layers, (_builtins.list, tuple)):  # list() is this module's
        layers = [{k: (_matrix_json(v) if k in _MATRIX_KEYS else v) for k, v in L.items()} if isinstance(L, dict) else L
                  for L in layers]
    out["layers"] = layers
    return out


def list():
    """Every construction: name, task, summary and its parameters (as `circuitzoo list --json`)."""
    return _json.loads(_core.list_json())


def verify(name, params=None, samples=None, seed=1, exhaustive=False, threads=0, device="cpu", method="enumerate"):
    """Verify a construction; returns the report (as `circuitzoo verify NAME --json`). The report's
    `failed` and `counterexample` say whether it holds; a failure is a result, not an exception.
    device: "cpu", "cuda", "auto" or "twin" (as `verify --device`; the report's `device` says which ran).
    method="sat": a proof on every instance (as `verify NAME --method sat --json`): the report's
    `verdict` is "proved", "refuted" (with the engine-confirmed `counterexample`) or "undecided"."""
    if not isinstance(device, str):
        raise TypeError(f"device must be a string, not {type(device).__name__}")
    if not isinstance(method, str):
        raise TypeError(f"method must be a string, not {type(method).__name__}")
    if method not in ("enumerate", "sat"):
        raise ValueError(f"method must be 'enumerate' or 'sat', not {method!r} (method)")
    if method == "sat":
        if samples is not None or exhaustive or device != "cpu":
            raise ValueError("method='sat' proves the whole domain; drop samples/exhaustive/device (method)")
        return _json.loads(_core.verify_sat_json(name, _params(params), _uint(threads, "threads")))
    return _json.loads(_core.verify_json(name, _params(params), "" if samples is None else _uint(samples, "samples"),
                                         _uint(seed, "seed"), bool(exhaustive), _uint(threads, "threads"), device))


def stats(name, params=None):
    """Costs beside the paper's claims (as `circuitzoo stats NAME --json`)."""
    return _json.loads(_core.build_json(name, _params(params), False))


def build(name, params=None):
    """Build a construction: the stats dict plus `model` (ring, N, d, inner_N, inner_d, conv and
    `layers`, each with numpy weight matrices: int64 where they fit, else object arrays of Python
    ints or Fractions), or `model` None when the construction builds a circuit only."""
    j = _json.loads(_core.build_json(name, _params(params), True))
    mj = j.pop("model_json")
    j["model_summary"] = j.pop("model", None)
    j["model"] = _model_from_json(mj) if mj else None
    return j


def eval(model, u):
    """The model's exact output on u (N×d integers or Fractions): int64 array where it fits."""
    out = _core.eval_json(_json.dumps(_model_to_json(model)), _json.dumps(_matrix_json(u)))
    return _array(_json.loads(out))


def sweep_report(name, vary, values, params=None):
    """The whole sweep (as `circuitzoo sweep --json`): rows and log-log fits."""
    return _json.loads(_core.sweep_json(name, str(vary), [str(v) for v in values], _params(params)))


def sweep(name, vary, values, params=None):
    """One flat record per value, for pandas.DataFrame: the varied parameter, every parameter
    (`param.KEY`), and the numeric model.*, circuit.* and metrics.* quantities."""
    rep = sweep_report(name, vary, values, params)
    records = []
    for row in rep["rows"]:
        r = {vary: row["value"]}
        for k, v in row["params"].items():
            r["param." + k] = v
        for group in ("model", "circuit", "metrics"):
            for k, v in (row.get(group) or {}).items():
                if isinstance(v, (int, float, str, bool)) or v is None:
                    r[f"{group}.{k}"] = v
        records.append(r)
    return records


def mqar_data(vocab=8192, seq_len=64, kv=8, examples=1000, seed=0, power_a=0.01):
    """zoology's multiquery_ar batch (random_non_queries=False) for a data seed, reproduced exactly:
    (inputs, labels), int64 arrays of shape (examples, seq_len), labels -100 where not scored."""
    if isinstance(power_a, bool) or not isinstance(power_a, (int, float, _np.integer, _np.floating)):
        raise TypeError(f"power_a must be a number, not {type(power_a).__name__}")
    ins, labs, rows, cols = _core.mqar_data(_uint(vocab, "vocab"), _uint(seq_len, "seq_len"), _uint(kv, "kv"),
                                            _uint(examples, "examples"), _uint(seed, "seed"), repr(float(power_a)))
    return (_np.frombuffer(ins, dtype="<i8").reshape(rows, cols).copy(),
            _np.frombuffer(labs, dtype="<i8").reshape(rows, cols).copy())


__all__ = ["list", "verify", "stats", "build", "eval", "sweep", "sweep_report", "mqar_data"]
