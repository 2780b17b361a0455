"""circuitzoo: exact, checkable BaseConv / arithmetic-circuit constructions, from Python.

One function per CLI command, with the CLI's results (the JSON of `--json`, as Python values):
    import circuitzoo as cz
    cz.constructions()                                   # the table (also cz.list()); cz.parameters(NAME)
    cz.verify("primitive/shift_down", {"N": 8, "s": 2})  # method="sat" | "algebra" too
    cz.verify(cz.build("mqar/dyadic", {"n": 4, "c": 6})["model"], task="mqar", params={"n": 4, "c": 6})
    cz.verify(circuit="my.blif", task="sort", params={"n": 4, "d": 2}, method="sat")
    cz.stats(NAME, params), cz.prove(NAME), cz.claims(), cz.export(NAME, params, format="blif", out=PATH)
    cz.read_circuit(PATH).eval([...]), cz.circuit(PATH, equiv=OTHER), cz.merge(parts), cz.tasks()
    m = cz.build("primitive/cumsum", {"N": 8}); cz.evaluate(m, u)     # numpy weights, exact output
    pandas.DataFrame(cz.sweep("mqar/dyadic", "n", [4, 8, 16], {"c": 32}))
    inputs, labels = cz.mqar_data(vocab_size=8192, input_seq_len=64, num_kv_pairs=8, num_examples=1000)

params: a dict (ints or strings; zoology's names vocab_size, input_seq_len, num_kv_pairs accepted).
Bad input: ValueError with the CLI's message; a wrong type: TypeError. Long calls release the GIL,
stop on Ctrl-C (KeyboardInterrupt) and take progress= (a callable progress(done, total, stage),
False, or None: a tqdm bar on a terminal or in a notebook). Matrices: int64 numpy arrays where
they fit, else object arrays of ints and Fractions. Details: README.md "Python", docs/contract.md
"Python module".
"""
import builtins as _builtins
import json as _json
import os as _os
import sys as _sys
import time as _time
from fractions import Fraction as _Fraction

from . import _build_info


def _wrong_interpreter(err):
    """The module was built for one interpreter (the build records it, python/CMakeLists.txt);
    another python3 on PATH (pyenv's, a venv) cannot load it or lacks numpy: say which to use."""
    here = f"{_sys.version_info[0]}.{_sys.version_info[1]}"
    return ImportError(
        f"circuitzoo was built for {_build_info.python_executable} (Python {_build_info.python_version}); "
        f"this is {_sys.executable} (Python {here}): {err}. Run {_build_info.python_executable} "
        f"(e.g. PYTHONPATH=build/python {_build_info.python_executable}) or rebuild with -DPython3_EXECUTABLE=...")


try:
    import numpy as _np
    from . import _core
except ImportError as _e:
    if f"{_sys.version_info[0]}.{_sys.version_info[1]}" != _build_info.python_version or "numpy" in str(_e):
        raise _wrong_interpreter(_e) from _e
    raise

__version__ = _core.version
_INT64 = (-(2 ** 63), 2 ** 63 - 1)
_MATRIX_KEYS = {"W", "b1", "h", "b2", "W1", "B1", "W2", "B2", "Wq", "Wk", "Wv"}


def _progress(progress):
    """The callable the core reports to: the caller's, none (False), or a tqdm bar (None, when tqdm
    is importable and stderr is a terminal or this is a notebook)."""
    if progress is False:
        return None
    if progress is not None:
        if not callable(progress):
            raise TypeError(f"progress must be a callable progress(done, total, stage), False or None, not {type(progress).__name__}")
        return progress
    try:
        in_notebook = "ipykernel" in _sys.modules
        if not (in_notebook or (hasattr(_sys.stderr, "isatty") and _sys.stderr.isatty())):
            return None
        if in_notebook:
            from tqdm.auto import tqdm as _tqdm
        else:
            from tqdm import tqdm as _tqdm
    except Exception:
        return None
    return _TqdmProgress(_tqdm)


class _TqdmProgress:
    """progress(done, total, stage) drawn as one tqdm bar per stage (made on the first report, so
    calls that end within ~50 ms draw nothing). The bar's clock starts when the work did (the call,
    or the previous stage's last report), not at the first report: tqdm's rate is n / elapsed, and
    a bar born at the first report read its first `done` as made in no time (issue 39: 1.3e11 it/s)."""

    def __init__(self, tqdm):
        self._tqdm, self._bar, self._stage = tqdm, None, None
        self._since = _time.time()  # tqdm's clock (time.time)

    def __call__(self, done, total, stage):
        now = _time.time()
        if self._bar is None or stage != self._stage:
            self.close()
            self._bar, self._stage = self._tqdm(total=total, desc=stage, leave=False), stage
            self._bar.start_t = self._bar.last_print_t = self._since
        self._bar.n = done
        self._bar.refresh()
        self._since = now

    def close(self):
        if self._bar is not None:
            self._bar.close()
            self._bar = None


