"""The pybind11 module `circuitzoo` (PYTHONPATH=build/python), checked against the CLI."""
import json
import threading
import time

import numpy as np
import pytest

import circuitzoo as cz


def test_list_matches_cli(cli):
    names = [c["name"] for c in cz.list()]
    assert "primitive/shift_down" in names
    assert names == [c["name"] for c in json.loads(cli("list", "--json").stdout)]


def test_verify_report_matches_cli(cli):
    r = cz.verify("primitive/shift_down", {"N": 8, "s": 2})
    assert r["failed"] == 0 and r["passed"] == r["instances"] > 0
    c = json.loads(cli("verify", "primitive/shift_down", "-p", "N=8", "-p", "s=2", "--json", "-", "--no-timing").stdout)
    r.pop("timing", None)
    r.pop("seconds", None)
    assert r == c
    s = cz.verify("primitive/cumsum", samples=20, seed=5)
    assert s["domain"] == "sampled" and s["instances"] == 20 and s["seed"] == 5


def test_verify_device_choice(cli):
    r = cz.verify("primitive/shift_down", {"N": 8, "s": 2}, device="auto")
    assert r["failed"] == 0 and (r["device"] == "cpu" or r["device"].startswith("cuda:"))
    assert cz.verify("primitive/shift_down", {"N": 8, "s": 2})["device"] == "cpu"
    with pytest.raises(ValueError, match="device"):
        cz.verify("primitive/shift_down", device="tpu")
    with pytest.raises(ValueError, match="no device path"):
        cz.verify("primitive/shift_down", device="twin")


def test_input_errors_are_value_errors():
    with pytest.raises(ValueError, match="nosuch"):
        cz.verify("primitive/nosuch")
    with pytest.raises(ValueError, match="-p zz"):
        cz.build("primitive/cumsum", {"zz": 1})
    with pytest.raises(ValueError):
        cz.verify("primitive/cumsum", samples=3, exhaustive=True)


def test_circuit_to_model_cyclic_compiler(cli):
    """Theorem H.21's second compiler (issue 28 item 4) from Python, as a parameter: the look-ahead
    circuit has no causal model (ValueError, the CLI's exit 2) and verifies cyclic with d' = d."""
    p = {"source": "lookahead", "compiler": "cyclic"}
    r = cz.verify("circuit/to-model", p)
    assert r["failed"] == 0 and r["verdict"] == "verified" and r["metrics"]["compiler"] == "cyclic"
    c = cli("verify", "circuit/to-model", "-p", "source=lookahead", "-p", "compiler=cyclic", "--json", "-", "--no-timing")
    assert c.returncode == 0, c.stderr
    r.pop("timing", None)
    r.pop("seconds", None)
    assert r == json.loads(c.stdout)
    with pytest.raises(ValueError, match="compiler=cyclic"):
        cz.verify("circuit/to-model", {"source": "lookahead"})
    m = cz.build("circuit/to-model", p)["model"]
    assert m["conv"] == "cyclic" and m["inner_d"] == m["d"]


def test_build_gives_int64_weights_and_eval_is_exact():
    b = cz.build("primitive/cumsum", {"N": 8, "d": 1})
    m = b["model"]
    assert m["N"] == 8 and m["conv"] == "causal"
    h = m["layers"][0]["h"]
    assert isinstance(h, np.ndarray) and h.dtype == np.int64 and h.shape == (m["inner_N"], m["inner_d"])
    u = np.arange(1, 9).reshape(8, 1)
    y = cz.eval(b, u)
    assert y.dtype == np.int64 and y[:, 0].tolist() == np.cumsum(np.arange(1, 9)).tolist()
    assert cz.eval(m, u).tolist() == y.tolist()


def test_eval_matches_cli_on_a_changed_model(cli, tmp_path):
    m = cz.build("primitive/remember")["model"]
    m["layers"][0]["W"] = m["layers"][0]["W"] * 3 - 1  # any integer model evaluates the same way
    (tmp_path / "m.json").write_text(json.dumps(cz._model_to_json(m)))
    rng = np.random.default_rng(0)
    u = rng.integers(-5, 6, size=(m["N"], m["d"]))
    (tmp_path / "u.json").write_text(json.dumps({"input": u.tolist()}))
    r = cli("eval", "--model", tmp_path / "m.json", "--input", tmp_path / "u.json", "--json", "-")
    assert r.returncode == 0, r.stderr
    assert cz.eval(m, u).tolist() == json.loads(r.stdout)["output"]


