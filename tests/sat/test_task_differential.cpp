// One meaning per task, whichever method judges (issue 47 item 1): the primitive tasks and SD,
// beside test_mqar_cells.cpp (MQAR) and test_task_cells.cpp (sort, compare). On every instance of
// small exhaustive domains and on seeded instances of larger ones, the task's enumerating check
// (what `verify --method enumerate` runs) and the reference circuit of --method sat, evaluated
// exactly (circuits/eval.h), give the same verdict for the right answer and for every one-cell
// change of it:
//   - the primitives (identity, shift_down, shift_up, cumsum, add, hadamard, remember): Task::check
//     (verify/task_primitives.cpp, sem:: over Z) against sat::words_checker over ref::integer_map
//     (app/engine/sat/sat_primitive_ref.h, the checker sat_model_path.cpp builds), every output
//     word as wide as the reference's own word and two bits wider; a one-cell change is every
//     one-bit change of a cell's word, and only that cell's ok output may drop (and the
//     enumerating check's failure must name that cell);
//   - SD: the checker of verify --program --task sd --method sat (ref::sd_checker over the blocks of
//     sd_spec, with the `fails` bit, as sat_program_problem builds it) against the task's check of a
//     circuit or model file (verify/task_sd_files.cpp) and the program check's rule
//     (byo_program.cpp program_failure: sdc::decode_flags(y) == sd::intersection(x)); a one-cell
//     change is any one answer bit flipped (some keep the answer right: both must say so).
// The right answers come from this file's own plain reading of each task's `semantics`, so a
// reference that both methods share (tasks/primitive_semantics.h) is held to it as well.
// A last case keeps the list whole: every task with a sat method has a differential test.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>

#include "app/engine/sat/sat_primitive_ref.h"
#include "app/engine/sat/sat_sd.h"
#include "circuits/eval.h"
#include "circuits/reference/sd_ref.h"
#include "circuits/sat/int_miter.h"
#include "constructions/sd/alg3.h"
#include "tasks/sd.h"
#include "verify/sd_domain.h"
#include "verify/task.h"

using namespace cz;
namespace ref = cz::circuits::reference;
namespace sat = cz::circuits::sat;

namespace {

struct Tally {
  std::uint64_t compared = 0, rejected = 0, accepted_changes = 0, disagree = 0;
  std::string first;  // the first disagreement, for the failure message
  template <class What>  // what(): the case's description, built only for a disagreement
  void note(bool e, bool s, const What& what) {
    ++compared;
    if (e != s && !disagree++) first = what() + ": enumerating " + (e ? "accepts" : "rejects") + ", SAT reference " + (s ? "accepts" : "rejects");
  }
  void fail(const std::string& what) {
    if (!disagree++) first = what;
  }
};

std::string given_text(const std::map<std::string, std::string>& given) {
  std::string s;
  for (const auto& [k, v] : given) s += (s.empty() ? "" : " ") + k + "=" + v;
  return s;
}

// ---------------------------------------------------------------------------------------------
// The primitives.

// y = task(u), read plainly off the task's `semantics` line (tasks --json), not from src/tasks.
Matrix<std::int64_t> plain_primitive(const std::string& task, const Params& p, const Matrix<std::int64_t>& u) {
  const std::size_t N = u.rows(), d = u.cols();
  Matrix<std::int64_t> y(N, d, 0);
  auto row_cumsum = [&](std::size_t lo, std::size_t hi, std::size_t i, std::size_t j) {  // u[lo] + ... + u[i], i < hi
    std::int64_t s = 0;
    for (std::size_t k = lo; k <= i && k < hi; ++k) s += u(k, j);
    return s;
  };
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t j = 0; j < d; ++j) {
      if (task == "identity") y(i, j) = u(i, j);
      else if (task == "shift_down") y(i, j) = i >= p.u("s") ? u(i - p.u("s"), j) : 0;
      else if (task == "shift_up") y(i, j) = i + p.u("s") < N ? u(i + p.u("s"), j) : 0;
      else if (task == "cumsum") y(i, j) = row_cumsum(0, N, i, j);
      else if (task == "add") y(i, j) = j < d / 2 ? u(i, j) + u(i, j + d / 2) : 0;
      else if (task == "hadamard") y(i, j) = j < d / 2 ? u(i, j) * u(i, j + d / 2) : 0;
      else if (task == "remember") {
        const std::size_t s = p.u("s"), t = p.u("t"), fs = p.u("fs");
        const std::string f = p.s("f");
        if (i < s || i >= t) y(i, j) = u(i, j);
        else if (f == "identity") y(i, j) = u(i, j);
        else if (f == "cumsum") y(i, j) = row_cumsum(s, t, i, j);
        else y(i, j) = i - s >= fs ? u(i - fs, j) : 0;  // f = shift_down by fs within the window
      } else {
        throw std::logic_error("plain_primitive: no reading of task " + task);
      }
    }
  return y;
}

