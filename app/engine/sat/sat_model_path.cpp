#include "app/engine/sat/sat_model_path.h"

#include <algorithm>
#include <chrono>
#include <optional>

#include "app/engine/sat/sat_problem.h"
#include "app/engine/sat/sat_layer_bounds.h"
#include "app/engine/sat/sat_primitive_ref.h"
#include "circuits/sat/int_miter.h"
#include "circuits/sat/model_bits.h"
#include "model/eval.h"
#include "tasks/mqar_domain.h"
#include "util/error.h"
#include "verify/model_check.h"
#include "verify/mqar_check.h"
#include "verify/mqar_task.h"

namespace cz {

namespace {

namespace sat = circuits::sat;
namespace ref = circuits::reference;
using Eval = std::function<Matrix<Int>(const Matrix<std::int64_t>&)>;

// Words wider than this are refused (exit 2, with the interval that needed them): a bit-blast that
// large would not be solved anyway.
constexpr std::size_t kMaxWidth = 1024;

// The model side of every problem: the artifact circuit (refusals name `where`); with bounds,
// each layer narrowed to its proved bounds (sat_layer_bounds.h).
sat::IntArtifact model_artifact_circuit(const sat::IntInputs& in, const Model& m, const std::string& where,
                                        const sat::LayerBounds* bounds = nullptr, std::size_t max_width = kMaxWidth) {
  sat::require_integral(m, where);
  try {
    return sat::artifact_circuit(
        in, [&m, bounds](sat::WordBuilder& wb, const Matrix<sat::Word>& u) { return sat::model_words(wb, m, u, bounds); }, max_width);
  } catch (const sat::TooWide& e) {
    throw InputError(std::string("the model cannot be bit-blasted: ") + e.what(), where);
  }
}

// Words wider than this after interval arithmetic send an MQAR model through the per-layer bound
// proofs first (the values of these models are bits; a word this wide means the intervals exploded).
constexpr std::size_t kBoundsAbove = 64;

void add_sizes(SatProblem& pr, const sat::IntArtifact& a) {
  pr.notes.push_back("bit-blast: " + std::to_string(a.circuit.size()) + " model gates, widest word " + std::to_string(a.widest) +
                     " bits (two's complement, each value's width from its certified interval: no overflow on the domain)");
}

// An integer map task (a primitive, a prefix map) on every matrix of the box [-range, range]^(N×d).
// cells: the output cells checked (all when empty); confirm compares the same cells.
SatProblem map_problem(const std::string& task, const Params& p, const Model& m, Eval eval, std::int64_t range,
                       const std::string& where) {
  const std::size_t N = m.N, d = m.d;
  const sat::IntInputs in = sat::IntInputs::box(N, d, Int(-range), Int(range));
  SatProblem pr;
  sat::IntArtifact art = model_artifact_circuit(in, m, where);
  pr.checker = sat::words_checker(
      in, art,
      [&](sat::WordBuilder& wb, const Matrix<sat::Word>& u) { return ref::integer_map(task, p, sat::BitRing{&wb}, u); }, {},
      kMaxWidth);
  add_sizes(pr, art);
  pr.artifact = std::make_shared<const circuits::Circuit>(std::move(art.circuit));
  pr.instances = sat_power(Int(2 * range + 1), N * d);
  pr.domain_text = "every " + std::to_string(N) + "×" + std::to_string(d) + " integer matrix u with entries in [" +
                   std::to_string(-range) + ", " + std::to_string(range) + "] (-p range): " + std::to_string(2 * range + 1) + "^" +
                   std::to_string(N * d) + " = " + pr.instances.str() + " instances; y = " + task +
                   "(u) compared entry by entry, exactly (src/tasks/primitive_semantics.h)";
  auto fail_of = [task, p, eval](const Matrix<std::int64_t>& u) -> std::optional<Failure> {
    const Matrix<Int> want = ref::integer_map(task, p, RingZ{}, map_matrix(u, [](std::int64_t x) { return Int(x); }));
    return first_mismatch(u, want, eval(u), [](const Matrix<Int>& m) { return int_matrix_json(m); });
  };
  pr.confirm = [in, fail_of](const std::vector<int>& bits) -> std::optional<Failure> {
    const Matrix<std::int64_t> u = in.decode(bits);
    if (!fail_of(u)) return std::nullopt;
    // Shrunk toward 0 as the enumerating check shrinks (entries stay in the box).
    const Matrix<std::int64_t> s = shrink_matrix(u, [&](const Matrix<std::int64_t>& v) { return fail_of(v).has_value(); });
    Failure f = *fail_of(s);
    f.instance = {{"from", "the SAT model"}, {"sat_input", int_matrix_json(u)}, {"shrunk", true}};
    return f;
  };
  return pr;
}

// MQAR triples with the codec's rows: every cell of the N×d output must be the 0/1 expected bit.
SatProblem mqar_problem(const mqar::Codec& codec, std::size_t n, const Model& m, Eval eval, const std::string& where,
                        double bounds_timeout_s) {
  const std::size_t N = 3 * n;
  if (m.N != N || m.d != codec.d)
    throw InputError("the model is " + std::to_string(m.N) + "×" + std::to_string(m.d) + "; MQAR triples need " + std::to_string(N) +
                         "×" + std::to_string(codec.d),
                     where);
  const sat::IntInputs in = sat::IntInputs::bits(N, codec.d, [](std::size_t, std::size_t) { return true; });
  SatProblem pr;
  std::optional<sat::IntArtifact> plain;
  try {
    plain = model_artifact_circuit(in, m, where, nullptr, kBoundsAbove);  // stops at the first word past 64 bits
  } catch (const InputError&) {
  }
  sat::IntArtifact art;
  std::string bounds_note;
  if (plain) {
    art = std::move(*plain);
  } else {
    // Intervals exploded: prove per-layer bounds from 256 seeded domain instances, then narrow.
    std::vector<Matrix<std::int64_t>> samples;
    const mqar::Domain dom = mqar::triples_sampled(n, codec.c, 256, 1);
    for (std::uint64_t k = 0; k < dom.count; ++k) samples.push_back(mqar::encode(codec, dom.instance(k)));
    const LayerBoundsResult lb = prove_layer_bounds(m, in, ref::mqar_checker(sat_mqar_spec(codec, n), {"y[0][0]"}, where), samples,
                                                    bounds_timeout_s, kMaxWidth);
    art = model_artifact_circuit(in, m, where, &lb.bounds);
    bounds_note = lb.note();
  }
  pr.checker = sat::mqar_words_checker(in, art, sat_mqar_spec(codec, n));
  add_sizes(pr, art);
  if (!bounds_note.empty()) pr.notes.push_back(bounds_note);
  pr.artifact = std::make_shared<const circuits::Circuit>(std::move(art.circuit));
  pr.instances = sat_triples_instances(n, codec.c);
  pr.domain_text = sat_triples_text(n, codec.c, codec, pr.instances) + "; the whole N×d integer output compared";
  pr.confirm = [codec, n, eval](const std::vector<int>& bits) {
    auto xs = std::make_shared<const std::vector<mqar::Instance>>(1, sat_mqar_instance(codec, n, bits));
    MqarSolver sol;
    sol.codec = codec;
    sol.run = [eval, codec](const mqar::Instance& x) {
      MqarRun r;
      r.output = eval(mqar::encode(codec, x));
      return r;
    };
    return sat_engine_failure(mqar_check(mqar::from_list(xs, "the SAT model's instance"), sol), 0);
  };
  return pr;
}

// circuit/to-model source=compare: x in row 0, y in row 1 (D bits each, other entries 0); row 1
// holds min(x, y)'s bits, [x < y], [x = y] (the construction's stated semantics), nothing else read.
SatProblem compare_model_problem(const Construction& c, const Params& p, const Built& bt) {
  const Model& m = *bt.model;
  const std::size_t D = p.u("D");
  const sat::IntInputs in = sat::IntInputs::bits(m.N, m.d, [D](std::size_t i, std::size_t j) { return i < 2 && j < D; });
  SatProblem pr;
  sat::IntArtifact art = model_artifact_circuit(in, m, c.name);
  std::vector<std::pair<std::size_t, std::size_t>> cells;
  for (std::size_t j = 0; j < D + 2; ++j) cells.push_back({1, j});
  pr.checker = sat::words_checker(
      in, art,
      [D](sat::WordBuilder& wb, const Matrix<sat::Word>& u) {
        namespace g = circuits::gadgets;
        circuits::Builder& b = wb.builder();
        sat::Word x = wb.constant(Int(0)), y = wb.constant(Int(0));
        for (std::size_t k = 0; k < D; ++k) {  // x = Σ 2^k u[0][k], y likewise
          x = wb.add(x, wb.mul(wb.constant(sat_power(Int(2), k)), u(0, k)));
          y = wb.add(y, wb.mul(wb.constant(sat_power(Int(2), k)), u(1, k)));
        }
        const sat::Word diff = wb.sub(x, y);
        const circuits::Wire lt = diff.is_const() ? (diff.lo.sign() < 0 ? b.one() : b.zero()) : diff.bits.back();
        Matrix<sat::Word> want(u.rows(), u.cols(), wb.constant(Int(0)));
        for (std::size_t k = 0; k < D; ++k) want(1, k) = wb.from_bit(g::mux(b, lt, u(0, k).bits[0], u(1, k).bits[0]));
        want(1, D) = wb.from_bit(lt);
        want(1, D + 1) = wb.from_bit(wb.equal(x, y));
        return want;
      },
      cells, kMaxWidth);
  add_sizes(pr, art);
  pr.artifact = std::make_shared<const circuits::Circuit>(std::move(art.circuit));
  pr.instances = sat_power(Int(2), 2 * D);
  pr.domain_text = "every pair (x, y) of " + std::to_string(D) + "-bit words in rows 0 and 1 (other entries 0): 2^" +
                   std::to_string(2 * D) + " = " + pr.instances.str() + " inputs; row 1's min bits, [x<y], [x=y] compared";
  pr.confirm = [&c, p, bt, in, D](const std::vector<int>& bits) {
    const Matrix<std::int64_t> u = in.decode(bits);
    std::uint64_t idx = 0;  // the construction's own exhaustive check indexes x | y << D
    for (std::size_t k = 0; k < D; ++k) idx |= static_cast<std::uint64_t>(u(0, k)) << k | static_cast<std::uint64_t>(u(1, k)) << (D + k);
    return sat_engine_failure(c.check(p, bt, DomainOptions{}), idx);
  };
  return pr;
}

Eval evaluator(const Model& m) {
  auto ev = std::make_shared<IntegerEvaluator>(m);
  return [ev](const Matrix<std::int64_t>& u) { return (*ev)(u); };
}

bool starts_with(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

nlohmann::json head_json(const std::string& name, const Params& p, const Model& m) {
  return {{"construction", name},
          {"params", p.to_json()},
          {"model", {{"ring", m.ring}, {"N", m.N}, {"d", m.d}, {"layers", m.layers.size()}, {"inner_N", m.inner_N},
                     {"inner_d", m.inner_d}, {"conv", to_string(m.conv)}}}};
}

SatOutcome finish(SatProblem& pr, const SatOptions& o, nlohmann::json head, const Built* bt) {
  if (bt) pr.notes.insert(pr.notes.end(), bt->notes.begin(), bt->notes.end());
  head["circuit"] = nullptr;
  SatOutcome out = solve_sat_problem(pr, o, std::move(head));
  if (bt) out.claims = bt->claims;
  return out;
}

}  // namespace

bool sat_model_covers(const Construction& c, const Params& p, const Built& bt) {
  (void)p;
  return bt.model && (c.task == "mqar" || ref::is_integer_map(c.task));
}

// One integer model for the whole domain, against its task's reference: mqar (triples; the
// codec from the construction's `encoding` parameter, one-hot without one) or an integer map.
SatOutcome run_model_sat(const Construction& c, const Params& p, const Built& bt, const SatOptions& o) {
  const Model& m = *bt.model;
  SatProblem pr;
  auto has = [&](const char* k) { return std::any_of(c.params.begin(), c.params.end(), [&](const ParamSpec& s) { return s.name == k; }); };
  if (c.task == "mqar") {
    if (has("layout") && p.s("layout") != "triples")
      throw InputError(c.name + " is not provable by --method sat with layout=" + p.s("layout") + ": its query mask is read from each "
                       "instance's labelled rows (a data-dependent model); use layout=triples",
                       "--method sat");
    const mqar::Encoding enc = !has("encoding") || p.s("encoding") == "onehot" ? mqar::Encoding::OneHot
                               : p.s("encoding") == "binary"                    ? mqar::Encoding::Binary
                                                                                : mqar::Encoding::PHot;
    const std::size_t n = has("layout") ? mqar::task_shape(p).n : p.u("n");
    const std::size_t cv = has("layout") ? mqar::task_shape(p).c : p.u("c");
    pr = mqar_problem(mqar::make_codec(enc, cv, has("p") ? p.u("p") : 1), n, m, evaluator(m), c.name, o.timeout_s);
  } else {
    pr = map_problem(c.task, p, m, evaluator(m), p.i("range"), c.name);
  }
  return finish(pr, o, head_json(c.name, p, m), &bt);
}

// Route "sat:to-model" (sat_routes.h): a circuit compiled into a model, against the map its
// `source` parameter names (compare: min, [x<y], [x=y]; the scans: their integer maps).
SatOutcome run_to_model_sat(const Construction& c, const Params& p, const Built& bt, const SatOptions& o) {
  if (!bt.model) throw std::logic_error("run_to_model_sat: no model");
  const Model& m = *bt.model;
  SatProblem pr = p.s("source") == "compare" ? compare_model_problem(c, p, bt) : map_problem(p.s("source"), p, m, evaluator(m), p.i("range"), c.name);
  return finish(pr, o, head_json(c.name, p, m), &bt);
}

SatOutcome run_model_task_sat(const Task& task, std::map<std::string, std::string> given, const ByoArtifact& a,
                              const SatOptions& o) {
  const Model& m = *a.model;
  const bool prim = ref::is_integer_map(task.name) && !starts_with(task.name, "prefix");
  if (!prim && task.name != "mqar")
    throw InputError("--method sat checks model files against a primitive task or mqar; task " + task.name +
                         " has no integer reference checker yet",
                     "--method sat");
  if (task.fill_from_artifact) task.fill_from_artifact(given, a.fn.N, a.fn.d);
  const Params p = Params::parse(task.params, given);
  // The same shape rule as the enumerating check (app/engine/byo/byo.cpp run_task_check).
  const TaskShapeNeed need = task.shape(p);
  if (a.fn.N != need.N || a.fn.d != need.d || a.fn.out_N != need.out_N || a.fn.out_d != need.out_d)
    throw InputError("the model maps " + std::to_string(a.fn.N) + "×" + std::to_string(a.fn.d) + " to " + std::to_string(a.fn.out_N) +
                         "×" + std::to_string(a.fn.out_d) + "; task " + task.name + " needs " + need.text,
                     a.file);
  SatProblem pr;
  if (prim) {
    pr = map_problem(task.name, p, m, a.fn.eval, p.i("range"), a.file);
  } else {
    const mqar::TaskShape s = mqar::task_shape(p);
    if (s.layout != mqar::Layout::Triples) throw InputError("--method sat covers the triples layout", "-p layout");
    pr = mqar_problem(mqar::task_codec(p, s), s.n, m, a.fn.eval, a.file, o.timeout_s);
  }
  nlohmann::json head = head_json(a.file, checked_params(task, p), m);
  head["task"] = task.name;
  head["artifact"] = {{"kind", a.kind}, {"file", a.file}, {"format", a.format}};
  return finish(pr, o, head, nullptr);
}

}  // namespace cz
