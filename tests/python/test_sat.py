"""verify(..., method="sat") (issue 27): the same report as `verify NAME --method sat --json`, a
proof and a refutation, and the CLI's refusals as ValueError/TypeError."""
import json
import shutil

import pytest

import circuitzoo as cz

pytestmark = pytest.mark.skipif(shutil.which("cadical") is None, reason="cadical is not installed")


def test_sat_proof_matches_cli(cli):
    r = cz.verify("circuit/compare", {"d": 5}, method="sat")
    assert r["method"] == "sat" and r["verdict"] == "proved" and r["instances"] == 2 ** 10
    c = json.loads(cli("verify", "circuit/compare", "-p", "d=5", "--method", "sat", "--json", "-").stdout)
    for k in ("construction", "params", "verdict", "domain", "domain_description", "instances", "counterexample", "claims"):
        assert r[k] == c[k], k
    assert r["sat"]["miters"] == c["sat"]["miters"] and r["sat"]["cnf"]["vars"] == c["sat"]["cnf"]["vars"]


def test_sat_refutation_has_the_engines_counterexample():
    r = cz.verify("mqar/dyadic", {"n": 4, "c": 4, "variant": "paper"}, method="sat")
    assert r["verdict"] == "refuted" and r["counterexample"]["instance"]["tokens"]


def test_sat_refusals():
    with pytest.raises(ValueError, match="method"):
        cz.verify("circuit/compare", method="nope")
    with pytest.raises(TypeError):
        cz.verify("circuit/compare", method=1)
    with pytest.raises(ValueError, match="whole domain"):
        cz.verify("circuit/compare", samples=5, method="sat")
    with pytest.raises(ValueError, match="not provable by --method sat"):
        cz.verify("mqar/autocorrelation", method="sat", params={"layout": "zoology"})  # sampled layout: refused with why
    assert cz.verify("mqar/autocorrelation", method="sat")["verdict"] == "proved"  # triples: one circuit (issue 37)


def test_sort_by_stages_matches_cli(cli):
    # circuit/sort is proved by the 0-1 principle by default (contract.md --sat-strategy), from
    # Python as from the CLI, at 32 keys x 8 bits (2^256 inputs).
    r = cz.verify("circuit/sort", {"n": 32, "d": 8}, method="sat")
    assert r["verdict"] == "proved" and r["instances"] == str(2 ** 256)
    assert r["sat"]["strategy"] == "stages" and r["sat"]["method"] == "0-1 principle"
    c = json.loads(cli("verify", "circuit/sort", "-p", "n=32", "-p", "d=8", "--method", "sat", "--json", "-").stdout)
    assert r["sat"]["stages"]["comparators"] == c["sat"]["stages"]["comparators"] == 191


def test_dyadic_blocks_option_matches_cli(cli):
    # blocks= is --sat-blocks: mqar/dyadic's pbs blocks call by call (default) or query by query.
    calls = cz.verify("mqar/dyadic", {"n": 8, "c": 16}, method="sat")
    queries = cz.verify("mqar/dyadic", {"n": 8, "c": 16}, method="sat", blocks="queries")
    assert calls["verdict"] == queries["verdict"] == "proved"
    assert calls["sat"]["stages"]["pbs_blocks"] == 1 and queries["sat"]["stages"]["pbs_blocks"] == 0
    c = json.loads(cli("verify", "mqar/dyadic", "-p", "n=8", "-p", "c=16", "--method", "sat", "--sat-blocks", "queries", "--json", "-").stdout)
    assert c["sat"]["miters"] == queries["sat"]["miters"] != calls["sat"]["miters"]
    with pytest.raises(ValueError, match="blocks"):
        cz.verify("mqar/dyadic", {"n": 8, "c": 16}, method="sat", blocks="nope")


def test_circuit_equiv_by_sat(tmp_path):
    # circuit(A, equiv=B, method="sat") (issue 47 item 4): the CLI's SAT sweep from Python, past the
    # 32 inputs enumeration stops at; the same file restructured is proved, certify=True checks the
    # DRAT proofs; a file with one output negated is refuted with a counterexample.
    a, b = str(tmp_path / "a.aag"), str(tmp_path / "b.aag")
    cz.export("circuit/sort", {"n": 8, "d": 8}, format="aiger", out=a)
    lines = open(a).read().split("\n")
    M, I, L, O, A = map(int, lines[0].split()[1:6])
    lines[1 + I] = str(int(lines[1 + I]) ^ 1)  # output 0 negated
    open(b, "w").write("\n".join(lines))
    r = cz.circuit(a, equiv=a, method="sat", certify=True)["equiv"]
    assert r["verdict"] == "proved" and r["method"] == "strash" and r["instances"] == str(2 ** 64)
    r = cz.circuit(a, equiv=b)["equiv"]  # auto: 64 inputs, by SAT
    assert r["verdict"] == "refuted" and r["equivalent"] is False and r["counterexample"]["first"] != r["counterexample"]["second"]
    with pytest.raises(ValueError, match="method"):
        cz.circuit(a, equiv=a, method="nope")
    with pytest.raises(TypeError):
        cz.circuit(a, equiv=a, certify="yes")


def test_every_method_reports_one_shape():
    # Issue 49 item 3: r["failed"] and the other common keys on every method's report.
    import math
    for method in ("enumerate", "sat", "algebra"):
        r = cz.verify("primitive/cumsum", {"N": 4, "d": 1}, method=method)
        for k in ("verdict", "method", "params", "domain", "instances", "instances_log10", "failed", "passed"):
            assert k in r, (method, k)
        assert r["method"] == method and r["failed"] == 0
    r = cz.verify("circuit/compare", {"d": 3}, method="sat")
    assert r["passed"] == r["instances"] == 64 and math.isclose(r["instances_log10"], math.log10(64))
    r = cz.verify("mqar/dyadic", {"n": 4, "c": 4, "variant": "paper"}, method="sat")
    assert r["verdict"] == "refuted" and r["failed"] == 1 and r["passed"] is None
    r = cz.verify("primitive/cumsum", {"N": 4, "d": 1}, method="algebra")
    assert r["instances_log10"] is None and r["passed"] is None
