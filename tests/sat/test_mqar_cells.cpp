// MQAR's answer cells, one meaning for every method (issue 46 item 1): the bit-level reference
// checker of --method sat (circuits/reference/mqar_ref.h) and the enumerating check (mqar_check
// over tasks/mqar.h expected_answer) judge the same cells, the found column included, on every
// instance of small domains: for circuits that output every cell, only some found cells, or none,
// and for every one-cell change of the right answer.
#include <doctest/doctest.h>

#include <stdexcept>

#include "app/engine/sat/sat_problem.h"  // sat_mqar_spec: the codec as the checker's spec
#include "circuits/eval.h"
#include "circuits/reference/mqar_ref.h"
#include "tasks/mqar.h"
#include "tasks/mqar_domain.h"
#include "tasks/mqar_reference.h"
#include "verify/mqar_check.h"

using namespace cz;
namespace ref = cz::circuits::reference;

namespace {

struct Cell {
  std::size_t r, j;
};

// The enumerating check's verdict on one instance for the output matrix `y` (N×d or N×(d+1)).
bool enumerating_accepts(const mqar::Codec& k, const mqar::Instance& x, const Matrix<Int>& y) {
  auto xs = std::make_shared<const std::vector<mqar::Instance>>(1, x);
  MqarSolver sol;
  sol.codec = k;
  sol.run = [y](const mqar::Instance&) { return MqarRun{y, nullptr}; };
  return !mqar_check(mqar::from_list(xs, "test"), sol).run(0).has_value();
}

// The SAT checker's verdict (domain holds and every ok is 1) for the circuit outputs `cells` with
// values read from `y`.
bool checker_accepts(const ref::Checker& ch, const Matrix<std::int64_t>& u, const std::vector<Cell>& cells, const Matrix<Int>& y) {
  std::vector<std::int64_t> in(u.data().begin(), u.data().end());
  for (const Cell& c : cells) in.push_back(y(c.r, c.j) == Int(1));
  const std::vector<Int> v = circuits::eval_integer(ch.circuit, in);
  if (v[0] != Int(1)) throw std::logic_error("the checker's domain rejects an enumerated instance");
  for (std::size_t g = 1; g <= ch.groups.size(); ++g)
    if (v[g] != Int(1)) return false;
  return true;
}

}  // namespace

TEST_CASE("mqar cells: the SAT reference and the enumerating check judge the same cells, found column included") {
  struct Case {
    mqar::Encoding e;
    std::size_t c, p, n;
  };
  std::uint64_t compared = 0, rejected = 0, disagree = 0;
  std::string first;  // the first disagreement, for the failure message
  for (const Case& cs : {Case{mqar::Encoding::Binary, 3, 1, 3}, Case{mqar::Encoding::OneHot, 3, 1, 2}}) {
    const mqar::Codec k = mqar::make_codec(cs.e, cs.c, cs.p);
    const std::size_t N = 3 * cs.n, d = k.d;
    // Three output sets: every cell of columns [0, d]; columns [0, d) and one found cell (query 2's:
    // the others read as 0); columns [0, d) only (no found column: the model's shape).
    std::vector<std::vector<Cell>> sets(3);
    for (std::size_t r = 0; r < N; ++r)
      for (std::size_t j = 0; j <= d; ++j) {
        sets[0].push_back({r, j});
        if (j < d) sets[1].push_back({r, j}), sets[2].push_back({r, j});
      }
    sets[1].push_back({3 * (cs.n - 1) + 2, d});
    for (std::size_t s = 0; s < sets.size(); ++s) {
      std::vector<std::string> names;
      for (const Cell& c : sets[s]) names.push_back("y[" + std::to_string(c.r) + "][" + std::to_string(c.j) + "]");
      const ref::Checker ch = ref::mqar_checker(sat_mqar_spec(k, cs.n), names, "test");
      const bool with_found = s < 2;
      const mqar::Domain dom = mqar::triples_exhaustive(cs.n, cs.c);
      INFO(mqar::to_string(cs.e) << " output set " << s);
      for (std::uint64_t i = 0; i < dom.count; i += 5) {  // a fifth of the instances keeps it fast under ASan
        const mqar::Instance x = dom.instance(i);
        const auto u = mqar::encode(k, x);
        const auto want = mqar::expected_answer(k, x, mqar::reference_answers(x), with_found);
        // The circuit's output matrix: its cells hold `got`, every other cell reads as 0.
        auto placed = [&](const Matrix<std::int64_t>& got) {
          Matrix<Int> y(N, want.cols(), Int(0));
          for (const Cell& c : sets[s]) y(c.r, c.j) = Int(got(c.r, c.j));
          return y;
        };
        const Matrix<Int> right = placed(want);
        auto note = [&](bool e, bool sat, const std::string& what) {
          if (e == sat) return;
          if (!disagree++)
            first = mqar::to_string(cs.e) + " output set " + std::to_string(s) + " instance " + std::to_string(i) + " " + what +
                    ": enumerating " + (e ? "accepts" : "rejects") + ", SAT reference " + (sat ? "accepts" : "rejects");
        };
        note(enumerating_accepts(k, x, right), checker_accepts(ch, u, sets[s], right), "right answer");
        ++compared;
        for (const Cell& c : sets[s]) {  // every one-cell change of the right answer
          Matrix<std::int64_t> got = want;
          got(c.r, c.j) ^= 1;
          const Matrix<Int> y = placed(got);
          const bool e = enumerating_accepts(k, x, y);
          note(e, checker_accepts(ch, u, sets[s], y), "y[" + std::to_string(c.r) + "][" + std::to_string(c.j) + "] flipped");
          rejected += !e;
          ++compared;
        }
      }
    }
  }
  INFO(first);
  CHECK(disagree == 0);
  CHECK(compared > 1000);
  CHECK(rejected > 0);
}