def _with_progress(progress, call):
    p = _progress(progress)
    try:
        return call(p)
    finally:
        if isinstance(p, _TqdmProgress):
            p.close()


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


def _model_from_json(mj, buffers=()):
    """A model-json dict with {"$buffer": i} matrices (int64 numpy arrays from the core) and
    JSON matrices (entries beyond int64 or fractions: object arrays)."""
    def matrix(v):
        if isinstance(v, dict) and "$buffer" in v:
            return buffers[v["$buffer"]]
        return _array(v)
    m = {k: v for k, v in mj.items() if k != "layers"}
    m["layers"] = [{k: (matrix(v) if k in _MATRIX_KEYS else v) for k, v in L.items()} for L in mj["layers"]]
    return m


def _int64_buffer(a):
    """a as a C-contiguous int64 array when it is an integer numpy array (or list) whose entries
    fit, else None (the entries then travel as exact JSON text)."""
    if isinstance(a, _np.ndarray) and a.dtype.kind == "f":
        raise ValueError("floating-point matrix: exact entries only (integers or fractions.Fraction)")
    try:
        arr = a if isinstance(a, _np.ndarray) else _np.asarray(a)
    except (ValueError, TypeError, OverflowError):
        return None
    if arr.dtype.kind == "f":
        raise ValueError("floating-point matrix: exact entries only (integers or fractions.Fraction)")
    if arr.dtype.kind == "b" or arr.dtype.kind not in "iu" or arr.ndim != 2:
        return None
    if arr.dtype.kind == "u" and arr.size and int(arr.max()) > _INT64[1]:
        return None
    return _np.ascontiguousarray(arr, dtype=_np.int64)


def _plain_json(v):
    """v with numpy arrays and scalars and Fractions (at any depth) as JSON values: integers,
    "p/q" strings, floats left as floats (the C++ reader decides what it accepts)."""
    if isinstance(v, _np.ndarray):
        return _plain_json(v.tolist())
    if isinstance(v, (_builtins.list, tuple)):
        return [_plain_json(x) for x in v]
    if isinstance(v, dict):
        return {k: _plain_json(x) for k, x in v.items()}
    if isinstance(v, (_np.integer, _Fraction)):
        return _to_json_entry(v)
    if isinstance(v, _np.floating):
        return float(v)
    return v


def _model_to_core(model):
    """(model-json text with {"$buffer": i} in place of int64 matrices, [the int64 arrays])."""
    if not isinstance(model, dict):
        raise TypeError(f"model must be a dict (build(...)'s result, its 'model', or a model-json dict), not {type(model).__name__}")
    if "layers" not in model and isinstance(model.get("model"), dict):
        model = model["model"]
    if "layers" not in model:
        raise ValueError("not a model: want build(...)'s result, its 'model', or a model-json dict")
    out = {k: v for k, v in model.items() if k != "layers"}
    out.setdefault("format", "circuitzoo.model/1")
    layers = model["layers"]
    buffers = []

    def matrix(v):
        b = _int64_buffer(v) if isinstance(v, (_np.ndarray, _builtins.list, tuple)) else None
        if b is None:
            return _matrix_json(v) if isinstance(v, (_np.ndarray, _builtins.list, tuple)) else v
        buffers.append(b)
        return {"$buffer": len(buffers) - 1}
    # Matrices are converted where the shape is right; anything else goes to the C++ reader as it
    # is, which refuses it with the CLI's message (ValueError), never an AttributeError here.
    # Other fields (an architecture layer's WQ, filters, decays: issue 28) may hold numpy arrays,
    # numpy scalars or Fractions at any depth: they travel as plain JSON values.
    if isinstance(layers, (_builtins.list, tuple)):  # list() is this module's
        layers = [{k: (matrix(v) if k in _MATRIX_KEYS else _plain_json(v)) for k, v in L.items()} if isinstance(L, dict) else L
                  for L in layers]
    out["layers"] = layers
    return _json.dumps(out), buffers


def _model_to_json(model):
    """The model as a plain model-json dict (every matrix as JSON entries)."""
    text, buffers = _model_to_core(model)
    mj = _json.loads(text)
    for L in mj.get("layers", []) if isinstance(mj.get("layers"), _builtins.list) else []:
        if isinstance(L, dict):
            for k, v in L.items():
                if isinstance(v, dict) and "$buffer" in v:
                    L[k] = _matrix_json(buffers[v["$buffer"]])
    return mj


