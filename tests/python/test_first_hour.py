"""Issue 49 (a newcomer's first hour), the Python rows: list(NAME) (item 9), from_npy= arrays (12),
a user's model on a zoology batch (13), Python's words and a path as verify's first argument (14),
sweep plots (15), num_passes refused with the reason (16), import_zoology of our own layers (17),
no autograd graph from a loaded torch model (19)."""
import glob
import json
import os
import tempfile

import numpy as np
import pytest

import circuitzoo as cz

SD = {"N": 4, "d": 1, "s": 1}


def _tmp_npy_dirs():
    return set(glob.glob(os.path.join(tempfile.gettempdir(), "circuitzoo-npy-*")))


# ---- item 9 ----
def test_list_name_gives_each_parameter():
    one = cz.list("mqar/attention")
    assert one["name"] == "mqar/attention" and one == cz.constructions("mqar/attention")
    by = {p["name"]: p for p in one["params"]}
    assert by["N"]["when"] == "layout=zoology" and "when" not in by["c"]
    assert "0: triples c = n" in by["c"]["help"]
    rows = {r["name"]: r for r in cz.parameters("mqar/attention")}
    assert rows["kv"]["when"] == "layout=zoology" and rows["c"]["when"] == ""
    assert isinstance(cz.list(), list) and len(cz.list()) == len(cz.constructions())
    with pytest.raises(ValueError, match="unknown construction 'mqar/dyadc'"):
        cz.list("mqar/dyadc")


# ---- item 12 ----
def test_from_npy_takes_arrays_and_removes_its_files(tmp_path):
    inputs, labels = cz.mqar_data(vocab=16, seq_len=8, kv=2, examples=20)
    before = _tmp_npy_dirs()
    r = cz.verify("mqar/attention", from_npy=[inputs, labels], params={"c": 16})
    assert r["verdict"] == "verified" and r["instances"] == 20
    assert "<inputs> / <labels>" in r["domain_description"]
    np.save(tmp_path / "i.npy", inputs)
    np.save(tmp_path / "l.npy", labels)
    by_path = cz.verify("mqar/attention", from_npy=[str(tmp_path / "i.npy"), tmp_path / "l.npy"], params={"c": 16})
    assert by_path["verdict"] == "verified" and by_path["instances"] == 20
    mixed = cz.verify("mqar/attention", from_npy=[inputs, str(tmp_path / "l.npy")], params={"c": 16})
    assert mixed["instances"] == 20
    # an error leaves no file behind either
    with pytest.raises(ValueError, match="the batch has N = 8"):
        cz.verify("mqar/attention", from_npy=[inputs, labels], params={"N": 10})
    with pytest.raises(ValueError, match="want a 2-D integer array"):
        cz.verify("mqar/attention", from_npy=[inputs.astype(float), labels])
    with pytest.raises(TypeError, match="from_npy must be"):
        cz.verify("mqar/attention", from_npy=inputs[0])
    assert _tmp_npy_dirs() == before


# ---- item 13 ----
def test_users_model_on_a_zoology_batch(cli, tmp_path):
    inputs, labels = cz.mqar_data(vocab=16, seq_len=8, kv=2, examples=20)
    model = cz.build("mqar/attention", {"layout": "zoology", "N": 8, "c": 16, "kv": 2})
    r = cz.verify(model, task="mqar", from_npy=[inputs, labels])
    assert r["verdict"] == "verified" and r["domain"] == "batch" and r["instances"] == 20
    assert r["params"]["layout"] == "zoology" and r["params"]["c"] == 16 and r["artifact"]["file"] == "<model>"
    # the CLI gives the same verdict and count
    path = tmp_path / "att.json"
    cz.export("mqar/attention", {"layout": "zoology", "N": 8, "c": 16, "kv": 2}, format="model-json", out=str(path))
    np.save(tmp_path / "i.npy", inputs)
    np.save(tmp_path / "l.npy", labels)
    p = cli("verify", "--model", path, "--task", "mqar", "--from-npy", tmp_path / "i.npy", tmp_path / "l.npy", "--json", "-")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["instances"] == 20
    with pytest.raises(ValueError, match="--from-npy checks a construction .* or a --model FILE against --task mqar"):
        cz.verify(model, task="shift_down", from_npy=[inputs, labels])


