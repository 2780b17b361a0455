// Tasks sort and compare, one meaning for every method (issue 47 item 1; MQAR's counterpart is
// test_mqar_cells.cpp): on every instance of small exhaustive domains, the task's registered
// enumerating check (Task::check, src/verify/task_words.cpp) and the bit-level reference checker
// of --method sat (circuits/reference/sort_ref.h, compare_ref.h) give the same verdict for the
// right answer, for every one-cell change of it, and (sort) for the right answer with its ties in
// another order and with its first two places swapped (a permutation carrying its keys, not sorted
// unless the two keys are equal: no one-cell change reaches it). The artifact's answer is placed by the task's own port names (TaskShapeNeed).
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "circuits/eval.h"
#include "circuits/reference/compare_ref.h"
#include "circuits/reference/sort_ref.h"
#include "tasks/words.h"
#include "util/error.h"
#include "verify/task.h"

using namespace cz;
namespace ref = cz::circuits::reference;

namespace {

// The right answer for u, as the task's output matrix (out_N × out_d, port order of out_names);
// ties_reversed: sort's equal keys with their indices in the other order (also right).
Matrix<Int> right_answer(const std::string& task, const Params& p, const Matrix<std::int64_t>& u, bool ties_reversed) {
  if (task == "compare") {
    const std::size_t d = p.u("d");
    std::vector<int> x(d), y(d);
    for (std::size_t k = 0; k < d; ++k) x[k] = static_cast<int>(u(0, k)), y[k] = static_cast<int>(u(1, k));
    const words::CompareAnswer a = words::compare(x, y);
    Matrix<Int> m(1, 2 + 2 * d, Int(0));
    m(0, 0) = Int(a.lt ? 1 : 0), m(0, 1) = Int(a.eq ? 1 : 0);
    for (std::size_t k = 0; k < d; ++k) m(0, 2 + k) = Int(a.min[k]), m(0, 2 + d + k) = Int(a.max[k]);
    return m;
  }
  const std::size_t n = p.u("n"), d = p.u("d"), w = words::index_bits(n);
  std::vector<std::uint64_t> keys(n, 0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t b = 0; b < d; ++b) keys[i] |= static_cast<std::uint64_t>(u(i, b)) << b;
  words::SortAnswer a = words::stable_sorted(keys);
  if (ties_reversed)
    for (std::size_t i = 0; i < n;) {
      std::size_t j = i;
      while (j < n && a.keys[j] == a.keys[i]) ++j;
      std::reverse(a.idx.begin() + static_cast<long>(i), a.idx.begin() + static_cast<long>(j));
      i = j;
    }
  Matrix<Int> m(n, d + w, Int(0));
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t b = 0; b < d; ++b) m(i, b) = Int(static_cast<std::int64_t>((a.keys[i] >> b) & 1));
    for (std::size_t b = 0; b < w; ++b) m(i, d + b) = Int(static_cast<std::int64_t>((a.idx[i] >> b) & 1));
  }
  return m;
}

// The reference checker's verdict: domain = 1 and every ok = 1, its got inputs the cells of y in
// the order of the names it was built with (the task's out_names).
bool checker_accepts(const ref::Checker& ch, const Matrix<std::int64_t>& u, const Matrix<Int>& y) {
  std::vector<std::int64_t> in(u.data().begin(), u.data().end());
  for (const Int& v : y.data()) in.push_back(v == Int(1));
  const std::vector<Int> v = circuits::eval_integer(ch.circuit, in);
  if (v[0] != Int(1)) throw std::logic_error("the checker's domain rejects an enumerated instance");
  for (std::size_t g = 1; g <= ch.groups.size(); ++g)
    if (v[g] != Int(1)) return false;
  return true;
}

struct Tally {
  std::uint64_t compared = 0, rejected = 0, disagree = 0;
  std::string first;
};

