"""One function per CLI command (issue 39): each gives what `circuitzoo COMMAND ... --json` gives
(timings aside), and refuses what the CLI refuses with its message. Small sizes: a few seconds in all."""
import io
import json
import os
import pydoc
import shutil
import time

import pytest

import circuitzoo as cz

def clocks(d):
    return {k for k in d if k == "timing" or k.endswith("seconds")}


def same(a, b):
    """Equal up to the run's clocks (timing, *seconds) at any depth."""
    if isinstance(a, dict) and isinstance(b, dict):
        ka, kb = set(a) - clocks(a), set(b) - clocks(b)
        assert ka == kb, (sorted(ka ^ kb))
        for k in ka:
            same(a[k], b[k])
    elif isinstance(a, list) and isinstance(b, list):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            same(x, y)
    else:
        assert a == b


def cli_json(cli, *args):
    r = cli(*args, "--json", "-")
    assert r.returncode in (0, 1), r.stderr
    return json.loads(r.stdout)


def shift_model(N=6, d=2, s=2):
    """README's hand-written model: rows shifted down by s."""
    zeros = lambda r, c: [[0] * c for _ in range(r)]  # noqa: E731
    h = zeros(N, d)
    for j in range(d):
        h[s][j] = 1
    layer = {"kind": "baseconv", "W": zeros(d, d), "b1": [[1] * d for _ in range(N)], "h": h, "b2": zeros(N, d)}
    return {"format": "circuitzoo.model/1", "ring": "Z", "N": N, "d": d, "inner_N": N, "inner_d": d, "conv": "causal",
            "layers": [layer]}


def test_verify_construction(cli):
    same(cz.verify("primitive/shift_down", {"N": 8, "s": 2}, samples=500),
         cli_json(cli, "verify", "primitive/shift_down", "-p", "N=8", "-p", "s=2", "--samples", "500"))


def test_verify_model_dict_and_file_against_a_task(cli, tmp_path):
    m = shift_model()
    path = tmp_path / "my_shift.json"
    path.write_text(json.dumps(m))
    want = cli_json(cli, "verify", "--model", path, "--task", "shift_down", "-p", "s=2", "--samples", "300")
    got = cz.verify(model=str(path), task="shift_down", params={"s": 2}, samples=300)
    same(got, want)
    r = cz.verify(m, task="shift_down", params={"s": 2}, samples=300)  # a dict: was a pybind TypeError
    assert r["artifact"]["file"] == "<model>" and r["failed"] == 0
    same(r, json.loads(json.dumps(want).replace(json.dumps(str(path))[1:-1], "<model>")))  # the file's name aside
    bad = cz.verify(m, task="shift_down", params={"s": 1}, samples=300)
    assert bad["failed"] > 0 and bad["counterexample"]
    with pytest.raises(ValueError, match="need task=TASK"):  # issue 49 item 14: Python's words
        cz.verify(shift_model(d=1), samples=5)


def test_verify_circuit_file(cli, tmp_path):
    p = str(tmp_path / "c.json")
    cz.export("primitive/shift_down", {"N": 4, "d": 2, "s": 1}, format="circuit-json", out=p)
    args = ["--task", "shift_down", "-p", "N=4", "-p", "d=2", "-p", "s=1"]
    same(cz.verify(circuit=p, task="shift_down", params={"N": 4, "d": 2, "s": 1}), cli_json(cli, "verify", "--circuit", p, *args))
    same(cz.verify(circuit=cz.read_circuit(p), task="shift_down", params={"N": 4, "d": 2, "s": 1}),
         cli_json(cli, "verify", "--circuit", p, *args))


def test_verify_program_file(cli, tmp_path):
    p = str(tmp_path / "alg3.json")
    cz.export("sd/recurrent-jrt", format="program", out=p)
    same(cz.verify(program=p, task="sd"), cli_json(cli, "verify", "--program", p, "--task", "sd"))


def test_verify_method_algebra(cli):
    same(cz.verify("primitive/shift_down", method="algebra"), cli_json(cli, "verify", "primitive/shift_down", "--method", "algebra"))
    with pytest.raises(ValueError, match="needs method='algebra'"):
        cz.verify("primitive/shift_down", route="expansion")
    with pytest.raises(ValueError, match="method must be one of enumerate, sat, algebra"):
        cz.verify("primitive/shift_down", method="proof")


