#include "app/engine/sat/sat_reductions.h"

#include "circuits/reference/eq_ref.h"
#include "circuits/reference/gar_ref.h"
#include "circuits/sat/bitvec.h"
#include "circuits/stats.h"
#include "constructions/eq/via_mqar_circuit.h"
#include "constructions/gar/via_sd.h"
#include "constructions/mqar/solvers.h"
#include "constructions/mqar/sparse_model.h"
#include "util/error.h"

namespace cz {

namespace ref = circuits::reference;

namespace {

// Gates the circuits may take before the bit-blast is refused (exit 2).
constexpr std::uint64_t kMaxOracleCalls = 4096;

std::uint32_t word_at(const std::vector<int>& bits, std::size_t at, unsigned w) {
  std::uint32_t x = 0;
  for (unsigned k = 0; k < w; ++k)
    if (bits.at(at + k)) x |= std::uint32_t(1) << k;
  return x;
}

}  // namespace

SatProblem sat_eq_problem(std::uint32_t c, const Model& solver_model, bool any, EqFailure failure) {
  eqc::EqCircuit ec;
  try {
    ec = eqc::eq_via_mqar_circuit(c, solver_model, any);
  } catch (const circuits::sat::TooWide& e) {
    throw InputError(std::string("the MQAR model cannot be bit-blasted: ") + e.what(), "the composed EQ circuit");
  }
  SatProblem pr;
  pr.artifact = std::make_shared<const circuits::Circuit>(std::move(ec.circuit));
  pr.checker = ref::eq_checker(c);
  pr.instances = Int(static_cast<std::int64_t>(c)) * Int(static_cast<std::int64_t>(c));
  const unsigned w = ref::token_width(c);
  const std::string cs = std::to_string(c);
  pr.domain_text = "every pair (u1, u2) in [0, " + cs + ")^2 (" + pr.instances.str() + " instances), each token a " + std::to_string(w) +
                   "-bit word (LSB first) one-hot encoded into the JRT prompt (u1,1,u1), (u2,1,u2), (u1,1,u1), (u2,1,u2) (12×" + cs +
                   "), the MQAR model evaluated exactly on it, and EQ read " +
                   (any ? std::string("as 'some query row 5, 8, 11 is nonzero' (decode=any)")
                        : std::string("as 'row 5 (query 1) is exactly the one-hot of token 1' (decode=q1)")) +
                   "; compared with [u1 = u2]";
  pr.notes.push_back("composition: binary tokens -> one-hot JRT prompt (Prop G.8) -> the MQAR model bit-blasted (" +
                     std::to_string(solver_model.layers.size()) + " layers, widest word " + std::to_string(ec.widest) +
                     " bits, two's complement from certified intervals) -> decode; " + std::to_string(pr.artifact->size()) + " gates");
  pr.confirm = [c, w, failure](const std::vector<int>& bits) -> std::optional<Failure> {
    const eq::Instance x{c, word_at(bits, 0, w), word_at(bits, w, w)};
    if (x.u1 >= c || x.u2 >= c) return std::nullopt;
    std::optional<Failure> f = failure(x);
    if (f) f->instance = {{"c", c}, {"u1", x.u1}, {"u2", x.u2}, {"from", "the SAT model"}};
    return f;
  };
  return pr;
}

SatProblem sat_gar_problem(std::uint32_t c, std::size_t nk, std::size_t m, const garc::SdOracleWires& oracle,
                           const std::string& oracle_text, GarFailure failure) {
  if (nk > c) throw InputError("need nk <= c (distinct keys)", "-p nk=" + std::to_string(nk));
  const std::uint64_t calls = garc::gar_via_sd_calls(c, nk, m);
  if (calls > kMaxOracleCalls)
    throw InputError("the circuit would build " + (calls == ~std::uint64_t(0) ? std::string("over 2^40") : std::to_string(calls)) +
                         " SD oracle calls (code_bits(c) · 2^nk · 2^(m-1): one per call, key subset and query pattern; limit " +
                         std::to_string(kMaxOracleCalls) + "): smaller nk or m",
                     "--method sat");
  SatProblem pr;
  pr.artifact = std::make_shared<const circuits::Circuit>(garc::gar_via_sd_circuit(c, nk, m, oracle));
  const unsigned d = garc::code_bits(c), w = ref::token_width(c);
  pr.checker = ref::gar_checker({c, nk, m}, d);
  Int count(1);
  const Int C(static_cast<std::int64_t>(c));
  for (std::size_t j = 0; j < nk; ++j) count *= Int(static_cast<std::int64_t>(c - j)) * C;
  for (std::size_t i = 0; i < m; ++i) count *= C;
  pr.instances = count;
  const std::string cs = std::to_string(c);
  pr.domain_text = "every GAR instance with " + std::to_string(nk) + " distinct keys (in every order), values in [0, " + cs + "), " +
                   std::to_string(m) + " queries in [0, " + cs + "): P(c,nk)·c^nk·c^m = " + count.str() +
                   " instances (the domain `verify --exhaustive` enumerates), each token a " + std::to_string(w) +
                   "-bit word (LSB first); per query, found and (when found) the value compared with the map lookup";
  pr.notes.push_back("composition: Prop G.26's " + std::to_string(d) + " SD calls (A = the queries' first occurrences, B = K_l), " +
                     "each call built per query pattern and key subset (" + std::to_string(calls) + " oracle circuits: " + oracle_text +
                     "), decoded as code − 1; " + std::to_string(pr.artifact->size()) + " gates");
  pr.confirm = [c, nk, m, w, failure](const std::vector<int>& bits) -> std::optional<Failure> {
    gar::Instance x{c, {}, {}, {}};
    std::size_t at = 0;
    for (auto* v : {&x.keys, &x.values}) {
      for (std::size_t j = 0; j < nk; ++j, at += w) v->push_back(word_at(bits, at, w));
    }
    for (std::size_t i = 0; i < m; ++i, at += w) x.queries.push_back(word_at(bits, at, w));
    for (const auto* v : {&x.keys, &x.values, &x.queries})
      for (auto t : *v)
        if (t >= c) return std::nullopt;
    for (std::size_t j = 0; j < nk; ++j)
      for (std::size_t t = j + 1; t < nk; ++t)
        if (x.keys[j] == x.keys[t]) return std::nullopt;
    std::optional<Failure> f = failure(x);
    if (f) {
      f->instance = gar::to_json(x);
      f->instance["from"] = "the SAT model";
    }
    return f;
  };
  return pr;
}

namespace {

// Both compositions end alike: the construction's notes, the composed circuit's stats, its claims.
SatOutcome solve_reduction(SatProblem& pr, const Construction& c, const Params& p, const Built& bt, const SatOptions& o) {
  pr.notes.insert(pr.notes.end(), bt.notes.begin(), bt.notes.end());
  nlohmann::json head = sat_head_of(c.name, p, bt);
  head["circuit"] = circuits::to_json(circuits::compute_stats(*pr.artifact));
  SatOutcome out = solve_sat_problem(pr, o, head);
  out.claims = bt.claims;
  return out;
}

}  // namespace

bool sat_eq_via_mqar_covers(const Params& p) { return p.s("solver") == "attention"; }

SatOutcome run_eq_via_mqar_sat(const Construction& c, const Params& p, const Built& bt, const SatOptions& o) {
  SatProblem pr;
  {
    if (p.s("solver") != "attention")
      throw InputError(c.name + " with solver=reference is not provable by --method sat: its MQAR solver is the MQAR reference "
                       "itself (Alg. 9), no model to bit-blast (the default solver=attention is provable)",
                       "-p solver=" + p.s("solver"));
    const auto cc = static_cast<std::uint32_t>(p.u("c"));
    // The model the check runs: mqar/attention's one triples model for the 4-triple shape.
    mqar::TaskShape shape;
    shape.layout = mqar::Layout::Triples;
    shape.n = shape.K = 4;
    shape.N = 12;
    shape.c = cc;
    const Model m = to_model(mqarc::attention_model(mqarc::worst_case_instance(shape)));
    DomainOptions dopt;
    dopt.force_exhaustive = true;  // the check's instance k is the pair (k / c, k % c)
    auto chk = std::make_shared<const Check>(c.check(p, bt, dopt));
    pr = sat_eq_problem(cc, m, p.s("decode") == "any",
                        [chk, cc](const eq::Instance& x) { return sat_engine_failure(*chk, std::uint64_t(x.u1) * cc + x.u2); });
  }
  return solve_reduction(pr, c, p, bt, o);
}

bool sat_gar_via_sd_covers(const Params& p) { return p.s("oracle") != "based"; }

SatOutcome run_gar_via_sd_sat(const Construction& c, const Params& p, const Built& bt, const SatOptions& o) {
  SatProblem pr;
  {
    const std::string oracle = p.s("oracle");
    if (oracle == "based")
      throw InputError(c.name + " with oracle=based is not provable by --method sat here: the Based pipeline's kernels depend "
                       "on each call's instance (oracle=recurrent, the default, and oracle=reference are provable)",
                       "-p oracle=based");
    const auto cc = static_cast<std::uint32_t>(p.u("c"));
    const bool rec = oracle == "recurrent";
    const garc::SdOracle so = garc::oracle_of(p);
    pr = sat_gar_problem(cc, p.u("nk"), p.u("m"),
                         rec ? garc::alg3_oracle_wires(sdc::alg3_rules(sdc::Alg3Threshold::Fixed)) : garc::reference_oracle_wires(),
                         rec ? "JRT Alg. 3 (fixed threshold) unrolled on each call's JRT prompt" : "the plain intersection A ∩ B",
                         [so](const gar::Instance& x) { return garc::gar_via_sd_failure(so, x); });
  }
  return solve_reduction(pr, c, p, bt, o);
}

}  // namespace cz