// Every instance of the task's exhaustive domain at `given`: the variants right answer, (sort) ties
// reversed, and every one-cell flip of the right answer.
void differential(const std::string& task, const std::map<std::string, std::string>& given, Tally& t) {
  const Task& tk = find_task(task);
  const Params p = Params::parse(tk.params, given);
  const TaskShapeNeed need = tk.shape(p);
  REQUIRE(need.out_names.size() == need.out_N * need.out_d);
  const ref::Checker ch = task == "compare" ? ref::compare_checker(p.u("d"), need.out_names, "test")
                                            : ref::sort_checker(p.u("n"), p.u("d"), need.out_names, "test");
  const long cells = static_cast<long>(need.out_names.size());
  for (long variant = -3; variant < cells; ++variant) {  // -3: places 0, 1 swapped, -2: ties reversed, -1: right, else: flip cell
    if (variant < -1 && (task != "sort" || p.u("n") < 2)) continue;
    auto seen = std::make_shared<Matrix<std::int64_t>>();  // the u of the last evaluation (run(k) is called in order)
    TaskArtifact a;
    a.N = need.N, a.d = need.d, a.out_N = need.out_N, a.out_d = need.out_d, a.where = "test";
    a.eval = [task, p, variant, seen](const Matrix<std::int64_t>& u) {
      *seen = u;
      Matrix<Int> y = right_answer(task, p, u, variant == -2);
      if (variant >= 0) y.data()[static_cast<std::size_t>(variant)] = Int(1) - y.data()[static_cast<std::size_t>(variant)];
      if (variant == -3)
        for (std::size_t j = 0; j < y.cols(); ++j) std::swap(y(0, j), y(1, j));
      return y;
    };
    DomainOptions o;
    o.threads = 1;
    const Check ck = tk.check(p, a, o);
    REQUIRE(ck.domain == "exhaustive");
    REQUIRE(ck.instances == (std::uint64_t{1} << (need.N * need.d)));
    for (std::uint64_t k = 0; k < ck.instances; ++k) {
      const bool e = !ck.run(k).has_value();
      const bool s = checker_accepts(ch, *seen, a.eval(*seen));
      ++t.compared;
      t.rejected += !e;
      if (variant >= -2 && variant < 0 && !e && !t.disagree++) t.first = task + ": the enumerating check rejects a right answer at instance " + std::to_string(k);
      if (e != s && !t.disagree++)
        t.first = task + " " + nlohmann::json(given).dump() + " instance " + std::to_string(k) + " " +
                  (variant == -3   ? std::string("places 0, 1 swapped")
                   : variant == -2 ? std::string("ties reversed")
                   : variant == -1 ? std::string("right answer")
                                   : need.out_names[static_cast<std::size_t>(variant)] + " flipped") +
                  ": enumerating " + (e ? "accepts" : "rejects") + ", SAT reference " + (s ? "accepts" : "rejects");
    }
  }
}

}  // namespace

TEST_CASE("task cells: compare: the SAT reference and the enumerating check judge every cell the same") {
  Tally t;
  for (const char* d : {"1", "2", "3"}) differential("compare", {{"d", d}}, t);
  INFO(t.first);
  CHECK(t.disagree == 0);
  CHECK(t.compared > 500);
  CHECK(t.rejected > 0);
}

TEST_CASE("task cells: sort: the SAT reference and the enumerating check judge every cell the same, ties in any order") {
  Tally t;
  for (const auto& g : std::vector<std::map<std::string, std::string>>{{{"n", "2"}, {"d", "2"}}, {{"n", "3"}, {"d", "2"}},
                                                                       {{"n", "4"}, {"d", "1"}}, {{"n", "1"}, {"d", "2"}}})
    differential("sort", g, t);
  INFO(t.first);
  CHECK(t.disagree == 0);
  CHECK(t.compared > 1000);
  CHECK(t.rejected > 0);
}

TEST_CASE("task cells: every port of sort and compare is read by both methods (a missing port is refused)") {
  const Task& c = find_task("compare");
  const TaskShapeNeed need = c.shape(Params::parse(c.params, {{"d", "2"}}));
  std::vector<std::string> some = need.out_names;
  some.erase(some.begin() + 1);  // no eq
  CHECK_THROWS_AS(ref::compare_checker(2, some, "test"), InputError);
  const Task& s = find_task("sort");
  const TaskShapeNeed sn = s.shape(Params::parse(s.params, {{"n", "3"}, {"d", "2"}}));
  std::vector<std::string> so = sn.out_names;
  so.pop_back();
  CHECK_THROWS_AS(ref::sort_checker(3, 2, so, "test"), InputError);
  // The task's methods per artifact kind: circuits only, enumerate and sat.
  for (const Task* t : {&c, &s}) {
    CHECK(method_refusal(*t, "circuit", "enumerate").empty());
    CHECK(method_refusal(*t, "circuit", "sat").empty());
    CHECK_FALSE(method_refusal(*t, "model", "enumerate").empty());
  }
}
