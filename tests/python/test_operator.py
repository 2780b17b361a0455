"""Issue 47 item 3 from Python: cz.verify(model=..., task=KIND, operator=..., method="algebra"), the
model and the operator each a model-json path or a dict; a one-tap mutant refuted with a confirmed
counterexample; the enumerating check; a circuitzoo.torch module exported exactly
(circuitzoo.torch.to_model_json) and proved the same way (skipped without torch)."""
import json
from fractions import Fraction

import pytest

import circuitzoo as cz

N = 8


def _files(tmp_path, kind):
    op, mine = str(tmp_path / f"{kind}-op.json"), str(tmp_path / f"{kind}.json")
    cz.export(f"sim/{kind}", {"N": N, "d": 2}, format="operator", out=op)
    cz.export(f"sim/{kind}", {"N": N, "d": 2}, format="model-json", out=mine)
    return op, mine


def _mutant(mj):
    """One nonzero tap of the last layer's filter moved by 1, exactly (entries are ints or "p/q")."""
    m = json.loads(json.dumps(mj))
    for L in reversed(m["layers"]):
        for row in L["h"]:
            for j, v in enumerate(row):
                f = Fraction(v) if isinstance(v, str) else Fraction(int(v))
                if f != 0:
                    f += 1
                    row[j] = f.numerator if f.denominator == 1 else f"{f.numerator}/{f.denominator}"
                    return m
    raise AssertionError("no nonzero tap")


@pytest.mark.parametrize("kind", ["hyena", "h3", "retnet", "rwkv"])
def test_operator_algebra_paths_and_dicts(tmp_path, kind):
    op, mine = _files(tmp_path, kind)
    r = cz.verify(model=mine, task=kind, operator=op, method="algebra")
    assert r["verdict"] == "proved" and r["task"] == kind and r["operator"]["kind"] == kind
    mj, oj = json.load(open(mine)), json.load(open(op))
    assert cz.verify(model=mj, task=kind, operator=oj, method="algebra")["verdict"] == "proved"
    bad = cz.verify(model=_mutant(mj), task=kind, operator=oj, method="algebra")
    assert bad["verdict"] == "refuted"
    ce = bad["counterexample"]
    assert ce["got"] != ce["expected"]
    # The enumerating check (the operator's exact evaluation on seeded integer inputs) agrees.
    assert cz.verify(model=mj, task=kind, operator=oj, samples=20)["failed"] == 0
    assert cz.verify(model=_mutant(mj), task=kind, operator=oj, samples=20)["failed"] > 0


def test_operator_refusals(tmp_path):
    op, mine = _files(tmp_path, "hyena")
    with pytest.raises(ValueError, match="add --operator FILE"):
        cz.verify(model=mine, task="hyena", method="algebra")
    with pytest.raises(ValueError, match="holds a hyena layer"):
        cz.verify(model=mine, task="h3", operator=op, method="algebra")
    names = {t["name"]: t for t in cz.tasks()}
    for k in ("hyena", "h3", "retnet", "rwkv"):
        assert "--operator" in names[k]["operator_file"]


def test_torch_module_exports_exactly_and_is_proved(tmp_path):
    torch = pytest.importorskip("torch")
    import circuitzoo.torch as czt
    op, mine = _files(tmp_path, "hyena")
    module = czt.from_model_json(json.load(open(mine)))  # a circuitzoo.torch stack of BaseConv layers
    mj = czt.to_model_json(module)
    assert mj["ring"] == "Z" and all(L["kind"] == "baseconv" for L in mj["layers"])
    assert cz.verify(model=mj, task="hyena", operator=op, method="algebra")["verdict"] == "proved"
    with torch.no_grad():  # one tap of the last layer's filter moved by 1/2 (dyadic: still exact)
        f = module.layers[-1].conv.filter
        c, t = (f != 0).nonzero()[0].tolist()
        f[c, t] += 0.5
    mj = czt.to_model_json(module)
    assert mj["ring"] == "Q"
    r = cz.verify(model=mj, task="hyena", operator=op, method="algebra")
    assert r["verdict"] == "refuted" and r["counterexample"]["got"] != r["counterexample"]["expected"]
    with torch.no_grad():
        module.layers[0].conv.filter[0, 0] = float("nan")
    with pytest.raises(ValueError, match="not finite"):
        czt.to_model_json(module)