def constructions(name=None):
    """The constructions table (`circuitzoo list --json`): one dict per construction with name, task,
    summary, params (name, default, kind, min/max or choices, help, zoology's `aliases`) and methods
    (what verify's `method=` accepts). name: that one construction's dict.

    >>> c = cz.constructions("primitive/shift_down")
    >>> c["task"], c["methods"]
    ('shift_down', ['enumerate', 'sat', 'algebra'])
    >>> len(cz.constructions()) > 10
    True
    """
    table = _json.loads(_core.list_json())
    if name is None:
        return table
    for c in table:
        if c["name"] == name:
            return c
    raise ValueError(f"unknown construction '{name}' (see constructions())")


def parameters(name):
    """One construction's parameters, one dict per parameter (for pandas.DataFrame): name, default,
    range ("MIN..MAX" or "a|b|c"), aliases (zoology's names), help and when (the condition under
    which it means something, "KEY=V1|V2", or "" always): `circuitzoo list NAME`.

    >>> [p["name"] for p in cz.parameters("primitive/shift_down")]
    ['N', 'd', 'range', 's', 'conv']
    >>> c = cz.parameters("mqar/attention")[2]
    >>> c["name"], c["default"], c["help"]
    ('c', '0', 'vocabulary size = one-hot width d (0: triples c = n, zoology c = N + 2)')
    """
    return [{"name": p["name"], "default": p["default"],
             "range": f"{p['min']}..{p['max']}" if p["kind"] == "int" else "|".join(p["choices"]),
             "aliases": ", ".join(p.get("aliases", [])), "help": p["help"], "when": p.get("when", "")}
            for p in constructions(name)["params"]]


def list(name=None):  # noqa: A001 (kept: the old name; constructions() does not shadow a built-in)
    """The same as constructions(name): `circuitzoo list --json`, or `list NAME --json` (one dict).

    >>> [p["name"] for p in cz.list("mqar/dyadic")["params"]][:2]
    ['n', 'c']
    """
    return constructions(name)


def build(name, params=None, progress=None):
    """Build a construction: the stats dict plus `model` (ring, N, d, inner_N, inner_d, conv and
    `layers`, each with numpy weight matrices: int64 where they fit, else object arrays of Python
    ints or Fractions), or `model` None when the construction builds a circuit only.

    >>> m = cz.build("primitive/cumsum", {"N": 4, "d": 1})
    >>> m["model"]["layers"][0]["h"].ravel().tolist()      # the all-ones causal filter
    [1, 1, 1, 1]
    """
    pj = _params(params)
    text, buffers = _with_progress(progress, lambda p: _core.build_arrays(name, pj, progress=p))
    j = _json.loads(text)
    mj = j.pop("model_json")
    j["model_summary"] = j.pop("model", None)
    j["model"] = _model_from_json(mj, buffers) if mj else None
    return j


def evaluate(model, u):
    """The model's exact output on u (N×d integers or Fractions): an int64 array when every entry
    fits, else an object array of Python ints / Fractions. u and the model's int64 matrices go
    to the core as numpy buffers.

    >>> m = cz.build("primitive/cumsum", {"N": 4, "d": 1})
    >>> cz.evaluate(m, [[1], [2], [3], [4]]).ravel().tolist()
    [1, 3, 6, 10]
    """
    text, buffers = _model_to_core(model)
    ub = _int64_buffer(u)
    out = _core.eval_arrays(text, buffers, ub, "" if ub is not None else _json.dumps(_matrix_json(u)))
    return out if isinstance(out, _np.ndarray) else _array(_json.loads(out))


def eval(model, u):  # noqa: A001 (kept: the old name)
    """The same as evaluate() (kept for old code; shadows the built-in eval when imported with *).

    >>> cz.eval(cz.build("primitive/cumsum", {"N": 2, "d": 1}), [[5], [7]]).ravel().tolist()
    [5, 12]
    """
    return evaluate(model, u)


def sweep_report(name, vary, values, params=None, progress=None, plot=None):
    """The whole sweep (as `circuitzoo sweep --json`): rows and log-log fits. plot=FILE.svg|png draws
    it as `sweep --plot` does (log-log, claimed shapes, fitted exponents; matplotlib), checked
    before the sweep runs.

    >>> rep = cz.sweep_report("primitive/cumsum", "N", [4, 8], {"d": 1}, progress=False)
    >>> rep["vary"], [row["value"] for row in rep["rows"]]
    ('N', [4, 8])
    >>> _ = cz.sweep_report("primitive/cumsum", "N", [4, 8, 16], progress=False, plot="sweep.svg")  # needs matplotlib
    """
    pj, vs = _params(params), [str(v) for v in values]
    if plot is not None:
        if not isinstance(plot, (str, _os.PathLike)):
            raise TypeError(f"plot must be a path (FILE.svg or FILE.png), not {type(plot).__name__}")
        plot = _os.fspath(plot)
        _core.command("plot", _json.dumps({"path": plot, "check": True}))
    rep = _json.loads(_with_progress(progress, lambda p: _core.sweep_json(name, str(vary), vs, pj, progress=p)))
    if plot is not None:
        _core.command("plot", _json.dumps({"path": plot, "sweep": rep}))
    return rep