# ---- item 14 ----
def test_python_words_and_a_path_as_first_argument(tmp_path):
    m = cz.build("primitive/shift_down", SD)
    path = tmp_path / "sd.json"
    cz.export("primitive/shift_down", SD, format="model-json", out=str(path))
    r = cz.verify(str(path), task="shift_down", params={"s": 1})
    assert r["verdict"] == "verified" and r["artifact"] == {"file": str(path), "format": "model-json", "kind": "model"}
    assert cz.verify(path, task="shift_down", params={"s": 1})["verdict"] == "verified"  # a PathLike too
    circ = tmp_path / "sd_circuit.json"
    cz.export("primitive/shift_down", SD, format="circuit-json", out=str(circ))
    assert cz.verify(str(circ), task="shift_down", params=SD)["artifact"]["kind"] == "circuit"
    with pytest.raises(ValueError, match=r"verify\(task='shift_down'\) checks your file: give model=, circuit= or program=") as e:
        cz.verify(task="shift_down")
    assert "--model" not in str(e.value)
    with pytest.raises(ValueError, match="no such file"):
        cz.verify(str(tmp_path / "missing.json"), task="shift_down")
    with pytest.raises(ValueError, match=r"a construction NAME is checked against its own task"):
        cz.verify("primitive/shift_down", task="shift_down")
    with pytest.raises(ValueError, match="give one of model=, circuit= or program="):
        cz.verify(model=m, circuit=str(circ), task="shift_down")
    with pytest.raises(ValueError, match=r"need task=TASK") as e:
        cz.verify(model=str(path))
    assert "--task" not in str(e.value)


# ---- item 15 ----
def test_sweep_plot(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "s.svg"
    rep = cz.sweep_report("primitive/cumsum", "N", [4, 8, 16], progress=False, plot=str(out))
    assert rep["vary"] == "N" and out.read_bytes().startswith(b"<?xml")
    rows = cz.sweep("primitive/cumsum", "N", [4, 8], progress=False, plot=tmp_path / "t.png")
    assert len(rows) == 2 and (tmp_path / "t.png").read_bytes()[:4] == b"\x89PNG"
    with pytest.raises(ValueError, match=r"\.svg or \.png"):
        cz.sweep_report("primitive/cumsum", "N", [4, 8], progress=False, plot=str(tmp_path / "s.pdf"))
    with pytest.raises(TypeError, match="plot must be a path"):
        cz.sweep_report("primitive/cumsum", "N", [4, 8], progress=False, plot=1)


# ---- item 16 ----
def test_num_passes():
    a = cz.mqar_data(vocab=16, seq_len=8, kv=2, examples=3, num_passes=1)
    b = cz.mqar_data(vocab=16, seq_len=8, kv=2, examples=3)
    assert (a[0] == b[0]).all() and (a[1] == b[1]).all()
    with pytest.raises(ValueError, match="num_passes=2: only num_passes=1 is reproduced: zoology's multiquery_ar fails"):
        cz.mqar_data(vocab=16, seq_len=16, kv=2, examples=3, num_passes=2)
    with pytest.raises(TypeError, match="num_passes must be an integer"):
        cz.mqar_data(num_passes="2")


# ---- items 17, 19 (torch is installed where these tests run) ----
def test_import_zoology_of_our_own_layers():
    torch = pytest.importorskip("torch")
    import circuitzoo.torch as czt
    b = czt.BaseConv(4, 2, "causal").double()
    with torch.no_grad():
        b.projection.weight.copy_(torch.tensor([[1.0, 2.0], [0.0, -1.0]]))
        b.projection.bias.fill_(0.5)
        b.conv.filter[:, 0] = 1.0
        b.conv.filter[:, 1] = 0.25
    mj = czt.import_zoology(b, 4)
    assert (mj["N"], mj["d"], mj["conv"], [L["kind"] for L in mj["layers"]]) == (4, 2, "causal", ["baseconv"])
    u = torch.tensor([[1.0, 2.0], [3.0, 4.0], [0.0, 1.0], [2.0, -2.0]], dtype=torch.float64)
    exact = cz.eval(mj, czt.exact_input(u))
    assert torch.allclose(torch.tensor(exact.astype(float)), b(u[None]).detach()[0], rtol=0, atol=1e-12)
    m = czt.from_model_json(cz.build("primitive/cumsum", {"N": 4, "d": 1})["model"])
    assert czt.import_zoology(m)["layers"][0]["h"] == [[1], [1], [1], [1]]
    assert czt.import_zoology(czt.Mlp(4, 2, 3))["layers"][0]["kind"] == "mlp"
    with pytest.raises(ValueError, match="defined on n = 4 rows, not seq_len = 8"):
        czt.import_zoology(b, 8)
    with pytest.raises(ValueError, match="LinearAttention is ours, not zoology's"):
        czt.import_zoology(czt.LinearAttention(4, 2, 2), 4)
    zoologys = type("BaseConv", (torch.nn.Module,), {})  # named like ours, not ours: zoology's importer
    with pytest.raises(ValueError, match="seq_len is needed"):
        czt.import_zoology(zoologys())


def test_loaded_model_builds_no_graph(tmp_path):
    torch = pytest.importorskip("torch")
    import circuitzoo.torch as czt
    path = tmp_path / "w.npz"
    cz.export("primitive/cumsum", {"N": 4, "d": 1}, format="npz", out=str(path))
    u = torch.ones(1, 4, 1, dtype=torch.float64)
    for m in (czt.load(str(path)), czt.from_model_json(cz.build("primitive/cumsum", {"N": 4, "d": 1})["model"])):
        y = m(u)
        assert y.grad_fn is None and not y.requires_grad
        assert not any(p.requires_grad for p in m.parameters())
    m.requires_grad_(True)  # training stays possible
    assert m(u).grad_fn is not None
