"""circuitzoo.torch: every construction `list` shows with a model export, loaded from its npz,
safetensors and model-json exports as an nn.Module and run in float64, against the exact `eval`."""
import json
import os
import subprocess
from fractions import Fraction

import numpy as np
import pytest
import torch

import circuitzoo as cz
import circuitzoo.torch as czt

# Small parameters where a default model would be slow to evaluate exactly in a test; {} elsewhere.
# mqar/dyadic builds a circuit unless artifact=model (its compiled model: small n only).
SMALL = {"mqar/dyadic": {"n": "2", "c": "2", "artifact": "model"}, "sim/hyena": {"N": "8", "d": "2"},
         "sim/h3": {"N": "8", "d": "2"}}
EXTRA = [("primitive/shift_up", {"conv": "cyclic"}), ("primitive/shift_up", {"conv": "anticausal"}),
         ("primitive/shift_down", {"conv": "anticausal", "s": "2"})]


def _export(cli, tmp_path, name, params, fmt, ext):
    p = tmp_path / f"{name.replace('/', '_')}.{ext}"
    args = [x for k, v in params.items() for x in ("-p", f"{k}={v}")]
    r = cli("export", name, *args, "--format", fmt, "-o", p)
    return p if r.returncode == 0 else None, r


def _cases():
    out = subprocess.run([os.environ["CZ_CLI"], "list", "--json"], capture_output=True, text=True, check=True).stdout
    return [(n, SMALL.get(n, {})) for n in (c["name"] for c in json.loads(out))] + EXTRA


CASES = _cases()


def _rel_err(y, exact):
    e = np.array(exact, dtype=object).astype(float)
    return float(np.abs(y - e).max() / max(1.0, np.abs(e).max()))


def _check(model, mj, seed=0, trials=2, rng_range=3):
    rng = np.random.default_rng(seed)
    worst = 0.0
    for _ in range(trials):
        u = rng.integers(-rng_range, rng_range + 1, size=(model.N, model.d))
        with torch.no_grad():
            y = model(torch.tensor(u, dtype=torch.float64)[None])[0].numpy()
        worst = max(worst, _rel_err(y, cz.eval(mj, u.tolist())))
    return worst


@pytest.mark.parametrize("name,params", CASES, ids=[n + "".join(f"-{k}={v}" for k, v in p.items()) for n, p in CASES])
def test_construction_runs_in_torch(cli, tmp_path, name, params):
    """A test per construction: float64 forward within 1e-9 (relative) of eval, from all three files;
    a construction without a model is refused by export (and counted by the next test)."""
    pj, r = _export(cli, tmp_path, name, params, "model-json", "json")
    if pj is None:
        assert r.returncode == 2 and "does not build a model" in r.stderr, (name, r.stderr)
        return
    mj = json.load(open(pj))
    sources = [czt.load(pj)]
    for fmt, ext in (("npz", "npz"), ("safetensors", "safetensors")):
        p, r = _export(cli, tmp_path, name, params, fmt, ext)
        if p is None:  # only non-integer (ring Q) or beyond-int64 models are refused: model-json then
            assert "int64" in r.stderr or "integer" in r.stderr, (name, r.stderr)
            continue
        sources.append(czt.load(p))
    for m in sources:
        assert isinstance(m, torch.nn.Module) and m.conv == mj["conv"]
        assert _check(m, mj) < 1e-9, (name, params)


def test_cases_cover_the_models_and_modes(cli, tmp_path):
    covered = set()
    for name, params in CASES:
        pj, _ = _export(cli, tmp_path, name, params, "model-json", "json")
        if pj is not None:
            covered.add((name, json.load(open(pj))["conv"]))
    assert len(covered) >= 14, covered  # issue 26 counted 11 with a model; sim/hyena, sim/h3, mqar/dyadic since
    assert {"causal", "cyclic", "anticausal"} <= {c for _, c in covered}


def test_state_dict_names_are_the_exports(cli, tmp_path):
    p, _ = _export(cli, tmp_path, "mqar/attention", {}, "safetensors", "safetensors")
    sd, meta = czt.read_tensors(p)
    m = czt.load(p)
    assert set(m.state_dict()) == set(sd)
    fresh = czt.Model(int(meta["N"]), int(meta["d"]), int(meta["inner_N"]), int(meta["inner_d"]), meta["conv"],
                      meta["layers"].split(","), [sd[f"layers.{i}.q_proj.weight"].shape[0]
                                                  if k == "linear_attention" else None
                                                  for i, k in enumerate(meta["layers"].split(","))]).double()
    fresh.load_state_dict(sd, strict=True)  # our export loads as it is
    u = torch.randint(0, 2, (2, m.N, m.d), dtype=torch.float64)
    assert torch.equal(fresh(u), m(u))
    assert any(k.endswith("projection.weight") for k in sd) and any(k.endswith("conv.filter") for k in sd)