def test_big_entries_become_python_ints():
    m = cz.build("primitive/cumsum", {"N": 4, "d": 1})["model"]
    h = m["layers"][0]["h"].astype(object)
    h[0, 0] = 2 ** 70
    m["layers"][0]["h"] = h
    y = cz.eval(m, [[1], [0], [0], [0]])
    assert y.dtype == object and y[0, 0] == 2 ** 70 and y[1, 0] == 1
    with pytest.raises(ValueError):
        cz.eval(m, np.zeros((4, 1)))  # floats are refused: exact entries only


def test_stats_and_sweep_records():
    s = cz.stats("primitive/cumsum", {"N": 8})
    assert s["model"]["L"] == 1 and "claims" in s
    recs = cz.sweep("primitive/cumsum", "N", [4, 8, 16])
    assert [r["N"] for r in recs] == [4, 8, 16]
    assert [r["model.inner_N"] for r in recs] == [4, 8, 16]
    try:
        import pandas as pd
    except ImportError:
        return
    df = pd.DataFrame(recs)
    assert list(df["N"]) == [4, 8, 16]
    rep = cz.sweep_report("primitive/cumsum", "N", [4, 8])
    assert rep["vary"] == "N" and len(rep["rows"]) == 2


def test_mqar_data_matches_cli(cli, tmp_path):
    ins, labs = cz.mqar_data(vocab=64, seq_len=16, kv=2, examples=5, seed=3)
    assert ins.shape == labs.shape == (5, 16) and ins.dtype == np.int64
    r = cli("mqar-data", "--vocab", 64, "--seq-len", 16, "--kv", 2, "--examples", 5, "--seed", 3,
            "--inputs", tmp_path / "i.npy", "--labels", tmp_path / "l.npy")
    assert r.returncode == 0, r.stderr
    np.testing.assert_array_equal(ins, np.load(tmp_path / "i.npy"))
    np.testing.assert_array_equal(labs, np.load(tmp_path / "l.npy"))
    with pytest.raises(ValueError):
        cz.mqar_data(vocab=8, seq_len=16, kv=2, examples=1)


def test_long_calls_release_the_gil():
    ticks = []
    stop = threading.Event()

    def ticker():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.001)

    t = threading.Thread(target=ticker)
    t.start()
    time.sleep(0.05)
    before = len(ticks)
    t0 = time.time()
    cz.sweep("mqar/dyadic", "n", [4, 8, 16, 32], {"c": 64})
    elapsed = time.time() - t0
    stop.set()
    t.join()
    # The ticker kept running during the call (with the GIL held it could not tick at all).
    assert elapsed < 0.05 or len(ticks) - before >= 3


def test_evaluate_architecture_layer_with_numpy_fields():
    # issue 28: an architecture layer's fields (WQ, gamma, ...) as numpy arrays, numpy scalars and
    # Fractions give the same exact output as the same layer written with plain lists and strings.
    import numpy as np
    from fractions import Fraction
    d, H = 2, 1
    plain = {"kind": "retnet", "heads": H, "WQ": [[1, 0], [0, 1]], "WK": [[1, 0], [0, 1]], "WV": [[1, 0], [0, 1]],
             "WO": [[1, 0], [0, 1]], "gamma": ["1/2"]}
    withnp = {"kind": "retnet", "heads": np.int64(H), "WQ": np.eye(2, dtype=np.int64), "WK": np.eye(2, dtype=np.int64),
              "WV": np.eye(2, dtype=np.int64), "WO": np.eye(2, dtype=np.int64), "gamma": [Fraction(1, 2)]}
    u = np.array([[1, 2], [3, -1], [0, 2], [1, 1]], dtype=np.int64)
    outs = []
    for L in (plain, withnp):
        m = {"ring": "Q", "N": 4, "d": d, "inner_N": 4, "inner_d": 16, "conv": "causal", "layers": [L]}
        outs.append(cz.evaluate(m, u))
    assert np.array_equal(np.asarray(outs[0], dtype=object), np.asarray(outs[1], dtype=object))
    with pytest.raises(ValueError):
        bad = dict(withnp, WQ=np.eye(2) * 0.5)  # floats are not exact entries
        cz.evaluate({"ring": "Q", "N": 4, "d": d, "inner_N": 4, "inner_d": 16, "conv": "causal", "layers": [bad]}, u)
