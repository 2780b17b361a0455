"""sweep --plot FILE.svg|png through scripts/plot.py."""
import os

import pytest


def test_png_and_svg(cli, tmp_path):
    pytest.importorskip("matplotlib")
    png, svg = tmp_path / "a.png", tmp_path / "a.svg"
    r = cli("sweep", "mqar/dyadic", "--vary", "n=4,8,16", "-p", "c=32", "--plot", png)
    assert r.returncode == 0, r.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    r = cli("sweep", "primitive/cumsum", "--vary", "N=4,8,16", "--plot", svg, "--json", tmp_path / "s.json")
    assert r.returncode == 0, r.stderr
    text = svg.read_text()
    assert "<svg" in text and "N^" in text  # fitted exponents in the legend
    assert (tmp_path / "s.json").exists()


def test_bad_suffix_refused(cli, tmp_path):
    r = cli("sweep", "primitive/cumsum", "--vary", "N=4,8", "--plot", tmp_path / "a.pdf")
    assert r.returncode == 2 and r.stderr.startswith("error: ") and ".svg or .png" in r.stderr


def test_missing_matplotlib_is_a_clear_error(cli, tmp_path):
    fake = tmp_path / "fake" / "matplotlib"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('no matplotlib here')\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path / "fake"))
    out = tmp_path / "a.svg"
    r = cli("sweep", "primitive/cumsum", "--vary", "N=4,8", "--plot", out, "--json", tmp_path / "s.json", env=env)
    assert r.returncode == 2
    assert r.stderr.startswith("error: ") and "matplotlib is not installed" in r.stderr
    assert r.stderr.count("\n") == 1
    assert not out.exists() and not (tmp_path / "s.json").exists()


def test_non_numeric_sweep_refused(cli, tmp_path):
    pytest.importorskip("matplotlib")
    r = cli("sweep", "primitive/shift_up", "--vary", "conv=cyclic,anticausal", "--plot", tmp_path / "a.svg")
    assert r.returncode == 2 and "not numeric" in r.stderr


def test_claims_plot(cli, tmp_path):
    """claims --plot: one panel per asymptotic ledger row, with the row's status and fitted slope."""
    pytest.importorskip("matplotlib")
    svg, js = tmp_path / "claims.svg", tmp_path / "claims.json"
    r = cli("claims", "--fast", "--plot", svg, "--json", js)
    assert r.returncode == 0, r.stderr
    text = svg.read_text()
    assert "<svg" in text and "slope" in text and "claimed shape" in text
    import json
    ledger = json.loads(js.read_text())
    # every asymptotic row with data is drawn, its status in the panel title
    # (data is one fit, or a dict of named fits, each with its points and slope)
    def has_fit(c):
        d = c.get("data")
        return isinstance(d, dict) and ("slope" in d or any(isinstance(f, dict) and "slope" in f for f in d.values()))
    drawn = [c for c in ledger["claims"] if has_fit(c)]
    assert drawn and all(c["status"] in text for c in drawn)


def test_claims_plot_bad_suffix(cli, tmp_path):
    r = cli("claims", "--fast", "--plot", tmp_path / "a.pdf")
    assert r.returncode == 2 and r.stderr.startswith("error: ") and ".svg or .png" in r.stderr
