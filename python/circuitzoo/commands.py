"""The CLI's commands from Python, one function each: each runs the command's own C++ code
(python/command_calls.h) and returns the JSON that `circuitzoo COMMAND ... --json` writes, as Python
values. Bad input raises ValueError with the CLI's message. Parameters: cz.constructions(),
cz.parameters(NAME), `circuitzoo list`, docs/contract.md."""
import json as _json
import os as _os
import tempfile as _tempfile

import numpy as _np

from . import _core, _model_to_json, _params, _plain_json, _uint, _with_progress

_SAT_OPTIONS = {"timeout": 300, "confirm": False, "certify": False, "proof": None, "split": "family", "lemmas": False, "cubes": False,
                "order": "index", "cnf": None, "strategy": "auto", "zero_one": "auto",
                "blocks": "calls"}
_ALGEBRA_OPTIONS = {"budget": 4 << 30, "route": "auto", "symbols": "inputs"}


def _run(command, options, progress=None):
    return _json.loads(_with_progress(progress, lambda p: _core.command(command, _json.dumps(options), progress=p)))


def _path(x, what):
    if isinstance(x, (str, _os.PathLike)):
        return _os.fspath(x)
    raise TypeError(f"{what} must be a path, not {type(x).__name__}")


def _text(x, what):
    if not isinstance(x, str):
        raise TypeError(f"{what} must be a string, not {type(x).__name__}")
    return x


class _ModelFile:
    """A model given as a dict, as a model-json file the command reads (checked as the CLI reads it),
    removed afterwards; a path is used as it is."""

    def __init__(self, model, what="model"):
        self._dir = None
        if isinstance(model, dict):
            self._dir = _tempfile.TemporaryDirectory(prefix="circuitzoo-")
            self.path = _os.path.join(self._dir.name, "model.json")
            _core.save_model_json(_json.dumps(_model_to_json(model)), self.path)
        else:
            self.path = _path(model, what)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self._dir is not None:
            self._dir.cleanup()


# Circuit files by extension (the CLI's circuit_format_of): a path given as verify's first argument
# with task= is read as circuit= when it has one of these, as model= (a model-json file) otherwise.
_CIRCUIT_SUFFIXES = (".blif", ".aag", ".aig", ".bristol", ".dot", ".txt")


def _file_kind(path):
    """"model", "circuit" or "program": what an existing file given as verify's first argument is
    (a .json file by its "format": circuitzoo.circuit/1 and circuitzoo.program/1; else a model)."""
    if path.lower().endswith(_CIRCUIT_SUFFIXES):
        return "circuit"
    if path.lower().endswith(".json"):
        try:
            with open(path, "rb") as f:
                head = f.read(4096).decode("utf-8", "replace")
        except OSError:
            return "model"
        if '"circuitzoo.circuit/' in head:
            return "circuit"
        if '"circuitzoo.program/' in head:
            return "program"
    return "model"


def _file_as_first_argument(name, task, model, circuit, program):
    """verify("my.json", task=...) (issue 49 item 14): an existing file as the first argument, with
    task= and no other file, is that file: model= (a model-json file), circuit= or program=."""
    if task is None or not isinstance(name, (str, _os.PathLike)) or (model, circuit, program) != (None, None, None):
        return name, model, circuit, program
    path = _os.fspath(name)
    if not _os.path.isfile(path):
        if path.lower().endswith((".json", ".npz", ".safetensors") + _CIRCUIT_SUFFIXES):
            raise ValueError(f"verify({path!r}, task={task!r}): no such file (a path as the first argument is your file, "
                             f"read as model=; a construction NAME takes no task=)")
        return name, model, circuit, program
    kind = _file_kind(path)
    return None, (path if kind == "model" else None), (path if kind == "circuit" else None), (path if kind == "program" else None)


