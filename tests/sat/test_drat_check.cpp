// The DRAT checker (circuits/sat/drat_check.h, issue 38 item 2) on hand-written proofs: RUP and
// RAT lemmas accepted; a lemma removed, a literal flipped, a clause of the formula dropped, a
// needed clause deleted, a RAT lemma with a bad resolvent rejected; unit deletions ignored; binary
// and text DRAT; malformed DIMACS and DRAT refused (InputError); and CaDiCaL's own proofs of
// pigeonhole formulas accepted, tampered copies rejected.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <sstream>
#include <string>

#include "circuits/sat/cnf.h"
#include "circuits/sat/drat_check.h"
#include "circuits/sat/solver.h"
#include "util/error.h"
#include "util/sha256.h"

using namespace cz;
namespace sat = cz::circuits::sat;

namespace {

sat::DratResult check(const std::string& cnf, const std::string& proof) {
  return sat::check_drat(sat::read_dimacs(cnf, "cnf"), sat::read_drat(proof, "proof"));
}

// x1 or not; with x1 the four clauses over 3, 4 are unsatisfiable, without it (1 2)(1 -2) are.
const std::string kTwoLevels = "p cnf 4 6\n1 2 0\n1 -2 0\n-1 3 4 0\n-1 3 -4 0\n-1 -3 4 0\n-1 -3 -4 0\n";
// The four clauses over 2, 3: no unit, so a proof is needed.
const std::string kSquare = "p cnf 5 4\n2 3 0\n-2 3 0\n2 -3 0\n-2 -3 0\n";

}  // namespace

TEST_CASE("drat: RUP proofs accepted, a removed lemma or a flipped literal rejected") {
  const sat::DratResult ok = check(kTwoLevels, "1 0\n3 0\n0\n");
  CHECK_MESSAGE(ok.ok, ok.why);
  CHECK(ok.lemmas == 3);
  CHECK(ok.checked == 2);  // the empty clause is after the first conflict: not needed
  CHECK(ok.rat == 0);
  const sat::DratResult removed = check(kTwoLevels, "1 0\n0\n");
  CHECK_FALSE(removed.ok);
  CHECK(removed.why.find("empty clause") != std::string::npos);
  const sat::DratResult flipped = check(kTwoLevels, "-1 0\n3 0\n0\n");
  CHECK_FALSE(flipped.ok);
  CHECK(flipped.why.find("neither RUP nor RAT") != std::string::npos);
  // A proof that stops before any conflict.
  const sat::DratResult short_proof = check(kTwoLevels, "1 0\n");
  CHECK_FALSE(short_proof.ok);
  CHECK(short_proof.why.find("no conflict") != std::string::npos);
}

TEST_CASE("drat: a clause dropped from the formula, or deleted by the proof, breaks the proof") {
  // Without (1 -2) the formula is satisfiable (1 = 0, 2 = 1).
  CHECK_FALSE(check("p cnf 4 5\n1 2 0\n-1 3 4 0\n-1 3 -4 0\n-1 -3 4 0\n-1 -3 -4 0\n", "1 0\n3 0\n0\n").ok);
  const sat::DratResult del = check(kTwoLevels, "d 1 2 0\n1 0\n3 0\n0\n");
  CHECK_FALSE(del.ok);
  // Deleting a clause the proof no longer needs is fine, and counted.
  const sat::DratResult late = check(kTwoLevels, "1 0\nd 1 2 0\nd 1 -2 0\nd 7 0\n3 0\n0\n");
  CHECK_MESSAGE(late.ok, late.why);
  CHECK(late.deletions == 2);
  CHECK(late.missing_deletions == 1);
}

TEST_CASE("drat: RAT lemmas on a fresh variable accepted, a bad resolvent rejected") {
  // (5) is not RUP (nothing mentions 5) but RAT on 5; (-5 2) is RUP; then 2 conflicts.
  const sat::DratResult ok = check(kSquare, "5 0\n-5 2 0\n0\n");
  CHECK_MESSAGE(ok.ok, ok.why);
  CHECK(ok.rat == 1);
  CHECK(ok.checked == 2);
  // With (-5 4) in the formula, the resolvent (4) of (5) is not RUP.
  const sat::DratResult bad = check("p cnf 5 5\n2 3 0\n-2 3 0\n2 -3 0\n-2 -3 0\n-5 4 0\n", "5 0\n-5 2 0\n0\n");
  CHECK_FALSE(bad.ok);
  CHECK(bad.why.find("step 1 ") != std::string::npos);
  // Lemmas past the first conflict are not checked (a wrong one there does no harm).
  const sat::DratResult after = check(kSquare, "5 0\n-5 2 0\n-3 0\n7 0\n0\n");
  CHECK_MESSAGE(after.ok, after.why);
  CHECK(after.steps_used == 2);
}