// A value's two's-complement bits of width w (nullopt when it does not fit).
std::optional<std::vector<std::int64_t>> twos(std::int64_t v, std::size_t w) {
  if (w == 0 || w > 62) return std::nullopt;
  const std::int64_t lo = -(std::int64_t{1} << (w - 1)), hi = (std::int64_t{1} << (w - 1)) - 1;
  if (v < lo || v > hi) return std::nullopt;
  std::vector<std::int64_t> b(w);
  for (std::size_t k = 0; k < w; ++k) b[k] = (v >> k) & 1;
  return b;
}
std::int64_t from_twos(std::int64_t v, std::size_t w, std::size_t flip) {  // v with bit `flip` of its w-bit word changed
  std::int64_t x = v ^ (std::int64_t{1} << flip);
  const std::int64_t m = std::int64_t{1} << w;
  x &= m - 1;
  return x >= m / 2 ? x - m : x;
}

struct PrimCase {
  std::string task;
  std::map<std::string, std::string> given;
  std::uint64_t samples = 0;  // 0: the exhaustive box {-1,0,1}^(N×d) (--exhaustive); else K seeded matrices (--samples K)
};

void primitive_differential(const PrimCase& pc, Tally& t) {
  const Task& tk = find_task(pc.task);
  const Params p = Params::parse(tk.params, pc.given);
  const TaskShapeNeed need = tk.shape(p);
  const std::size_t N = need.N, d = need.d;
  const std::int64_t range = pc.samples ? p.i("range") : 1;  // the SAT box is the enumerated one: {-1,0,1} or [-range, range]
  const sat::IntInputs in = sat::IntInputs::box(N, d, Int(-range), Int(range));
  const std::string task = pc.task;
  const sat::WordMap reference = [task, p](sat::WordBuilder& wb, const Matrix<sat::Word>& u) {
    return ref::integer_map(task, p, sat::BitRing{&wb}, u);
  };
  const sat::IntArtifact own = sat::artifact_circuit(in, reference, 1024);  // only its word widths are used
  DomainOptions o;
  o.threads = 1;
  if (pc.samples) o.samples = pc.samples;
  else o.force_exhaustive = true;
  const std::string head = task + " " + given_text(pc.given) + (pc.samples ? " sampled" : " exhaustive");

  for (std::size_t widen : {0, 2}) {
    sat::IntArtifact art;
    art.width = own.width;
    for (auto& w : art.width.data()) w += widen;
    const ref::Checker ch = sat::words_checker(in, art, reference, {}, 1024);
    const circuits::Evaluator<RingI64> ev(RingI64{}, ch.circuit);
    std::map<std::string, std::size_t> at;  // checker input name -> position
    for (std::size_t k = 0; k < ch.circuit.num_inputs(); ++k) at[ch.circuit.input_name(k)] = k;
    REQUIRE(at.size() == in.names.size() + [&] {
      std::size_t s = 0;
      for (std::size_t w : art.width.data()) s += w;
      return s;
    }());
    // Positions of u's box words and each cell's got word among the checker's inputs, by name.
    Matrix<std::vector<std::size_t>> u_at(N, d), got_at(N, d);
    for (std::size_t i = 0; i < N; ++i)
      for (std::size_t j = 0; j < d; ++j) {
        const std::string c = std::string("[") + std::to_string(i) + "][" + std::to_string(j) + "]#";
        for (std::size_t b = 0; b < in.entries(i, j).width; ++b) u_at(i, j).push_back(at.at("u" + c + std::to_string(b)));
        for (std::size_t b = 0; b < art.width(i, j); ++b) got_at(i, j).push_back(at.at("got:y" + c + std::to_string(b)));
      }
    // The ok output of cell (i, j) (words_checker: "ok:row i col j", in row-major order after "domain").
    REQUIRE(ch.groups.size() == N * d);
    for (std::size_t i = 0; i < N; ++i)
      for (std::size_t j = 0; j < d; ++j) REQUIRE(ch.groups[i * d + j] == "row " + std::to_string(i) + " col " + std::to_string(j));

    // Variants: -1 the right answer; v >= 0 the right answer with bit v % W of cell v / W flipped,
    // W the widest word (bits past a cell's own width are skipped).
    std::size_t W = 0;
    for (std::size_t w : art.width.data()) W = std::max(W, w);
    for (long variant = -1; variant < static_cast<long>(N * d * W); ++variant) {
      const std::size_t cell = variant < 0 ? 0 : static_cast<std::size_t>(variant) / W, bit = variant < 0 ? 0 : static_cast<std::size_t>(variant) % W;
      const std::size_t ci = cell / d, cj = cell % d;
      if (variant >= 0 && bit >= art.width(ci, cj)) continue;
      auto seen = std::make_shared<std::optional<Matrix<std::int64_t>>>();  // the u of run(k)'s one evaluation
      auto answer = [task, p, variant, ci, cj, bit, &art](const Matrix<std::int64_t>& u) {
        Matrix<std::int64_t> y = plain_primitive(task, p, u);
        if (variant >= 0) y(ci, cj) = from_twos(y(ci, cj), art.width(ci, cj), bit);
        return y;
      };
      TaskArtifact a;
      a.N = a.out_N = N, a.d = a.out_d = d, a.where = "test";
      a.eval = [seen, answer](const Matrix<std::int64_t>& u) {
        if (!*seen) *seen = u;
        return map_matrix(answer(u), [](std::int64_t x) { return Int(x); });
      };
      const Check ck = tk.check(p, a, o);
      REQUIRE(ck.domain == (pc.samples ? "sampled" : "exhaustive"));
      const std::string what_v = variant < 0 ? std::string("right answer")
                                             : "y[" + std::to_string(ci) + "][" + std::to_string(cj) + "] bit " + std::to_string(bit) +
                                                   " flipped (word of " + std::to_string(art.width(ci, cj)) + " bits)";
      for (std::uint64_t k = 0; k < ck.instances; ++k) {
        seen->reset();
        const std::optional<Failure> fail = ck.run(k);
        if (!seen->has_value()) throw std::logic_error("run(k) did not evaluate the artifact");
        const Matrix<std::int64_t> u = **seen, y = answer(u);
        auto what = [&] { return head + " (words +" + std::to_string(widen) + ") instance " + std::to_string(k) + " " + what_v; };
        // The checker's inputs: u's box words, then each cell's got word.
        std::vector<std::int64_t> x(ch.circuit.num_inputs(), 0);
        bool fits = true;
        for (std::size_t i = 0; i < N; ++i)
          for (std::size_t j = 0; j < d; ++j) {
            const auto ub = twos(u(i, j), in.entries(i, j).width);
            const auto yb = twos(y(i, j), art.width(i, j));
            if (!ub) throw std::logic_error("an enumerated entry outside the SAT box");
            if (!yb) {
              fits = false;
              continue;
            }
            for (std::size_t b = 0; b < ub->size(); ++b) x[u_at(i, j)[b]] = (*ub)[b];
            for (std::size_t b = 0; b < yb->size(); ++b) x[got_at(i, j)[b]] = (*yb)[b];
          }
        if (!fits) {
          t.fail(what() + ": the answer does not fit the reference's own word widths");
          continue;
        }
        const std::vector<std::int64_t> out = ev(x);
        if (out[0] != 1) {
          t.fail(what() + ": the checker's domain rejects an enumerated instance");
          continue;
        }
        std::vector<std::size_t> bad;  // cells whose ok is 0
        for (std::size_t g = 0; g < N * d; ++g)
          if (out[1 + g] != 1) bad.push_back(g);
        const bool e = !fail.has_value(), s = bad.empty();
        t.note(e, s, what);
        t.rejected += !e;
        if (variant < 0 && !e) t.fail(what() + ": the enumerating check rejects the right answer (" + fail->message + ")");
        if (variant >= 0 && !e) {  // the changed cell, and only it, is the wrong one for both
          const std::string cell_name = std::string("output[") + std::to_string(ci) + "][" + std::to_string(cj) + "]";
          if (fail->message.rfind(cell_name, 0) != 0) t.fail(what() + ": the enumerating check names another cell: " + fail->message);
          if (bad != std::vector<std::size_t>{cell}) t.fail(what() + ": the checker's failing cells are not exactly the changed one");
        }
      }
    }
  }
}