def _check_file_arguments(name, task, model, circuit, program, all_, from_npy):  # noqa: ARG001
    """The CLI's dispatch refusals (verify_byo.cpp) in Python's words: model=, task=, not --model."""
    files = [k for k, v in (("model", model), ("circuit", circuit), ("program", program)) if v is not None]
    if len(files) > 1:
        raise ValueError(f"verify: give one of model=, circuit= or program= (got {', '.join(f + '=' for f in files)})")
    if task is None or files:
        return
    if name is not None:
        raise ValueError(f"verify({name!r}, task={task!r}): a construction NAME is checked against its own task; task= checks "
                         "your file: give model=, circuit= or program= (a path or a dict), or the file's path as the first argument")
    if not all_:
        raise ValueError(f"verify(task={task!r}) checks your file: give model=, circuit= or program= (a path, a dict for "
                         "model=), or the file's path as the first argument: verify('my.json', task=...)")


# The C++ messages of verify's dispatch that name the CLI's flags, in Python's words (issue 49 item 14).
_PYTHON_WORDS = (
    ("--model/--circuit/--program need --task TASK", "model=, circuit= and program= need task=TASK"),
    ("give one of --model FILE, --circuit FILE or --program FILE with --task", "give one of model=, circuit= or program= with task="),
    ("--model/--circuit check your file against --task; drop the construction NAME/--all",
     "model= and circuit= are checked against task=: drop the construction NAME / all=True"),
    ("it is checked as --task arch", "it is checked as task='arch'"),
    ("(verify NAME --from-npy)", "(verify(NAME, from_npy=...))"),
    ("see `circuitzoo tasks`", "see circuitzoo.tasks()"),
    ("it needs --model FILE and --method algebra", "it needs model= and method='algebra'"),
)


def _python_words(msg):
    for cli, py in _PYTHON_WORDS:
        msg = msg.replace(cli, py)
    return msg[:-len(" (--task)")] + " (task=)" if msg.endswith(" (--task)") else msg


class _NpyPair:
    """from_npy=[inputs, labels] (issue 49 item 12): each a path, or an integer array (numpy, a list,
    a torch tensor: what mqar_data returns) written to a temporary .npy file, removed afterwards (also
    on an error). The report names an array "<inputs>" / "<labels>", as a dict model is "<model>"."""

    def __init__(self, pair):
        if isinstance(pair, (str, _os.PathLike)) or not hasattr(pair, "__len__") or len(pair) != 2:
            raise TypeError("from_npy must be [inputs, labels]: two paths to .npy files or two integer arrays "
                            "(mqar_data()'s result)")
        self._dir, self.paths, self._names = None, [], {}
        try:
            for x, what in zip(pair, ("inputs", "labels")):
                if isinstance(x, (str, _os.PathLike)):
                    self.paths.append(_os.fspath(x))
                    continue
                a = _np.asarray(x.detach().cpu().numpy() if hasattr(x, "detach") else x)
                if a.dtype.kind not in "iu" or a.ndim != 2:
                    raise ValueError(f"from_npy {what}: want a 2-D integer array (examples × seq_len), got "
                                     f"{a.ndim}-D {a.dtype}")
                if self._dir is None:
                    self._dir = _tempfile.TemporaryDirectory(prefix="circuitzoo-npy-")
                path = _os.path.join(self._dir.name, what + ".npy")
                _np.save(path, _np.ascontiguousarray(a, dtype=_np.int64))
                self.paths.append(path)
                self._names[path] = f"<{what}>"
        except BaseException:
            self.cleanup()
            raise

    def cleanup(self):
        if self._dir is not None:
            self._dir.cleanup()
            self._dir = None

    def rename_text(self, text, quoted=False):
        for path, shown in self._names.items():
            text = text.replace(_json.dumps(path)[1:-1] if quoted else path, shown)
        return text

    def rename(self, report):
        return _json.loads(self.rename_text(_json.dumps(report), True)) if self._names else report