def sweep(name, vary, values, params=None, progress=None, plot=None):
    """One flat record per value, for pandas.DataFrame: the varied parameter, every parameter
    (`param.KEY`), and the numeric model.*, circuit.* and metrics.* quantities. plot=: as
    sweep_report's.

    >>> rows = cz.sweep("primitive/cumsum", "N", [4, 8], {"d": 1}, progress=False)
    >>> [(r["N"], r["model.L"]) for r in rows]
    [(4, 1), (8, 1)]
    """
    rep = sweep_report(name, vary, values, params, progress, plot)
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


_ZOOLOGY_NAMES = {"vocab_size": "vocab", "input_seq_len": "seq_len", "num_kv_pairs": "kv", "num_examples": "examples"}


_NUM_PASSES_WHY = ("only num_passes=1 is reproduced: zoology's multiquery_ar fails for num_passes > 1 (its kvs has "
                   "2·K·num_passes columns and keys fill K of them: a shape mismatch), so no batch of zoology's defines "
                   "JRT's repeated prompt for MQAR; JRT's repeated prompt is the sd tasks' prompt=jrt (sd/recurrent-jrt)")


def mqar_data(vocab=None, seq_len=None, kv=None, examples=None, seed=0, power_a=0.01, random_non_queries=False, num_passes=1,
              **zoology):
    """zoology's multiquery_ar batch for a data seed: (inputs, labels), int64 arrays of shape
    (examples, seq_len), labels -100 where not scored. zoology's keyword names are accepted
    (vocab_size, input_seq_len, num_kv_pairs, num_examples). Defaults: vocab 8192, seq_len 64,
    kv 8, examples 1000. random_non_queries=False (our default) reproduces zoology's batch exactly;
    True (zoology's default) fills the non-query positions with tokens from circuitzoo's own
    stream seeded by `seed` (zoology draws them from torch's global generator, which the data
    seed does not fix): keys, values, queries and labels are zoology's either way. num_passes: 1
    only (zoology's multiquery_ar crashes for more; ValueError says so).

    >>> inputs, labels = cz.mqar_data(vocab=16, seq_len=8, kv=2, examples=3, seed=0)
    >>> inputs.shape, labels.shape, str(inputs.dtype)
    ((3, 8), (3, 8), 'int64')
    >>> int((labels != -100).sum(axis=1).max()) <= 2    # at most kv labelled positions per example
    True
    """
    if isinstance(num_passes, bool) or not isinstance(num_passes, (int, _np.integer)):
        raise TypeError(f"num_passes must be an integer, not {type(num_passes).__name__}")
    if num_passes != 1:
        raise ValueError(f"num_passes={int(num_passes)}: {_NUM_PASSES_WHY}")
    mine = {"vocab": vocab, "seq_len": seq_len, "kv": kv, "examples": examples}
    for k, v in zoology.items():
        if k not in _ZOOLOGY_NAMES:
            raise TypeError(f"mqar_data() got an unexpected keyword argument '{k}'")
        ours = _ZOOLOGY_NAMES[k]
        if mine[ours] is not None:
            raise TypeError(f"mqar_data(): give {ours} or zoology's {k}, not both")
        mine[ours] = v
    defaults = {"vocab": 8192, "seq_len": 64, "kv": 8, "examples": 1000}
    mine = {k: (defaults[k] if v is None else v) for k, v in mine.items()}
    if isinstance(power_a, bool) or not isinstance(power_a, (int, float, _np.integer, _np.floating)):
        raise TypeError(f"power_a must be a number, not {type(power_a).__name__}")
    if not isinstance(random_non_queries, (bool, _np.bool_)):
        raise TypeError(f"random_non_queries must be True or False, not {type(random_non_queries).__name__}")
    return _core.mqar_data(_uint(mine["vocab"], "vocab"), _uint(mine["seq_len"], "seq_len"), _uint(mine["kv"], "kv"),
                           _uint(mine["examples"], "examples"), _uint(seed, "seed"), repr(float(power_a)),
                           bool(random_non_queries))


# The commands (verify, stats, prove, claims, export, circuit, merge, tasks): circuitzoo/commands.py.
from .commands import (Circuit, check_proof, circuit, claims, claims_report, device, export, merge, prove, read_circuit,  # noqa: E402
                       stats, tasks, verify)

__all__ = ["constructions", "parameters", "list", "verify", "stats", "build", "evaluate", "eval", "sweep", "sweep_report",
           "mqar_data", "prove", "claims", "claims_report", "export", "circuit", "read_circuit", "Circuit", "merge", "tasks", "device", "check_proof"]