std::vector<PrimCase> primitive_cases() {
  return {
      {"identity", {{"N", "3"}, {"d", "2"}}},
      {"identity", {{"N", "5"}, {"d", "3"}}, 150},
      {"shift_down", {{"N", "3"}, {"d", "2"}, {"s", "1"}}},
      {"shift_down", {{"N", "5"}, {"d", "1"}, {"s", "0"}}},
      {"shift_down", {{"N", "6"}, {"d", "2"}, {"s", "3"}}, 150},
      {"shift_up", {{"N", "3"}, {"d", "2"}, {"s", "1"}}},
      {"shift_up", {{"N", "6"}, {"d", "2"}, {"s", "4"}}, 150},
      {"cumsum", {{"N", "3"}, {"d", "2"}}},
      {"cumsum", {{"N", "6"}, {"d", "1"}}},
      {"cumsum", {{"N", "8"}, {"d", "2"}}, 150},
      {"add", {{"N", "3"}, {"d", "2"}}},
      {"add", {{"N", "1"}, {"d", "6"}}},
      {"add", {{"N", "4"}, {"d", "4"}}, 150},
      {"hadamard", {{"N", "3"}, {"d", "2"}}},
      {"hadamard", {{"N", "1"}, {"d", "6"}}},
      {"hadamard", {{"N", "4"}, {"d", "4"}, {"range", "5"}}, 150},
      {"remember", {{"N", "5"}, {"d", "1"}, {"s", "1"}, {"t", "4"}, {"f", "cumsum"}}},
      {"remember", {{"N", "5"}, {"d", "1"}, {"s", "1"}, {"t", "5"}, {"f", "shift_down"}, {"fs", "2"}}},
      {"remember", {{"N", "3"}, {"d", "2"}, {"s", "0"}, {"t", "2"}, {"f", "identity"}}},
      {"remember", {{"N", "8"}, {"d", "2"}, {"s", "2"}, {"t", "7"}, {"f", "shift_down"}, {"fs", "1"}}, 150},
      {"remember", {{"N", "8"}, {"d", "2"}}, 150},  // the defaults: s=2 t=6 f=cumsum
  };
}