def verify(name=None, params=None, samples=None, seed=1, exhaustive=False, threads=0, device="cpu", progress=None,
           method="enumerate", *, task=None, model=None, circuit=None, program=None, circuit_format=None, port_names=None,
           all=False, from_npy=None, shard=None, checkpoint=None, resume=False, checkpoint_every=None, block_size=None,
           scalar=False, operator=None, equiv_model=None, **method_options):  # noqa: A002 (all: the CLI's --all)
    """`circuitzoo verify ... --json`: the report as a dict (a failure is a result, not an exception).

    verify(NAME, params)                      a construction (all=True: every one, a list)
    verify(model_dict_or_path, task="mqar")   your model (a dict: build()'s result or model-json)
    verify(circuit=PATH or read_circuit(...), task=...), verify(program=PATH, task="sd")
    verify(model=..., task="hyena", operator=PATH or dict)   your model against an operator given by its
                                              weights (a model-json file or dict whose one layer is a hyena,
                                              h3, retnet or rwkv layer; the CLI's --operator)
    verify(model=A, equiv_model=B, method="algebra")   whether two models (paths or dicts) compute the same
                                              polynomial map on every input (the CLI's --equiv-model)
    method: "enumerate" (samples, exhaustive, seed, device, shard, checkpoint, ...), "sat"
    (timeout, confirm, proof, split, lemmas, cubes, order, cnf, strategy, zero_one, blocks) or "algebra"
    (budget, route): the CLI's flags of the same names (contract.md). progress: a callable
    progress(done, total, stage), False, or None (tqdm on a terminal or in a notebook).

    >>> r = cz.verify("primitive/shift_down", {"N": 4, "d": 1, "s": 1}, progress=False)
    >>> r["verdict"], r["failed"]
    ('verified', 0)
    >>> m = cz.build("primitive/shift_down", {"N": 4, "d": 1, "s": 1})
    >>> cz.verify(m, task="shift_down", params={"s": 1})["verdict"]       # your model against the task
    'verified'
    >>> cz.verify("primitive/shift_down", {"N": 4, "d": 1, "s": 1}, method="sat")["verdict"]
    'proved'
    >>> inputs, labels = cz.mqar_data(vocab=16, seq_len=8, kv=2, examples=5)
    >>> cz.verify("mqar/attention", from_npy=[inputs, labels])["verdict"]    # arrays or .npy paths
    'verified'
    """
    if isinstance(name, dict):
        if model is not None:
            raise TypeError("give the model once: verify(model) or verify(model=...)")
        name, model = None, name
    name, model, circuit, program = _file_as_first_argument(name, task, model, circuit, program)
    _check_file_arguments(name, task, model, circuit, program, all, from_npy)
    o = {"params": _params(params), "seed": _uint(seed, "seed"), "threads": _uint(threads, "threads"),
         "exhaustive": bool(exhaustive), "all": bool(all), "scalar": bool(scalar), "resume": bool(resume),
         "device": _text(device, "device"), "method": _text(method, "method")}
    if name is not None:
        o["name"] = _text(name, "name")
    if samples is not None:
        o["samples"] = _uint(samples, "samples")
    for k, v in (("checkpoint_every", checkpoint_every), ("block_size", block_size)):
        if v is not None:
            o[k] = _uint(v, k)
    for k, v in (("task", task), ("circuit_format", circuit_format), ("shard", shard)):
        if v is not None:
            o[k if k != "circuit_format" else "circuit_from"] = _text(v, k)
    for k, v in (("checkpoint", checkpoint), ("port_names", port_names), ("program_file", program)):
        if v is not None:
            o[k] = _path(v, k.replace("_file", ""))
    npy = _NpyPair(from_npy) if from_npy is not None else None
    if npy is not None:
        o["from_npy"] = npy.paths
    if isinstance(circuit, Circuit):
        o.setdefault("circuit_from", circuit.format)
        circuit = circuit.file
    if circuit is not None:
        o["circuit_file"] = _path(circuit, "circuit")
    if isinstance(model, dict):
        o["model_file"], o["model_text"] = "<model>", _json.dumps(_model_to_json(model))
    elif model is not None:
        o["model_file"] = _path(model, "model")
    if isinstance(operator, dict):
        o["operator_file"], o["operator_text"] = "<operator>", _json.dumps(_model_to_json(operator))
    elif operator is not None:
        o["operator_file"] = _path(operator, "operator")
    if isinstance(equiv_model, dict):
        o["equiv_model_file"], o["equiv_model_text"] = "<equiv_model>", _json.dumps(_model_to_json(equiv_model))
    elif equiv_model is not None:
        o["equiv_model_file"] = _path(equiv_model, "equiv_model")
    sat_given = []
    for k, v in method_options.items():
        if k not in _SAT_OPTIONS and k not in _ALGEBRA_OPTIONS:
            raise TypeError(f"verify() got an unexpected keyword argument '{k}'")
        if k in _ALGEBRA_OPTIONS and method != "algebra" and v != _ALGEBRA_OPTIONS[k]:
            raise ValueError(f"{k} needs method='algebra' ({k})")
        if k in _SAT_OPTIONS and v != _SAT_OPTIONS[k]:
            sat_given.append(k)
        if isinstance(v, bool) or v is None:
            o[k] = v
        elif k in ("timeout",):
            if not isinstance(v, (int, float)):
                raise TypeError(f"timeout must be a number, not {type(v).__name__}")
            o[k] = repr(float(v))
        elif k == "budget":
            o[k] = _uint(v, k)
        elif k in ("proof", "cnf"):
            o[k] = _path(v, k)
        else:
            o[k] = _text(v, k)
    o["sat_flags"] = sat_given
    try:
        r = _run("verify", o, progress)
    except ValueError as e:
        msg = _python_words(str(e))
        raise ValueError(npy.rename_text(msg) if npy is not None else msg) from None
    finally:
        if npy is not None:
            npy.cleanup()
    return npy.rename(r) if npy is not None else r