def test_a_changed_weight_is_caught(cli, tmp_path):
    """The comparison can fail: one filter tap of cumsum changed by 1 is seen on the first input."""
    pj, _ = _export(cli, tmp_path, "primitive/cumsum", {}, "model-json", "json")
    mj = json.load(open(pj))
    m = czt.load(pj)
    assert _check(m, mj) < 1e-9
    with torch.no_grad():
        m.layers[0].conv.filter[0, 1] += 1
    assert _check(m, mj) > 0.01


@pytest.mark.parametrize("mode", ["causal", "cyclic", "anticausal"])
def test_direct_and_fft_convolutions_agree(mode):
    torch.manual_seed(1)
    c = czt.Conv(3, 9, mode, "fft").double()
    with torch.no_grad():
        c.filter.copy_(torch.randint(-4, 5, (3, 9)).double())
    d = czt.Conv(3, 9, mode, "direct").double()
    d.load_state_dict(c.state_dict())
    x = torch.randint(-5, 6, (2, 9, 3)).double()
    ref = torch.zeros_like(x)  # the definition (src/tensor/conv_mode.h), term by term
    for i in range(9):
        for k in range(9):
            j = {"causal": i - k, "cyclic": (i - k) % 9, "anticausal": i + k}[mode]
            if 0 <= j < 9:
                ref[:, i] += c.filter[:, k].detach() * x[:, j]
    assert torch.equal(d(x), ref)
    assert (c(x) - ref).abs().max() < 1e-9


def test_bfloat16_convolves_in_bfloat16(cli, tmp_path):
    p, _ = _export(cli, tmp_path, "primitive/cumsum", {"N": "64", "d": "1"}, "npz", "npz")
    m = czt.load(p, dtype=torch.bfloat16)
    assert m.layers[0].conv.filter.dtype == torch.bfloat16
    u = torch.full((1, 64, 1), 255.0)
    y = m(u.bfloat16()).double()
    exact = 255.0 * torch.arange(1, 65, dtype=torch.float64)
    assert y.dtype == torch.float64 and (y[0, :, 0] != exact).any()  # 255·63 = 16065 is not a bfloat16 number


def test_bad_files_are_refused(tmp_path):
    bad = tmp_path / "x.safetensors"
    bad.write_bytes(b"\x02\x00\x00\x00\x00\x00\x00\x00{}")
    with pytest.raises(ValueError, match="not a circuitzoo weights file"):
        czt.load(bad)
    mj = {"format": "circuitzoo.model/1", "ring": "Fp:7", "N": 1, "d": 1, "inner_N": 1, "inner_d": 1,
          "conv": "causal", "layers": []}
    with pytest.raises(ValueError, match="Fp:7"):
        czt.from_model_json(mj)


def test_a_built_model_runs_in_torch():
    b = cz.build("primitive/remember", {})
    m = czt.from_model_json(b["model"])
    u = np.random.default_rng(4).integers(-3, 4, size=(m.N, m.d))
    with torch.no_grad():
        y = m(torch.tensor(u, dtype=torch.float64))
    assert _rel_err(y.numpy(), cz.eval(b, u.tolist())) < 1e-9


RETNET = {"format": "circuitzoo.model/1", "ring": "Q", "N": 3, "d": 1, "inner_N": 3, "inner_d": 8, "conv": "causal",
          "layers": [{"kind": "retnet", "heads": 1, "WQ": [[1, -1]], "WK": [[2, 1]], "WV": [[1, 3]], "WO": [[1], [-2]],
                      "gamma": ["1/2"]}]}


def test_architecture_layers_load_as_their_expansion(cli, tmp_path):
    """Issue 36 item 24: load() on a model-json with a retnet layer said "unknown layer kind 'retnet'"."""
    path = tmp_path / "ret.json"
    path.write_text(json.dumps(RETNET))
    m = czt.load(str(path))
    u = [[1], [-2], [3]]
    (tmp_path / "in.json").write_text(json.dumps({"input": u}))
    want = json.loads(cli("eval", "--model", path, "--input", tmp_path / "in.json").stdout)["output"]
    got = m(torch.tensor([u], dtype=torch.float64))[0].tolist()
    assert [[float(Fraction(str(x))) for x in r] for r in want] == got


def test_save_model_json_checks_before_writing(tmp_path):
    """Issue 36 item 24: save_model_json({"junk": 1}) wrote a file the CLI cannot read."""
    path = tmp_path / "m.json"
    path.write_text("old")
    with pytest.raises(ValueError, match="missing field 'format'"):
        czt.save_model_json({"junk": 1}, path)
    assert path.read_text() == "old"
    czt.save_model_json(RETNET, path)
    assert json.loads(path.read_text()) == RETNET
