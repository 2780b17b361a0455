"""The module in a notebook (issue 26 item 3): progress callables, numpy buffers in and out, the
names that do not shadow built-ins, TypeErrors, docstrings from the registry, zoology's names."""
import fractions
import json

import numpy as np
import pytest

import circuitzoo as cz


def test_new_names_beside_the_old():
    assert cz.constructions() == cz.list()
    m = cz.build("primitive/cumsum", {"N": 4, "d": 1})
    u = np.array([[1], [2], [3], [4]])
    assert cz.evaluate(m, u).tolist() == cz.eval(m, u).tolist() == [[1], [3], [6], [10]]
    assert "constructions" in cz.__all__ and "evaluate" in cz.__all__


def test_params_as_a_list_is_a_type_error():
    with pytest.raises(TypeError, match="dict"):
        cz.verify("primitive/cumsum", ["N", 4])
    with pytest.raises(TypeError, match="dict"):
        cz.build("primitive/cumsum", [("N", 4)])
    with pytest.raises(TypeError, match="progress"):
        cz.verify("primitive/cumsum", {"N": 4}, progress=3)


def test_parameters_are_a_table_not_docstrings():
    # issue 39: the parameter list is written once (constructions(), parameters()), not into every docstring
    for f in (cz.verify, cz.build, cz.stats, cz.sweep):
        assert "mqar/dyadic:" not in (f.__doc__ or "")
    names = {c["name"] for c in cz.constructions()}
    assert "primitive/shift_down" in names
    s = {p["name"]: p for p in cz.parameters("primitive/shift_down")}
    assert s["s"]["default"] == "3" and s["s"]["range"].startswith("0..")
    assert any("vocab_size" in p["aliases"] for p in cz.parameters("mqar/dyadic"))
    assert "constructions()" in cz.__doc__


def test_progress_callable_gets_counts():
    seen = []
    r = cz.verify("primitive/shift_down", {"N": 6}, progress=lambda done, total, stage: seen.append((done, total, stage)))
    assert r["failed"] == 0 and seen
    assert all(0 <= d <= t for d, t, _ in seen) and seen[-1][0] == seen[-1][1] == r["instances"]
    assert all(s == "primitive/shift_down" for _, _, s in seen)
    rows = []
    cz.sweep("primitive/cumsum", "N", [4, 8], {"d": 1}, progress=lambda d, t, s: rows.append((d, t)))
    assert rows[-1] == (2, 2)


def test_a_progress_callable_that_raises_stops_the_run():
    def boom(done, total, stage):
        raise RuntimeError("stop here")
    with pytest.raises(RuntimeError, match="stop here"):
        cz.verify("primitive/shift_down", {"N": 6}, progress=boom)


def test_no_bar_when_not_a_terminal(capsys):
    cz.verify("primitive/shift_down", {"N": 6})  # progress=None, stderr captured: no tqdm output
    assert capsys.readouterr().err == ""


def test_a_tqdm_bar_in_a_notebook(monkeypatch):
    # progress=None in a notebook (ipykernel loaded) draws tqdm.auto bars: one per stage, closed at
    # the end, ending at the run's instance count. A recording stand-in for tqdm.auto.tqdm.
    tqdm_auto = pytest.importorskip("tqdm.auto")
    bars = []

    class Bar:
        def __init__(self, total, desc, leave):
            self.total, self.desc, self.n, self.closed = total, desc, 0, False
            bars.append(self)

        def refresh(self):
            assert 0 <= self.n <= self.total

        def close(self):
            self.closed = True

    monkeypatch.setattr(tqdm_auto, "tqdm", Bar)
    monkeypatch.setitem(__import__("sys").modules, "ipykernel", object())
    r = cz.verify("primitive/shift_down", {"N": 6})
    assert r["failed"] == 0 and bars, "no bar drawn"
    assert all(b.closed for b in bars) and bars[-1].desc == "primitive/shift_down"
    assert bars[-1].n == bars[-1].total == r["instances"]


