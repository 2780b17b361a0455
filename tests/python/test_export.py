"""export --format npz|safetensors: read back with numpy, compared with model-json and `eval`."""
import json
import os

import numpy as np
import pytest

import torch_baseconv as tb

# (construction, params): causal, cyclic and anticausal BaseConv; MLP-free stacks; linear attention.
CASES = [
    ("primitive/remember", []),
    ("primitive/shift_up", ["-p", "conv=cyclic"]),
    ("primitive/shift_up", ["-p", "conv=anticausal"]),
    ("primitive/hadamard", []),
    ("mqar/attention", []),
]
PER_KIND = {
    "baseconv": [("projection.weight", "W", True), ("projection.bias", "b1", False),
                 ("conv.filter", "h", True), ("conv.bias", "b2", False)],
    "linear_attention": [("q_proj.weight", "Wq", True), ("k_proj.weight", "Wk", True), ("v_proj.weight", "Wv", True)],
    "mlp": [("fc1.weight", "W1", True), ("fc1.bias", "B1", False), ("fc2.weight", "W2", True), ("fc2.bias", "B2", False)],
}


def export_all(cli, tmp_path, name, params):
    paths = {}
    for fmt, ext in (("model-json", "json"), ("npz", "npz"), ("safetensors", "safetensors")):
        p = tmp_path / f"m.{ext}"
        r = cli("export", name, *params, "--format", fmt, "-o", p)
        assert r.returncode == 0, r.stderr
        paths[fmt] = str(p)
    return paths


@pytest.mark.parametrize("name,params", CASES)
def test_tensors_match_model_json(cli, tmp_path, name, params):
    paths = export_all(cli, tmp_path, name, params)
    model = json.load(open(paths["model-json"]))
    for fmt in ("npz", "safetensors"):
        tensors, meta = tb.load_weights(paths[fmt])
        assert meta["format"] == "circuitzoo.weights/1"
        assert meta["construction"] == name and meta["residual"] == "none"
        for k in ("N", "d", "inner_N", "inner_d"):
            assert int(meta[k]) == model[k]
        assert meta["conv"] == model["conv"] and meta["ring"] == model["ring"]
        assert tb.layer_kinds(meta) == [L["kind"] for L in model["layers"]]
        expected_names = set()
        for i, L in enumerate(model["layers"]):
            for tname, field, transposed in PER_KIND[L["kind"]]:
                t = tensors[f"layers.{i}.{tname}"]
                assert t.dtype == np.int64
                m = np.array(L[field], dtype=np.int64)
                np.testing.assert_array_equal(t, m.T if transposed else m)
                expected_names.add(f"layers.{i}.{tname}")
        assert set(tensors) == expected_names


@pytest.mark.parametrize("name,params", CASES)
def test_documented_semantics_match_eval(cli, tmp_path, name, params):
    """The numpy evaluation of the exported tensors (as documented in model/weights.h) equals `eval`."""
    paths = export_all(cli, tmp_path, name, params)
    tensors, meta = tb.load_safetensors(paths["safetensors"])
    rng = np.random.default_rng(7)
    for trial in range(3):
        u = rng.integers(-3, 4, size=(int(meta["N"]), int(meta["d"])))
        inp = tmp_path / "in.json"
        inp.write_text(json.dumps({"input": u.tolist()}))
        r = cli("eval", "--model", paths["model-json"], "--input", inp, "--json", "-")
        assert r.returncode == 0, r.stderr
        got = tb.exact_forward(tensors, meta, u)
        assert got.tolist() == json.loads(r.stdout)["output"]


def test_safetensors_layout(cli, tmp_path):
    p = tmp_path / "w.safetensors"
    assert cli("export", "primitive/cumsum", "--format", "safetensors", "-o", p).returncode == 0
    raw = p.read_bytes()
    n = int.from_bytes(raw[:8], "little")
    assert n % 8 == 0 and 8 + n <= len(raw)
    header = json.loads(raw[8:8 + n])
    ends = sorted(v["data_offsets"] for k, v in header.items() if k != "__metadata__")
    assert ends[0][0] == 0 and ends[-1][1] == len(raw) - 8 - n
    assert all(a[1] == b[0] for a, b in zip(ends, ends[1:]))
    assert all(v["dtype"] == "I64" for k, v in header.items() if k != "__metadata__")
    assert all(isinstance(v, str) for v in header["__metadata__"].values())


def test_npz_is_a_plain_zip(cli, tmp_path):
    import zipfile
    p = tmp_path / "w.npz"
    assert cli("export", "primitive/cumsum", "--format", "npz", "-o", p).returncode == 0
    with zipfile.ZipFile(p) as z:
        assert z.testzip() is None
        assert "__metadata__.npy" in z.namelist()


def test_circuit_only_construction_is_refused(cli, tmp_path):
    p = tmp_path / "w.npz"
    r = cli("export", "circuit/compare", "--format", "npz", "-o", p)
    assert r.returncode == 2
    assert r.stderr.startswith("error: ") and "does not build a model" in r.stderr
    assert not p.exists()


def test_unknown_format_lists_new_ones(cli, tmp_path):
    r = cli("export", "primitive/cumsum", "--format", "pt", "-o", tmp_path / "x")
    assert r.returncode == 2 and "npz" in r.stderr and "safetensors" in r.stderr


def test_torch_stack_float64_is_exact(cli, tmp_path):
    torch = pytest.importorskip("torch")
    paths = export_all(cli, tmp_path, "mqar/attention", [])
    tensors, meta = tb.load_weights(paths["npz"])
    rng = np.random.default_rng(3)
    u = rng.integers(0, 2, size=(4, int(meta["N"]), int(meta["d"])))
    errs = tb.float_errors(tensors, meta, u, dtypes=("float64", "float32"))
    assert errs["float64"][2] == 0.0 and errs["float64"][0] < 1e-9
    assert errs["float32"][2] == 0.0


def test_rounding_sweep_finds_float32_failures(cli):
    pytest.importorskip("torch")
    rows, first = tb.sweep(os.environ["CZ_CLI"], max_log2=10)
    assert first["random filter"] is not None and first["random filter"] <= 1024
    assert all(fa == 0.0 for _, fa, _ in rows)  # cumsum's all-ones filter stays exact up to 2^10