// ---------------------------------------------------------------------------------------------
// SD.

struct SdCase {
  std::map<std::string, std::string> given;
  std::uint64_t samples = 0;  // 0: exhaustive
};

void sd_differential(const SdCase& sc, Tally& t) {
  const Task& tk = find_task("sd");
  const Params p = Params::parse(tk.params, sc.given);
  const bool jrt = p.s("prompt") == "jrt";
  const std::size_t copies = jrt ? 2 : 1;
  const unsigned n = static_cast<unsigned>(p.u("n"));
  DomainOptions o;
  o.threads = 1;
  if (sc.samples) o.samples = sc.samples;
  else o.force_exhaustive = true;
  const sdc::SdDomain dom = sdc::make_sd_domain(p, o);
  REQUIRE(dom.exhaustive == (sc.samples == 0));
  const std::string head = "sd " + given_text(sc.given) + (sc.samples ? " sampled" : " exhaustive");

  // The checker of verify --program --task sd --method sat, one per prompt length (its groups are
  // per block: a block's checker is the full checker's part for that length).
  SdSpec spec = sd_spec(p, jrt, false, copies);
  struct Block {
    ref::SdBlockSpec s;
    ref::Checker ch;
    std::unique_ptr<circuits::Evaluator<RingI64>> ev;
    Matrix<std::size_t> u_at, y_at;  // positions of u[r][j] and got:y[p][j] among the checker's inputs
    std::size_t fails_at = 0;
    std::map<std::size_t, std::size_t> case_of;  // separator row -> the case output that says "in the domain, separator there"
  };
  std::map<std::size_t, Block> blocks;
  for (ref::SdBlockSpec s : spec.blocks) {
    s.fails = true;  // as sat_program_problem sets it
    Block& b = blocks[s.N];
    b.s = s;
    b.ch = ref::sd_checker({s});
    b.ev = std::make_unique<circuits::Evaluator<RingI64>>(RingI64{}, b.ch.circuit);
    std::map<std::string, std::size_t> at;
    for (std::size_t k = 0; k < b.ch.circuit.num_inputs(); ++k) at[b.ch.circuit.input_name(k)] = k;
    b.u_at = Matrix<std::size_t>(s.N, n + 1);
    b.y_at = Matrix<std::size_t>(s.out_rows, n + 1);
    for (std::size_t r = 0; r < s.N; ++r)
      for (unsigned j = 0; j <= n; ++j) b.u_at(r, j) = at.at(s.prefix + "u[" + std::to_string(r) + "][" + std::to_string(j) + "]");
    for (std::size_t r = 0; r < s.out_rows; ++r)
      for (unsigned j = 0; j <= n; ++j) b.y_at(r, j) = at.at("got:" + s.prefix + "y[" + std::to_string(r) + "][" + std::to_string(j) + "]");
    b.fails_at = at.at("got:" + s.prefix + "fails");
    REQUIRE(at.size() == (s.N + s.out_rows) * (n + 1) + 1);
    for (const auto& c : b.ch.cases) {
      const std::string& name = b.ch.circuit.outputs()[c.output].name;
      b.case_of[std::stoul(name.substr(name.rfind('=') + 1))] = c.output;
    }
  }

  // Variants: -3 the program stops with an error (no answer), -2 the right answer with every common
  // element flagged twice (at its A row of the first copy too), -1 the right answer (each common
  // element flagged once, at its B row of the last copy), v >= 0 the right answer with answer bit v
  // flipped (row v / (n+1), column v % (n+1)).
  auto right = [copies, n](const sd::Instance& x, bool twice) {
    const std::size_t N = x.A.size() + x.B.size() + 1;
    Matrix<std::int64_t> y(copies * N, n + 1, 0);
    const std::vector<std::uint32_t> common = sd::intersection(x);
    auto put = [&](std::size_t row, std::uint32_t e) {
      for (unsigned b = 0; b < n; ++b) y(row, b) = (e >> b) & 1;
      y(row, n) = 1;
    };
    for (std::size_t r = 0; r < x.B.size(); ++r)
      if (std::count(common.begin(), common.end(), x.B[r])) put((copies - 1) * N + x.A.size() + 1 + r, x.B[r]);
    if (twice)
      for (std::size_t r = 0; r < x.A.size(); ++r)
        if (std::count(common.begin(), common.end(), x.A[r])) put(r, x.A[r]);
    return y;
  };
  std::size_t max_rows = 0;
  for (const auto& [N, b] : blocks) max_rows = std::max(max_rows, copies * N);
  for (long variant = -3; variant < static_cast<long>(max_rows * (n + 1)); ++variant) {
    const bool fails = variant == -3;
    auto seen = std::make_shared<std::optional<Matrix<std::int64_t>>>();
    auto answer = [variant, right, n](const sd::Instance& x) {
      Matrix<std::int64_t> y = right(x, variant == -2);
      if (variant >= 0) {
        const std::size_t row = static_cast<std::size_t>(variant) / (n + 1), col = static_cast<std::size_t>(variant) % (n + 1);
        if (row >= y.rows()) return std::optional<Matrix<std::int64_t>>{};  // this prompt length has no such row
        y(row, col) ^= 1;
      }
      return std::optional<Matrix<std::int64_t>>(y);
    };
    // The task's check of a circuit or model file (verify --circuit/--model FILE --task sd).
    TaskArtifact a;
    a.where = "test";
    auto at_k = std::make_shared<sd::Instance>();
    a.eval = [seen, answer, at_k](const Matrix<std::int64_t>& u) {
      if (!*seen) *seen = u;
      const std::optional<Matrix<std::int64_t>> y = answer(*at_k);
      if (!y) throw std::logic_error("no such row");
      return map_matrix(*y, [](std::int64_t v) { return Int(v); });
    };
    const Check ck = tk.check(p, a, o);
    REQUIRE(ck.instances == dom.count);
    for (std::uint64_t k = 0; k < dom.count; ++k) {
      const sd::Instance x = dom.instance(k);
      const std::optional<Matrix<std::int64_t>> y = answer(x);
      if (!y) continue;
      const std::size_t N = x.A.size() + x.B.size() + 1;
      auto what = [&] {
        return head + " instance " + std::to_string(k) + " " +
               (variant == -3   ? std::string("a program error (no answer)")
                : variant == -2 ? std::string("right answer, common elements flagged twice")
                : variant == -1 ? std::string("right answer")
                                : "y[" + std::to_string(variant / (n + 1)) + "][" + std::to_string(variant % (n + 1)) + "] flipped");
      };
      // Judge 1: the program check's rule (program_failure): an error is a failure; else the
      // flagged rows read by sdc::decode_flags must give exactly sd::intersection(x).
      const std::vector<std::uint32_t> want = sd::intersection(x);
      const sdc::FlagAnswer got = sdc::decode_flags(*y, n);
      const bool e_program = !fails && got.common == want && got.intersects == !want.empty();
      // Judge 2: the task's check of a file (no `fails` there: a file always answers).
      bool e_file = e_program;
      if (!fails) {
        *at_k = x;
        seen->reset();
        const std::optional<Failure> f = ck.run(k);
        if (!seen->has_value()) throw std::logic_error("run(k) did not evaluate the artifact");
        if (!(**seen == sd::repeat_prompt(sd::encode(x), copies))) t.fail(what() + ": the task's check ran another input");
        e_file = !f.has_value();
        if (e_file != e_program) t.fail(what() + ": the file check and the program check disagree");
      }
      // The SAT checker: its inputs are u's bits (rows of the first copy), the answer bits, `fails`.
      Block& b = blocks.at(N);
      std::vector<std::int64_t> in(b.ch.circuit.num_inputs(), 0);
      const Matrix<std::int64_t> u = sd::encode(x);
      if (y->rows() != b.y_at.rows()) throw std::logic_error("an answer of another length than the checker reads");
      for (std::size_t r = 0; r < N; ++r)
        for (unsigned j = 0; j <= n; ++j) in[b.u_at(r, j)] = u(r, j);
      for (std::size_t r = 0; r < y->rows(); ++r)
        for (unsigned j = 0; j <= n; ++j) in[b.y_at(r, j)] = (*y)(r, j);
      in[b.fails_at] = fails ? 1 : 0;
      const std::vector<std::int64_t> out = (*b.ev)(in);
      if (out[0] != 1 || out.at(b.case_of.at(x.A.size())) != 1) {
        t.fail(what() + ": the checker's domain misses an enumerated instance");
        continue;
      }
      bool s = true;
      for (std::size_t g = 1; g <= b.ch.groups.size(); ++g) s = s && out[g] == 1;
      t.note(e_program, s, what);
      t.rejected += !e_program;
      t.accepted_changes += variant >= 0 && e_program;
      if (variant == -1 || variant == -2) {
        if (!e_program) t.fail(what() + ": the enumerating check rejects a right answer");
      }
    }
  }
}

}  // namespace