def test_arrays_cross_as_int64_buffers_and_big_entries_stay_exact(cli, tmp_path):
    m = cz.build("primitive/cumsum", {"N": 4, "d": 1})["model"]
    h = m["layers"][0]["h"]
    assert h.dtype == np.int64 and h.flags["C_CONTIGUOUS"]
    big = 2 ** 70
    y = cz.evaluate(m, [[big], [1], [2], [3]])  # beyond int64: Python ints in an object array
    assert y.dtype == object and y[:, 0].tolist() == [big, big + 1, big + 3, big + 6]
    y = cz.evaluate(m, np.array([[1], [2], [3], [4]], dtype=np.int32))
    assert y.dtype == np.int64 and y[:, 0].tolist() == [1, 3, 6, 10]
    half = fractions.Fraction(1, 2)
    with pytest.raises(ValueError, match="non-integer 1/2"):  # a Fraction reaches the reader exactly
        cz.evaluate(m, [[half], [half], [0], [0]])
    with pytest.raises(ValueError, match="floating-point"):
        cz.evaluate(m, np.ones((4, 1)))
    # a model whose weight left int64 travels as exact JSON text
    m2 = dict(m)
    L = dict(m["layers"][0])
    W = L["W"].astype(object)
    W[0, 0] = 2 ** 64
    L["W"] = W
    m2["layers"] = [L]
    u = [[1], [2], [3], [4]]
    y = cz.evaluate(m2, u)
    (tmp_path / "m.json").write_text(json.dumps(cz._model_to_json(m2)))
    (tmp_path / "u.json").write_text(json.dumps({"input": u}))
    want = json.loads(cli("eval", "--model", tmp_path / "m.json", "--input", tmp_path / "u.json").stdout)["output"]
    assert [[int(x) for x in r] for r in want] == [[int(x) for x in r] for r in y.tolist()]
    assert any(abs(int(x)) > 2 ** 63 for x in y[:, 0])  # the big weight reached the output


def test_mqar_data_takes_zoologys_names():
    a = cz.mqar_data(vocab=66, seq_len=64, kv=8, examples=5, seed=3)
    b = cz.mqar_data(vocab_size=66, input_seq_len=64, num_kv_pairs=8, num_examples=5, seed=3)
    assert all((x == y).all() for x, y in zip(a, b))
    with pytest.raises(TypeError, match="not both"):
        cz.mqar_data(vocab=66, vocab_size=66)
    with pytest.raises(TypeError, match="unexpected"):
        cz.mqar_data(vocabsize=66)
    noisy, labels = cz.mqar_data(vocab_size=66, input_seq_len=64, num_kv_pairs=8, num_examples=5, seed=3, random_non_queries=True)
    assert (labels == a[1]).all()
    kept = a[0] != 0
    assert (noisy[kept] == a[0][kept]).all() and (noisy < 66).all() and (noisy >= 0).all()
    assert (noisy[~kept] != 0).sum() > 0.9 * (~kept).sum()  # noise: about 1 in 66 stays 0
    again, _ = cz.mqar_data(vocab_size=66, input_seq_len=64, num_kv_pairs=8, num_examples=5, seed=3, random_non_queries=True)
    assert (again == noisy).all()  # seeded


def test_zoology_names_for_construction_params():
    s = cz.stats("mqar/dyadic", {"num_kv_pairs": 8, "vocab_size": 16})
    assert s["params"]["n"] == 8 and s["params"]["c"] == 16
    with pytest.raises(ValueError, match="zoology's name"):
        cz.stats("mqar/dyadic", {"c": 16, "vocab_size": 16})
    with pytest.raises(ValueError, match="did you mean 'c'"):
        cz.stats("mqar/dyadic", {"cc": 16})
    with pytest.raises(ValueError, match="did you mean 'primitive/shift_down'"):
        cz.verify("shift_down")
