"""Issue 47 item 2 from Python: cz.verify(model=A, equiv_model=B, method="algebra"), each a
model-json path or a dict: two files computing the same map proved, a one-weight mutant refuted
at a point both models are evaluated at exactly, shapes and a missing method refused."""
import json

import pytest

import circuitzoo as cz


def _files(tmp_path):
    s1, s2 = str(tmp_path / "s1.json"), str(tmp_path / "s2.json")
    cz.export("primitive/shift_down", {"N": 6, "d": 2, "s": 1}, format="model-json", out=s1)
    cz.export("primitive/shift_down", {"N": 6, "d": 2, "s": 2}, format="model-json", out=s2)
    one = json.load(open(s1))
    return s2, dict(one, layers=one["layers"] * 2), one  # shift by 2, two shifts by 1, one shift by 1


def test_equiv_model_proved_paths_and_dicts(tmp_path):
    s2, two, _ = _files(tmp_path)
    r = cz.verify(model=s2, equiv_model=two, method="algebra")
    assert r["verdict"] == "proved" and r["method"] == "algebra" and r["failed"] == 0
    assert r["equiv_model_file"] == "<equiv_model>" and r["equiv_model"]["layers"] == 2 and r["model"]["layers"] == 1
    assert r["field"] == "Q" and r["algebra"]["zero_outputs"] == 4 and "equiv_estimate" in r["algebra"]
    assert cz.verify(model=two, equiv_model=json.load(open(s2)), method="algebra")["verdict"] == "proved"


def test_equiv_model_mutant_refuted(tmp_path):
    s2, two, _ = _files(tmp_path)
    mutant = json.loads(json.dumps(two))
    mutant["layers"][1]["h"][1][0] = 2  # one tap of the second shift: 1 -> 2
    r = cz.verify(model=s2, equiv_model=mutant, method="algebra")
    assert r["verdict"] == "refuted" and r["failed"] == 1
    ce = r["counterexample"]
    assert ce["got"] != ce["expected"] and "exact evaluation of both models" in ce["instance"]["confirmed_by"]


def test_equiv_model_refusals(tmp_path):
    s2, two, one = _files(tmp_path)
    small = dict(one, N=3, inner_N=3, layers=[{k: (v[:3] if k != "W" and k != "kind" else v) for k, v in L.items()}
                                              for L in one["layers"]])
    with pytest.raises(ValueError, match="the models take different inputs"):
        cz.verify(model=s2, equiv_model=small, method="algebra")
    with pytest.raises(ValueError, match="needs model= and method='algebra'"):
        cz.verify(model=s2, equiv_model=two)
    with pytest.raises(ValueError, match="the expansion of both models would need about"):
        cz.verify(model=s2, equiv_model=two, method="algebra", budget=1000)