TEST_CASE("task differential: the primitives: the SAT reference and the enumerating check judge every cell the same") {
  std::set<std::string> covered;
  for (const PrimCase& pc : primitive_cases()) {
    Tally t;
    primitive_differential(pc, t);
    INFO(t.first);
    CHECK(t.disagree == 0);
    CHECK(t.compared > 100);
    CHECK(t.rejected > 0);
    covered.insert(pc.task);
  }
  for (const Task& tk : primitive_tasks()) CHECK_MESSAGE(covered.count(tk.name), tk.name << " has no differential case");
}

TEST_CASE("task differential: sd: the SAT reference and the enumerating checks judge every answer bit the same") {
  Tally t;
  for (const SdCase& sc : std::vector<SdCase>{
           {{{"n", "2"}, {"domain", "subsets"}}},                                   // N = 1 .. 9, the JRT prompt
           {{{"n", "2"}, {"domain", "orders"}, {"kmax", "2"}, {"prompt", "plain"}}},  // every order, u once
           {{{"n", "3"}, {"domain", "sized"}, {"a", "2"}, {"b", "3"}}},              // a file's domain
           // Seeded, beyond: (1 + 16 + 240 + 3360)^2 > 2^22 pairs.
           {{{"n", "4"}, {"domain", "orders"}, {"kmax", "3"}}, 150},
           // Seeded, beyond: C(32,3)^2 > 2^22 pairs. sd::sample_sized_pair sorts its sets (2026-12-07):
           // every sample lies in the increasing sets the SAT blocks take.
           {{{"n", "5"}, {"domain", "sized"}, {"a", "3"}, {"b", "3"}}, 150},
       })
    sd_differential(sc, t);
  INFO(t.first);
  CHECK(t.disagree == 0);
  CHECK(t.compared > 10000);
  CHECK(t.rejected > 0);
  CHECK(t.accepted_changes > 0);  // some changes keep the answer right (an unflagged row's bits)
}

TEST_CASE("task differential: every task with a sat method has a differential test") {
  // Where each one lives: here (the primitives, sd), test_mqar_cells.cpp (mqar), test_task_cells.cpp (sort, compare).
  std::set<std::string> tested = {"mqar", "sd", "sort", "compare"};
  for (const Task& tk : primitive_tasks()) tested.insert(tk.name);
  std::size_t with_sat = 0;
  for (const Task& tk : task_registry())
    for (const auto& [kind, methods] : tk.methods)
      if (std::count(methods.begin(), methods.end(), "sat")) {
        ++with_sat;
        CHECK_MESSAGE(tested.count(tk.name), "task " << tk.name << " (" << kind << ") has a sat method and no differential test");
      }
  CHECK(with_sat >= 11);
}