@pytest.mark.skipif(shutil.which("cadical") is None, reason="cadical is not installed")
def test_verify_circuit_file_method_sat(cli, tmp_path):
    p = str(tmp_path / "cmp.blif")
    cz.export("circuit/compare", {"d": 3}, format="blif", out=p)
    want = cli_json(cli, "verify", "--circuit", p, "--task", "compare", "-p", "d=3", "--method", "sat", "--timeout", "60")
    same(cz.verify(circuit=p, task="compare", params={"d": 3}, method="sat", timeout=60), want)
    with pytest.raises(ValueError, match="timeout needs --method sat"):
        cz.verify("circuit/compare", timeout=5)


@pytest.mark.skipif(shutil.which("cadical") is None, reason="cadical is not installed")
def test_certify_and_check_proof(cli, tmp_path):
    # issue 38 from Python: --certify, --proof DIR and check-proof give the CLI's reports.
    d = str(tmp_path / "cert")
    got = cz.verify("circuit/compare", {"d": 3}, method="sat", certify=True, proof=d)
    assert got["verdict"] == "proved" and got["sat"]["certified"] >= 1
    checked = cz.check_proof(d)
    assert checked["verdict"] == "certified"
    same(checked, cli_json(cli, "check-proof", d))
    with pytest.raises(ValueError):
        cz.check_proof(str(tmp_path / "nothing-here"))
    # a sharded run: each shard's part and directory, checked together (and one shard alone refused)
    parts, dirs = [], []
    for i in range(2):
        parts.append(str(tmp_path / f"part{i}.json"))
        dirs.append(str(tmp_path / f"cert{i}"))
        r = cli("verify", "circuit/compare", "-p", "d=3", "--method", "sat", "--shard", f"{i}/2", "--json", parts[-1],
                "--proof", dirs[-1])
        assert r.returncode == 0, r.stderr
    both = cz.check_proof(dirs)
    assert both["verdict"] == "certified"
    same(both, cli_json(cli, "check-proof", *dirs))
    with pytest.raises(ValueError, match="shard 1/2 is missing"):
        cz.check_proof(dirs[:1])


def test_algebra_weights_as_symbols(cli):
    want = cli_json(cli, "verify", "sim/rwkv", "-p", "N=3", "--method", "algebra", "--algebra-symbols", "weights")
    got = cz.verify("sim/rwkv", {"N": 3}, method="algebra", symbols="weights")
    assert got["verdict"] == "proved"
    same(got, want)


def test_stats(cli, tmp_path):
    same(cz.stats("mqar/dyadic", {"n": 4, "c": 8}), cli_json(cli, "stats", "mqar/dyadic", "-p", "n=4", "-p", "c=8"))
    path = tmp_path / "m.json"
    path.write_text(json.dumps(shift_model()))
    want = cli_json(cli, "stats", "--model", path)
    same(cz.stats(model=str(path)), want)
    got = cz.stats(model=shift_model())
    assert got["model_file"] == "<model>" and got["model"] == want["model"]


def test_prove(cli):
    same(cz.prove("stacking/layers-add", fast=True), cli_json(cli, "prove", "stacking/layers-add", "--fast"))
    with pytest.raises(ValueError, match="give one check NAME or --all"):
        cz.prove()


def test_claims_rows_for_a_dataframe():
    rows = cz.claims(fast=True)  # one run (the fast ledger takes seconds): its rows as the CLI's JSON gives them
    assert rows and all({"row", "id", "status", "statement", "source"} <= set(r) for r in rows)
    try:
        import pandas
    except ImportError:
        return
    df = pandas.DataFrame(rows)
    assert len(df) == len(rows) and "status" in df.columns