def stats(name=None, params=None, progress=None, *, model=None):
    """`circuitzoo stats NAME --json` (costs beside the paper's claims), or of a model
    (`stats --model`: a dict or a model-json path).

    >>> s = cz.stats("primitive/shift_down", {"N": 4, "d": 1, "s": 1})
    >>> s["model"]["L"], s["model"]["ring"]
    (1, 'Z')
    """
    o = {"params": _params(params)}
    if name is not None:
        o["name"] = _text(name, "name")
    if model is None:
        return _run("stats", o, progress)
    with _ModelFile(model) as f:
        r = _run("stats", dict(o, model_file=f.path), progress)
    if isinstance(model, dict):
        r["model_file"] = "<model>"
    return r


def prove(name=None, all=False, fast=False, seed=1, progress=None):  # noqa: A002
    """`circuitzoo prove NAME | --all --json`: the lemma checks, {"checks": [{name, holds, verdict, ...}]}.

    >>> r = cz.prove("stacking/layers-add")
    >>> r["checks"][0]["name"], r["checks"][0]["verdict"]
    ('stacking/layers-add', 'holds')
    """
    o = {"all": bool(all), "fast": bool(fast), "seed": _uint(seed, "seed")}
    if name is not None:
        o["name"] = _text(name, "name")
    return _run("prove", o, progress)


def claims_report(fast=False, format="json", plot=None, progress=None):  # noqa: A002
    """`circuitzoo claims --json` (a dict), or format="markdown" | "latex" | "errata" (the text);
    plot=FILE.svg|png as `--plot`.

    Not run by the tests (about a minute: every row of the ledger is checked):

    >>> rep = cz.claims_report(fast=True)        # doctest: +SKIP
    >>> rep["claims"][0]["status"]               # doctest: +SKIP
    'verified'
    """
    o = {"fast": bool(fast), "format": _text(format, "format")}
    if plot is not None:
        o["plot"] = _path(plot, "plot")
    return _run("claims", o, progress)