TEST_CASE("drat: a variable past the CNF's and the proof's own is refused, a cancelled check stops") {
  // Issue 46 row 11: a 7-byte binary proof naming variable 2^26 took 4.4 GB; extension variables
  // are the proof's own, so at most V + (its literals) of them.
  const std::string big("a\x80\x80\x80\x40\x00", 6);
  CHECK(sat::read_drat(big, "proof").max_var == (1 << 26));
  CHECK_THROWS_WITH_AS(check(kSquare, big), doctest::Contains("past the CNF's 5 variables"), InputError);
  CHECK_THROWS_AS(check(kSquare, "50 0\n0\n"), InputError);
  // Issue 46 row 8: Python's Ctrl-C sets the flag; the check stops (not "rejected" as a proof).
  std::string many;
  for (int i = 0; i < 5000; ++i) many += "d 1 4 0\n";
  many += "5 0\n-5 2 0\n0\n";
  CHECK_MESSAGE(check(kSquare, many).ok, "the honest proof with 5000 deletions of absent clauses");
  const std::atomic<bool> cancel{true};
  const sat::DratResult stopped = sat::check_drat(sat::read_dimacs(kSquare, "cnf"), sat::read_drat(many, "proof"), &cancel);
  CHECK_FALSE(stopped.ok);
  CHECK(stopped.cancelled);
}

TEST_CASE("drat: deletions of unit clauses are ignored, as drat-trim does") {
  const std::string f = "p cnf 3 5\n1 0\n-1 2 3 0\n-1 2 -3 0\n-1 -2 3 0\n-1 -2 -3 0\n";
  const sat::DratResult r = check(f, "d 1 0\n2 0\n0\n");
  CHECK_MESSAGE(r.ok, r.why);
  CHECK(r.unit_deletions_ignored == 1);
  CHECK(r.deletions == 0);
  // A formula that propagates to a conflict needs no lemma (an empty proof).
  CHECK(check("p cnf 2 3\n1 0\n-1 2 0\n-2 0\n", "").ok);
  CHECK(check("p cnf 1 1\n0\n", "").ok);
}

TEST_CASE("drat: binary DRAT read as text is, and long literals decode") {
  // "1 0 / 3 0 / 0" in binary: 'a' 2 0, 'a' 6 0, 'a' 0.
  const std::string bin("a\x02\x00" "a\x06\x00" "a\x00", 8);
  const sat::DratProof p = sat::read_drat(bin, "proof");
  CHECK(p.binary);
  CHECK(p.deletion.size() == 3);
  CHECK(sat::check_drat(sat::read_dimacs(kTwoLevels, "cnf"), p).ok);
  // -100 is 2*100+1 = 201 = 0xC9 0x01; a deletion step 'd'.
  const sat::DratProof q = sat::read_drat(std::string("d\xc9\x01\x00", 4), "proof");
  REQUIRE(q.lits.size() == 2);
  CHECK(q.lits[0] == -100);
  CHECK(q.deletion[0] == 1);
  CHECK(q.max_var == 100);
  CHECK_FALSE(sat::read_drat("c a comment\nd 1 2 0\n", "proof").binary);
}

TEST_CASE("drat: malformed DIMACS and DRAT are input errors") {
  for (const char* bad : {"", "1 2 0\n", "p cnf 2 1\n1 3 0\n", "p cnf 2 2\n1 2 0\n", "p cnf 2 1\n1 2\n",
                          "p cnf 2 1\n1 x 0\n", "p cnf 2 0\np cnf 2 0\n", "p cnf 2 1\n1 2 0\n1 0\n", "p dnf 1 1\n1 0\n",
                          "p cnf 2 1\n99999999999 0\n"})
    CHECK_THROWS_AS(sat::read_dimacs(bad, "cnf"), InputError);
  for (const std::string& bad : {std::string("1 2"), std::string("d1 0\n"), std::string("1 - 0\n"),
                                std::string("a\x02", 2), std::string("x\x02\x00", 3), std::string("a\x01\x00", 3),
                                std::string("a\xff\xff\xff\xff\xff\x01\x00", 8), std::string("100000000 0\n")})
    CHECK_THROWS_AS(sat::read_drat(bad, "proof"), InputError);
}