FORMATS = ["model-json", "circuit-json", "dot", "aiger", "aiger-binary", "blif", "bristol", "npz", "safetensors", "models"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_export_every_format(cli, tmp_path, fmt):
    name, params = ("primitive/shift_down", {"N": 4, "d": 1, "s": 1}) if fmt not in ("aiger", "aiger-binary", "blif") else (
        "circuit/compare", {"d": 2})
    out = tmp_path / "cli.out"
    flags = [x for k, v in params.items() for x in ("-p", f"{k}={v}")]
    r = cli("export", name, *flags, "--format", fmt, "-o", out)
    assert r.returncode == 0, r.stderr
    data = cz.export(name, params, format=fmt)
    assert (data if isinstance(data, bytes) else data.encode()) == out.read_bytes()
    mine = tmp_path / "py.out"
    assert cz.export(name, params, format=fmt, out=str(mine)) == str(mine) and mine.read_bytes() == out.read_bytes()


def test_export_program_reduction_and_model(cli, tmp_path):
    for name, fmt in (("sd/recurrent-jrt", "program"), ("gar/via-sd", "reduction")):
        out = tmp_path / "cli.json"
        assert cli("export", name, "--format", fmt, "-o", out).returncode == 0
        assert json.loads(cz.export(name, format=fmt)) == json.loads(out.read_text())
    path = tmp_path / "m.json"
    path.write_text(json.dumps(shift_model()))
    out = tmp_path / "m_out.json"
    assert cli("export", "--model", path, "--format", "model-json", "-o", out).returncode == 0
    assert json.loads(cz.export(model=str(path))) == json.loads(out.read_text())
    assert json.loads(cz.export(model=shift_model())) == json.loads(out.read_text())
    with pytest.raises(ValueError, match="unknown format"):
        cz.export("primitive/shift_down", format="png")


def test_circuit_files(cli, tmp_path):
    p = str(tmp_path / "c.json")
    cz.export("primitive/shift_down", {"N": 4, "d": 1, "s": 1}, format="circuit-json", out=p)
    c = cz.read_circuit(p)
    want = cli_json(cli, "circuit", p)
    assert c.stats == want["circuit"] and c.format == "circuit-json" and "Circuit(" in repr(c)
    same(cz.circuit(p), want)
    inp = tmp_path / "in4.json"
    inp.write_text('{"input": [[1], [2], [3], [4]]}')
    ev = cli_json(cli, "circuit", p, "--eval", inp)["eval"]
    assert c.eval([[1], [2], [3], [4]])["output"] == ev["output"] == [[0], [1], [2], [3]]
    assert c.eval([1, 2, 3, 4])["outputs"] == ev["outputs"]
    m = str(tmp_path / "m.json")
    cz.export("primitive/shift_down", {"N": 4, "d": 1, "s": 1}, out=m)
    assert c.equiv_model(m)["equivalent"] and c.equiv_model(cz.build("primitive/shift_down", {"N": 4, "d": 1, "s": 1}))["equivalent"]
    blif = str(tmp_path / "c.bristol")
    c.write(blif, "bristol")
    e = cz.read_circuit(blif).equiv(c)
    assert e["equivalent"] and e == cli_json(cli, "circuit", blif, "--equiv", p)["equiv"]
    with pytest.raises(ValueError, match="cannot tell the circuit format"):
        cz.read_circuit(str(tmp_path / "c.xyz"))


def test_merge(cli, tmp_path):
    # Parts name the build that ran them (the CLI's executable or the module's .so): each side merges its own.
    mine, theirs = [], []
    for i in (0, 1):
        mine.append(str(tmp_path / f"py{i}.json"))
        with open(mine[-1], "w") as f:
            json.dump(cz.verify("primitive/shift_down", {"N": 6}, shard=f"{i}/2", samples=200), f)
        theirs.append(str(tmp_path / f"cli{i}.json"))
        assert cli("verify", "primitive/shift_down", "-p", "N=6", "--shard", f"{i}/2", "--samples", "200", "--json", theirs[-1]).returncode == 0
    same(cz.merge(mine), cli_json(cli, "merge", *theirs))
    with pytest.raises(ValueError, match="not of this tool's run"):
        cz.merge(theirs)


def test_tasks_and_list(cli):
    assert cz.tasks() == cli_json(cli, "tasks")
    assert cz.tasks("mqar") == cli_json(cli, "tasks", "mqar")
    listed = cz.list()
    assert listed == cli_json(cli, "list") == cz.constructions()
    assert all("methods" in c for c in listed) and "algebra" in cz.constructions("primitive/shift_down")["methods"]
    rows = cz.parameters("mqar/dyadic")
    assert {"name", "default", "range", "aliases", "help"} <= set(rows[0])
    with pytest.raises(ValueError, match="unknown"):
        cz.tasks("nope")
    assert cz.device() == cli_json(cli, "device")


def test_help_is_short():
    # issue 39: 877 lines (the parameter list written into five docstrings), now 172: the table is
    # constructions() / parameters() and each docstring is a few lines. Issue 49 item 18: each public
    # callable shows a short >>> example (tests/python/test_doctests.py runs them): 319 lines.
    text = pydoc.render_doc(cz, renderer=pydoc.plaintext)
    assert len(text.splitlines()) < 400
    assert "primitive/shift_down: " not in text


def test_tqdm_first_reading_is_sane():
    tqdm = pytest.importorskip("tqdm").tqdm
    buf = io.StringIO()
    bar = cz._TqdmProgress(lambda **kw: tqdm(file=buf, mininterval=0, **kw))
    time.sleep(0.2)  # the work ran 0.2 s before its first report
    bar(1000, 10000, "blocks")
    d = bar._bar.format_dict
    assert d["elapsed"] >= 0.2
    assert d["n"] / d["elapsed"] <= 1000 / 0.2 * 1.01  # was n / (a few microseconds): 1e8..1e11 it/s
    bar.close()
    assert "it/s" in buf.getvalue() or "s/it" in buf.getvalue()