def claims(fast=False, progress=None):
    """The claims ledger as one dict per claim (row, id, source, statement, status, subject, domain,
    command, ...), ready for pandas.DataFrame; claims_report() gives the whole `claims --json`.

    Not run by the tests (about a minute: every row of the ledger is checked):

    >>> rows = cz.claims(fast=True)              # doctest: +SKIP
    >>> sorted(rows[0])[:3]                      # doctest: +SKIP
    ['command', 'domain', 'id']
    """
    return claims_report(fast, progress=progress)["claims"]


_BINARY_FORMATS = ("npz", "safetensors", "aiger-binary")


def export(name=None, params=None, format="model-json", out=None, *, model=None, progress=None):  # noqa: A002
    """`circuitzoo export NAME --format FORMAT -o OUT` (or --model: a dict or a path): every format
    of the CLI (model-json, models, program, reduction, operator, circuit-json, dot, aiger, aiger-binary, blif,
    bristol, npz, safetensors). Returns OUT; with out=None, the file's content (bytes for npz,
    safetensors and aiger-binary, else str).

    >>> text = cz.export("primitive/shift_down", {"N": 4, "d": 1, "s": 1}, format="dot")
    >>> text.startswith("digraph")
    True
    >>> cz.export("primitive/shift_down", {"N": 4, "d": 1, "s": 1}, format="circuit-json", out="sd.json")
    'sd.json'
    """
    o = {"params": _params(params), "format": _text(format, "format")}
    if name is not None:
        o["name"] = _text(name, "name")
    with _tempfile.TemporaryDirectory(prefix="circuitzoo-") as tmp:
        target = _path(out, "out") if out is not None else _os.path.join(tmp, "export")
        o["out"] = target
        if model is None:
            _run("export", o, progress)
        else:
            with _ModelFile(model) as f:
                _run("export", dict(o, model_file=f.path), progress)
        if out is not None:
            return out
        with open(target, "rb") as fh:
            data = fh.read()
    return data if format in _BINARY_FORMATS else data.decode("utf-8")


def circuit(file, format=None, *, to=None, out=None, equiv=None, equiv_format=None, eval=None, equiv_model=None,  # noqa: A002
            samples=None, seed=1, threads=0, method=None, certify=False, timeout=None, proof=None, progress=None):
    """`circuitzoo circuit FILE --json`: {file, format, circuit: stats}, with `eval` (a list of input
    values, rows, {"input": ...}, or an INPUT.json path), `equiv` (another circuit file; samples=K:
    random simulation; method="sat" (or more than 32 inputs): a proof by SAT sweeping, certify=True
    checks every DRAT proof, timeout= seconds, proof=DIR keeps the certificates for check_proof(DIR)),
    `equiv_model` (a model dict or path) and `to`+`out` (convert) as the CLI's flags.

    >>> _ = cz.export("primitive/shift_down", {"N": 4, "d": 1, "s": 1}, format="circuit-json", out="sd.json")
    >>> r = cz.circuit("sd.json", eval=[1, 2, 3, 4])
    >>> r["circuit"]["inputs"], [o["value"] for o in r["eval"]["outputs"]]
    (4, [0, 1, 2, 3])
    """
    o = {"file": _path(file, "file"), "seed": _uint(seed, "seed"), "threads": _uint(threads, "threads")}
    if method is not None:
        o["method"] = _text(method, "method")
    if not isinstance(certify, bool):
        raise TypeError("certify must be True or False")
    if certify:
        o["certify"] = True
    if timeout is not None:
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
            raise TypeError("timeout must be a number of seconds")
        o["timeout"] = repr(float(timeout))
    if proof is not None:
        o["proof"] = _path(proof, "proof")
    if format is not None:
        o["format"] = _text(format, "format")
    if to is not None:
        o["to"] = _text(to, "to")
    if out is not None:
        o["out"] = _path(out, "out")
    if isinstance(equiv, Circuit):
        equiv_format = equiv_format or equiv.format
        equiv = equiv.file
    if equiv is not None:
        o["equiv"] = _path(equiv, "equiv")
    if equiv_format is not None:
        o["equiv_format"] = _text(equiv_format, "equiv_format")
    if samples is not None:
        o["samples"] = _uint(samples, "samples")
    if isinstance(eval, (str, _os.PathLike)):
        o["eval_file"] = _os.fspath(eval)
    elif isinstance(eval, dict):
        o["eval"] = _plain_json(eval)
    elif eval is not None:
        o["eval"] = {"input": _plain_json(eval)}
    if equiv_model is None:
        return _run("circuit", o, progress)
    with _ModelFile(equiv_model, "equiv_model") as f:
        r = _run("circuit", dict(o, equiv_model=f.path), progress)
    if isinstance(equiv_model, dict):
        r["equiv_model"]["file"] = "<model>"
    return r