TEST_CASE("drat: CaDiCaL's proofs of pigeonhole formulas check, tampered copies do not") {
  const auto cadical = sat::find_solver("cadical");
  REQUIRE_MESSAGE(cadical, "cadical is not on PATH (scripts/setup.sh installs it)");
  for (int holes : {3, 5}) {
    // holes+1 pigeons in `holes` holes: var p*holes + h + 1.
    sat::Cnf cnf;
    const int pigeons = holes + 1;
    for (int k = 0; k < pigeons * holes; ++k) cnf.new_var();
    auto v = [&](int p, int h) { return p * holes + h + 1; };
    for (int p = 0; p < pigeons; ++p) {
      for (int h = 0; h < holes; ++h) cnf.lits.push_back(v(p, h));
      cnf.lits.push_back(0);
      ++cnf.num_clauses;
    }
    for (int h = 0; h < holes; ++h)
      for (int p = 0; p < pigeons; ++p)
        for (int q = p + 1; q < pigeons; ++q) cnf.add({-v(p, h), -v(q, h)});
    std::string proof;
    const sat::ProofSink sink = [&](const char* d, std::size_t n) { proof.append(d, n); };
    const sat::SolveResult r = sat::solve(*cadical, cnf, 60, &sink);
    REQUIRE(r.answer == sat::Answer::Unsat);
    std::ostringstream dimacs;
    cnf.write_dimacs(dimacs);
    const sat::DratFormula f = sat::read_dimacs(dimacs.str(), "cnf");
    const sat::DratProof p = sat::read_drat(proof, "proof");
    const sat::DratResult ok = sat::check_drat(f, p);
    CHECK_MESSAGE(ok.ok, ok.why);
    CHECK(ok.checked > 0);
    // The first core lemma removed: the proof must fail, unless the lemma was redundant; flip the
    // first literal of every lemma instead, which no proof survives.
    sat::DratProof flipped = p;
    bool start = true;
    for (std::size_t k = 0; k < flipped.lits.size(); ++k) {
      if (start && flipped.lits[k] != 0) flipped.lits[k] = -flipped.lits[k];
      start = flipped.lits[k] == 0;
    }
    CHECK_FALSE(sat::check_drat(f, flipped).ok);
    // Each lemma removed in turn: some removal breaks the proof (not every lemma is in the core).
    std::vector<std::size_t> starts;
    for (std::size_t k = 0, s = 0; k < p.deletion.size(); ++k) {
      starts.push_back(s);
      while (p.lits[s] != 0) ++s;
      ++s;
    }
    std::size_t broken = 0, tried = 0;
    for (std::size_t k = 0; k < p.deletion.size(); ++k) {
      if (p.deletion[k] || p.lits[starts[k]] == 0) continue;
      sat::DratProof q = p;
      std::size_t e = starts[k];
      while (q.lits[e] != 0) ++e;
      q.lits.erase(q.lits.begin() + static_cast<long>(starts[k]), q.lits.begin() + static_cast<long>(e) + 1);
      q.deletion.erase(q.deletion.begin() + static_cast<long>(k));
      ++tried;
      broken += !sat::check_drat(f, q).ok;
    }
    CHECK(tried > 0);
    CHECK(broken > 0);
    MESSAGE("pigeonhole " << holes << ": " << tried << " lemmas, " << broken << " of them needed, " << ok.checked << " checked");
    // A clause of the formula dropped (a pigeon may stay out): satisfiable, so no proof checks.
    sat::DratFormula dropped = f;
    dropped.lits.erase(dropped.lits.begin(), dropped.lits.begin() + holes + 1);
    --dropped.num_clauses;
    CHECK_FALSE(sat::check_drat(dropped, p).ok);
  }
}

TEST_CASE("sha256: the FIPS 180-4 example vectors, whole and in pieces") {
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const std::string two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  CHECK(sha256_hex(two) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  Sha256 h;
  for (std::size_t k = 0; k < two.size(); k += 5) h.update(two.data() + k, std::min<std::size_t>(5, two.size() - k));
  CHECK(h.hex() == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(sha256_hex(std::string(1000000, 'a')) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}
