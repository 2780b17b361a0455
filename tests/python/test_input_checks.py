"""Issue 36 (input side) in the module: verify(..., method="sat") takes progress= as the
enumerating verify does (items 11), and the core's model-json checks behind circuitzoo.torch's
save_model_json and load (item 24; tests/python/test_torch_module.py runs them through torch)."""
import json
import shutil

import pytest

import circuitzoo as cz
from circuitzoo import _core

RETNET = {"format": "circuitzoo.model/1", "ring": "Q", "N": 3, "d": 1, "inner_N": 3, "inner_d": 8, "conv": "causal",
          "layers": [{"kind": "retnet", "heads": 1, "WQ": [[1, -1]], "WK": [[2, 1]], "WV": [[1, 3]], "WO": [[1], [-2]],
                      "gamma": ["1/2"]}]}
needs_cadical = pytest.mark.skipif(shutil.which("cadical") is None, reason="cadical is not installed")


@needs_cadical
def test_sat_calls_progress():
    calls = []
    r = cz.verify("circuit/compare", {"d": 3}, method="sat", progress=lambda *a: calls.append(a))
    assert r["verdict"] == "proved"
    assert calls and calls[-1][0] == calls[-1][1] and isinstance(calls[-1][2], str)


@needs_cadical
def test_sat_progress_exception_propagates():
    def stop(done, total, stage):
        raise RuntimeError("stop from progress")
    with pytest.raises(RuntimeError, match="stop from progress"):
        cz.verify("circuit/compare", {"d": 3}, method="sat", progress=stop)


@pytest.mark.parametrize("method", ["enumerate", "sat"])
def test_progress_must_be_callable_for_both_methods(method):
    with pytest.raises(TypeError, match="progress"):
        cz.verify("circuit/compare", {"d": 3}, method=method, progress=42)


def test_save_model_json_refuses_and_keeps_the_old_file(tmp_path):
    path = tmp_path / "m.json"
    path.write_text("old")
    with pytest.raises(ValueError, match="missing field 'format'"):
        _core.save_model_json(json.dumps({"junk": 1}), str(path))
    dup = json.dumps(RETNET).replace('"ring": "Q"', '"ring": "Q", "ring": "Z"')
    with pytest.raises(ValueError, match='duplicate key "ring"'):
        _core.save_model_json(dup, str(path))
    assert path.read_text() == "old"
    _core.save_model_json(json.dumps(RETNET), str(path))
    assert json.loads(path.read_text()) == RETNET


def test_expanded_model_json_gives_baseconv_layers():
    m = json.loads(_core.expanded_model_json(json.dumps(RETNET)))
    assert m["layers"] and all(L["kind"] == "baseconv" for L in m["layers"])
    assert len(m["layers"]) == 4 and len(m["layers"][0]["W"]) == 8