class Circuit:
    """A circuit file read as `circuitzoo circuit FILE` reads it: `stats` (gates, depth, inputs,
    outputs, ...), `eval(values)`, `equiv(other)`, `equiv_model(model)`, `write(out, format)`. Each
    call reads the file again with the CLI's code (read_circuit() checks it once up front).

    >>> _ = cz.export("primitive/shift_down", {"N": 4, "d": 1, "s": 1}, format="circuit-json", out="sd.json")
    >>> c = cz.Circuit("sd.json")
    >>> c.stats["inputs"], c.stats["outputs"]
    (4, 4)
    """

    def __init__(self, file, format=None, progress=None):  # noqa: A002
        r = circuit(file, format, progress=progress)
        self.file, self.format, self.stats = r["file"], r["format"], r["circuit"]

    def __repr__(self):
        keys = ("inputs", "outputs", "gates", "depth")
        return f"Circuit({self.file!r}, {self.format!r}: " + ", ".join(f"{k}={self.stats[k]}" for k in keys if k in self.stats) + ")"

    def eval(self, values):  # noqa: A003
        """Exact outputs over Q (`circuit FILE --eval`): {"outputs": [{name, value}], "output": rows when named y[i][j]}.

        >>> _ = cz.export("primitive/shift_down", {"N": 4, "d": 1, "s": 1}, format="circuit-json", out="sd.json")
        >>> [o["value"] for o in cz.read_circuit("sd.json").eval([1, 2, 3, 4])["outputs"]]
        [0, 1, 2, 3]
        """
        return circuit(self.file, self.format, eval=values)["eval"]

    def equiv(self, other, samples=None, seed=1, threads=0, progress=None):
        """Equivalence with another circuit (a path or a Circuit) on every 0/1 input, or on `samples` random ones.

        >>> _ = cz.export("primitive/shift_down", {"N": 4, "d": 1, "s": 1}, format="circuit-json", out="sd.json")
        >>> cz.read_circuit("sd.json").equiv("sd.json")["equivalent"]
        True
        """
        if other is None:  # issue 46 item 15: was a KeyError from the missing "equiv" entry
            raise TypeError("equiv needs another circuit (a path or a Circuit), not None")
        return circuit(self.file, self.format, equiv=other, samples=samples, seed=seed, threads=threads, progress=progress)["equiv"]

    def equiv_model(self, model, threads=0, progress=None):
        """Equivalence with a model (a dict or a model-json path) on every 0/1 input.

        >>> _ = cz.export("primitive/shift_down", {"N": 4, "d": 1, "s": 1}, format="circuit-json", out="sd.json")
        >>> m = cz.build("primitive/shift_down", {"N": 4, "d": 1, "s": 1})
        >>> cz.read_circuit("sd.json").equiv_model(m)["equivalent"]
        True
        """
        return circuit(self.file, self.format, equiv_model=model, threads=threads, progress=progress)["equiv_model"]

    def write(self, out, format):  # noqa: A002
        """Writes the circuit as `format` (circuit-json, dot, aiger, aiger-binary, blif, bristol) to `out`.

        >>> _ = cz.export("primitive/shift_down", {"N": 4, "d": 1, "s": 1}, format="circuit-json", out="sd.json")
        >>> cz.read_circuit("sd.json").write("sd.dot", "dot")
        'sd.dot'
        """
        circuit(self.file, self.format, to=format, out=out)
        return out


def read_circuit(file, format=None, progress=None):  # noqa: A002
    """A circuit file (format by extension, or circuit-json, dot, aiger, aiger-binary, blif, bristol) as a Circuit.

    >>> _ = cz.export("primitive/shift_down", {"N": 4, "d": 1, "s": 1}, format="circuit-json", out="sd.json")
    >>> cz.read_circuit("sd.json").stats["inputs"]
    4
    """
    return Circuit(file, format, progress)


def merge(parts, progress=None):
    """`circuitzoo merge PART.json... --json`: the single-run report from `verify(..., shard="I/K")` parts.

    >>> p = [cz.verify("primitive/shift_down", {"N": 4, "d": 1, "s": 1}, shard=f"{i}/2") for i in range(2)]
    >>> import json
    >>> for i, r in enumerate(p):
    ...     with open(f"part{i}.json", "w") as f:
    ...         json.dump(r, f)
    >>> cz.merge(["part0.json", "part1.json"])["verdict"]
    'verified'
    """
    if isinstance(parts, (str, _os.PathLike)):
        raise TypeError("parts must be a list of part-report paths")
    return _run("merge", {"parts": [_path(p, "parts") for p in parts]}, progress)


def tasks(name=None):
    """`circuitzoo tasks [NAME] --json`: every task (a list), or one (a dict).

    >>> t = cz.tasks("shift_down")
    >>> t["name"], "reference" in t
    ('shift_down', True)
    >>> len(cz.tasks()) > 5
    True
    """
    if name is not None and _text(name, "name") == "":  # issue 46 item 15: '' listed every task
        raise ValueError("tasks: name must not be empty (None lists every task)")
    return _run("tasks", {} if name is None else {"name": _text(name, "name")})


def device():
    """`circuitzoo device --json`: whether this build has CUDA kernels, the device, and the device paths.

    >>> d = cz.device()
    >>> isinstance(d["built_with_cuda"], bool), "device_paths" in d
    (True, True)
    """
    return _run("device", {})


def check_proof(directory, threads=0, circuits=None):
    """`circuitzoo check-proof DIR --json`: a `verify(..., method="sat", proof=DIR)` certificate directory
    re-checked offline (each miter re-encoded, hashes and DRAT proofs checked): the report as a dict,
    its "verdict" "certified" or "rejected". A list of directories is a sharded run's (`verify(...,
    shard="I/K", proof=DIR_I)`, every shard once): `check-proof DIR_0 ... DIR_{K-1}`. The directory
    of `circuit(A, equiv=B, method="sat", proof=DIR)` re-runs the equivalence on the two files
    (circuits=(FIRST, SECOND): where they are now; default: the paths recorded, SHA-256 checked).

    >>> r = cz.verify("primitive/shift_down", {"N": 4, "d": 1, "s": 1}, method="sat", proof="proof")
    >>> cz.check_proof("proof")["verdict"]
    'certified'
    """
    dirs = [directory] if isinstance(directory, (str, _os.PathLike)) else list(directory)
    if not dirs:
        raise ValueError("check_proof needs a directory (or every shard's)")
    o = {"dirs": [_path(d, "directory") for d in dirs], "threads": _uint(threads, "threads")}
    if circuits is not None:
        if isinstance(circuits, (str, _os.PathLike)) or len(circuits) != 2:
            raise ValueError("circuits must be two paths: the first circuit file and the second")
        o["circuits"] = [_path(c, "circuits") for c in circuits]
    return _run("check-proof", o)
