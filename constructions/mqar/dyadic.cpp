// mqar/dyadic: Zoology Algorithm 11 (MQAR via dyadic intervals and parallel binary search,
// H.7.4–H.7.6, Prop H.30) as an arithmetic circuit over 0/1 inputs (dyadic_circuit.h), verified
// bit-sliced against the Alg. 9 reference on every instance of the domain, and optionally compiled
// to a BaseConv model (circuits/circuit_to_model.h, the direction of Theorem H.21) and verified as
// a model.
//   variant=fixed  pbs-key-values with eq (17) corrected (spec Errata E1)             [holds]
//   variant=paper  pbs-key-values with eq (17) as published (index × sub-result, "0 = dead")
//   variant=merge  the merge-based block of spec §7.5 (same C array, near-linear per block)
//   prefix=lsb     dyadic prefixes read LSB-first (spec Errata E6)
//   artifact=model the circuit compiled to an (N, L, d, N', d') BaseConv model, checked through
//                  IntegerEvaluator on whole output matrices (mqar_check)
#include <chrono>
#include <cmath>

#include "circuits/builder.h"
#include "circuits/circuit_to_model.h"
#include "circuits/gadgets_compare.h"
#include "circuits/stats.h"
#include "constructions/mqar/common.h"
#include "constructions/mqar/dyadic_check.h"
#include "constructions/memory_estimate.h"
#include "util/error.h"
#include "verify/mqar_check.h"

namespace cz::mqarc {

namespace {

struct DyState {
  std::shared_ptr<const DyadicCircuit> dc;
  mqar::Codec codec;
  TaskShape shape;
};

std::vector<ParamSpec> dyadic_params() {
  return {
      with_aliases(int_param("n", 4, 1, 4096, "number of triples (a power of two; N = 3n)"), {"num_kv_pairs"}),
      with_aliases(int_param("c", 4, 2, 1 << 20, "vocabulary size (c >= n: keys are distinct)"), {"vocab_size"}),
      choice_param("encoding", "binary", {"binary", "onehot", "phot"}, "token encoding (docs/theory.md, \"Tasks, briefly\")"),
      only_when(int_param("p", 2, 1, 16, "phot: number of digits (c = base^p)"), "encoding=phot"),
      choice_param("variant", "fixed", {"fixed", "paper", "merge"},
                   "block search: pbs with eq (17) fixed (erratum E1, docs/theory.md) or as published, or the merge-based block (docs/theory.md, \"The merge block\")"),
      choice_param("prefix", "msb", {"msb", "lsb"}, "dyadic prefixes of bin(i) read MSB-first (correct) or LSB-first (erratum E6, docs/theory.md)"),
      choice_param("queries", "sorted", {"sorted", "each"},
                   "sort each block's queries (Alg. 11 line 11) or search each query alone (causal wiring; for "
                   "artifact=model)"),
      choice_param("artifact", "circuit", {"circuit", "model"},
                   "verify the circuit (bit-sliced) or the BaseConv model compiled from it (small N only)"),
  };
}

DyadicConfig config_of(const Params& p) {
  DyadicConfig cfg;
  cfg.n = p.u("n");
  const std::string& e = p.s("encoding");
  const mqar::Encoding enc = e == "binary" ? mqar::Encoding::Binary : e == "onehot" ? mqar::Encoding::OneHot : mqar::Encoding::PHot;
  cfg.codec = mqar::make_codec(enc, p.u("c"), p.u("p"));
  const std::string& v = p.s("variant");
  cfg.variant = v == "fixed" ? DyVariant::PbsFixed : v == "paper" ? DyVariant::PbsPaper : DyVariant::Merge;
  cfg.prefix = p.s("prefix") == "msb" ? DyPrefix::Msb : DyPrefix::Lsb;
  cfg.sort_queries = p.s("queries") == "sorted";
  if (!cfg.sort_queries && cfg.variant == DyVariant::Merge)
    throw InputError("queries=each searches each query with pbs (variant fixed or paper); the merge needs sorted queries",
                     "-p queries=each");
  // Binary rows cannot tell null from token 0, so the circuit also outputs a found bit (column d);
  // the compiled model keeps the N×d shape of the task and is compared on whole matrices.
  cfg.found_output = enc == mqar::Encoding::Binary && p.s("artifact") == "circuit";
  if (p.u("c") < cfg.n) throw InputError("distinct keys need c >= n", "-p c=" + p.s("c"));
  return cfg;
}

TaskShape shape_of(const DyadicConfig& cfg) {
  TaskShape s;
  s.layout = mqar::Layout::Triples;
  s.n = cfg.n;
  s.N = 3 * cfg.n;
  s.K = cfg.n;
  s.c = cfg.codec.c;
  return s;
}

// One w-bit comparator [x < y] on its own (Zoology Lemma H.32: size O(d), depth O(log d)).
circuits::CircuitStats comparator_stats(std::size_t w) {
  circuits::Builder b;
  auto x = circuits::gadgets::input_bits(b, "x", w), y = circuits::gadgets::input_bits(b, "y", w);
  b.output("lt", circuits::gadgets::less_than(b, x, y));
  return circuits::compute_stats(std::move(b).finish(), {false, false});
}

double lg2(double x) { return std::log2(std::max(2.0, x)); }

void add_claims(Built& bt, const DyadicCircuit& dc, const circuits::CircuitStats& st, DyVariant v) {
  const double N = static_cast<double>(dc.N), d = static_cast<double>(dc.d), n = static_cast<double>(dc.n);
  const double m = std::max(1.0, n / 2);
  // log N is taken as log2(N/3) = log2 n, as the Prop H.30 proof itself writes it (log(N/3)); with
  // log2(3n) the shape's additive 1.58 bends the small-n end of every log-log fit.
  const double L = lg2(N / 3);
  const char* h30 = "Zoology Prop H.30, eq (13)";
  bt.claims.push_back(shape_claim("size", "O(N d log^2 N)", N * d * L * L, h30, st.size,
                                  "work = size (live + and × gates); Batcher merges, not AKS; log N = log2(N/3)"));
  bt.claims.push_back(shape_claim("depth", "O(d log^2 N)", d * L * L, "Zoology Prop H.30", st.depth, "log N = log2(N/3)"));
  const auto cs = comparator_stats(dc.word_bits);
  const char* h32 = "Zoology Lemma H.32 (one comparator of two key words)";
  const std::string w = "on " + std::to_string(dc.word_bits) + "-bit words (gadgets::less_than, prefix tree)";
  bt.claims.push_back(shape_claim("size", "O(d)", static_cast<double>(dc.word_bits), h32, cs.size, w));
  bt.claims.push_back(shape_claim("depth", "O(log d)", lg2(static_cast<double>(dc.word_bits)), h32, cs.depth, w));
  const auto sd = circuits::gadgets::network_depth(dy::mergesort_network(static_cast<std::size_t>(m)), static_cast<std::size_t>(m));
  bt.claims.push_back(shape_claim("depth", "Θ(log m) comparator layers (AKS)", lg2(m),
                                  "Zoology Lemma H.35 [M] (sorting m = n/2 keys, Prop H.30 proof)", sd,
                                  "Batcher's network: ½·log2 m·(log2 m + 1) layers"));
  const char* aklm = v == DyVariant::Merge ? "merge-based block (docs/theory.md, \"The merge block\"; top block, m = n/2)"
                                           : "Akl–Meijer pbs via Zoology H.7.4 (top block's pbs, m = n/2)";
  bt.claims.push_back(shape_claim("work", "O(m log m)", m * lg2(m), aklm, dc.counts["gates_created_top_block"],
                                  "gates created by the top block's search (comparators cost O(d) each)"));
  bt.claims.push_back(paper_claim("blocks", "Σ_k (N/3)/2^(k+1) = n − 1", static_cast<long long>(dc.n) - 1, "exact",
                                  "Zoology Prop H.30 proof (lines 7–17 run this often)", dc.counts["blocks"]));
}

void add_model(Built& bt, const DyadicCircuit& dc, const circuits::CircuitStats& st) {
  if (dc.N * dc.d > 4096 || st.size > 200000)
    throw InputError("artifact=model compiles small circuits only (here N·d = " + std::to_string(dc.N * dc.d) +
                         ", size " + std::to_string(st.size) + "); try n <= 8",
                     "-p artifact=model");
  circuits::ToModel tm;
  try {
    tm = circuits::circuit_to_model(*dc.circuit, circuits::layout_for(*dc.circuit, dc.N, dc.d));
  } catch (const circuits::CausalityError& e) {
    throw InputError(std::string(e.what()) +
                         ": sorting a block's queries wires each answer to later queries (its value does not depend on "
                         "them), which a causal BaseConv cannot realise; use -p queries=each",
                     "-p artifact=model");
  }
  bt.model = tm.model;
  const Model& m = *bt.model;
  const ParamCount pc = count_params(m);
  const double N = static_cast<double>(dc.N), d = static_cast<double>(dc.d);
  bt.claims.push_back(our_claim("layers", static_cast<long long>(2 * st.mul_depth + 4), "exact",
                                "ours (circuit_to_model: 2 per multiplicative level + 4)", m.layers.size()));
  bt.claims.push_back(shape_claim("layers", "Õ(1)", 1.0, "Zoology H.7.6 (via Theorem H.21)", m.layers.size()));
  bt.claims.push_back(shape_claim("params_dense", "Õ(N d)", N * d, "Zoology H.7.6 (via Theorem H.21)", pc.dense));
  bt.claims.push_back(shape_claim("layers", "O(Δ log w)", static_cast<double>(st.depth) * lg2(static_cast<double>(st.width_cut)),
                                  "Zoology Theorem H.21 [M]", m.layers.size()));
  bt.claims.push_back(shape_claim("inner_N", "O(w)", static_cast<double>(st.width_cut), "Zoology Theorem H.21 [M]", m.inner_N));
  bt.claims.push_back(paper_claim("inner_d", "d", static_cast<long long>(dc.d), "exact", "Zoology Theorem H.21 [M]",
                                  m.inner_d, "our compiler keeps N' = N and puts the wires in channels"));
  bt.metrics["model_stages"] = tm.stages;
}

// Gates of the dyadic circuit, an upper estimate before building: the N·d input wires and the
// encoding/decoding of every row (one-hot rows are reduced to w-bit words and back: O(d) gates
// a row per word bit), plus Batcher merges over the log2 n levels: N·log²n comparators of O(w)
// gates on (w + log2 n)-bit items (Zoology Prop H.30: O(N d log² N)).
std::uint64_t dyadic_gates(const DyadicConfig& cfg) {
  const std::uint64_t n = cfg.n, N = 3 * n, d = cfg.codec.d;
  std::uint64_t w = 1, lg = 1;
  while ((std::uint64_t{1} << w) < cfg.codec.c) ++w;
  while ((std::uint64_t{1} << lg) < n) ++lg;
  const std::uint64_t rows = sat_mul(sat_mul(N, d), 4 * w + 8);
  const std::uint64_t merges = sat_mul(sat_mul(N, (lg + 1) * (lg + 1)), 10 * (w + lg + 2));  // measured: 1.4-2.2x the real count
  return sat_add(rows, merges);
}

}  // namespace

DyadicConfig dyadic_config(const Params& p) { return config_of(p); }

namespace {

Built build(const Params& p) {
  const DyadicConfig cfg = config_of(p);
  est::require_gates("mqar/dyadic", dyadic_gates(cfg), est::where_of(p, {"n", "c", "encoding"}));
  auto t0 = std::chrono::steady_clock::now();
  auto dc = std::make_shared<DyadicCircuit>(build_dyadic(cfg));
  const double build_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const bool small = dc->N * dc->d <= 12;  // FLINT exact degree: seconds and GBs beyond (n = 4: 18 s, 1.3 GB)
  const circuits::CircuitStats st = circuits::compute_stats(*dc->circuit, {small, dc->circuit->size() <= 200000});
  Built bt;
  bt.circuit = circuits::to_json(st);
  bt.circuit_ir = dc->circuit;
  bt.metrics = dc->counts;
  bt.metrics["n"] = dc->n;
  bt.metrics["N"] = dc->N;
  bt.metrics["d"] = dc->d;
  bt.metrics["word_bits"] = dc->word_bits;
  bt.metrics["work"] = st.size;
  bt.metrics["gates_total"] = dc->circuit->size();
  bt.timing["build_seconds"] = build_s;
  bt.timing["gates_per_second"] = build_s > 0 ? static_cast<double>(dc->circuit->size()) / build_s : 0.0;
  add_claims(bt, *dc, st, cfg.variant);
  if (p.s("artifact") == "model") add_model(bt, *dc, st);
  bt.notes.push_back("variant=" + p.s("variant") +
                     (cfg.variant == DyVariant::PbsPaper  ? ": eq (17) as published (index-weighted halves, 0 = dead branch)"
                      : cfg.variant == DyVariant::PbsFixed ? ": eq (17) with liveness bits (spec Errata E1)"
                                                           : ": merge-based block (docs/theory.md, \"The merge block\"), same C array as pbs"));
  bt.notes.push_back("prefix=" + p.s("prefix") + (cfg.prefix == DyPrefix::Msb ? ": dyadic blocks = contiguous halves (MSB-first, spec E6)"
                                                                              : ": LSB-first prefixes (spec E6 predicts misses)"));
  if (!cfg.sort_queries)
    bt.notes.push_back("queries=each: every query searches its block's sorted keys alone (no query sort), so each "
                       "output depends only on earlier rows (causal)");
  bt.notes.push_back("comparison words: natural binary of the token, LSB first, compared MSB first (keys ordered as integers)");
  if (cfg.found_output)
    bt.notes.push_back("binary: column d of each query row is a found bit (null vs token 0); other rows are zero");
  bt.notes.push_back("sorting: Batcher odd-even merges shared across levels (Zoology cites AKS, Lemma H.35)");
  bt.state = std::make_shared<DyState>(DyState{dc, cfg.codec, shape_of(cfg)});
  return bt;
}

Check check(const Params& p, const Built& bt, const DomainOptions& o) {
  auto st = std::static_pointer_cast<const DyState>(bt.state);
  mqar::Domain dom = domain_for(st->shape, o);
  dom.preconditions.push_back("n = " + std::to_string(st->shape.n) + " is a power of two (Zoology H.7.4)");
  if (p.s("artifact") == "circuit") return dyadic_check(dom, st->dc, st->codec);
  auto ev = std::make_shared<IntegerEvaluator>(*bt.model);
  MqarSolver sol;
  sol.codec = st->codec;
  sol.run = [ev, codec = st->codec](const mqar::Instance& x) {
    MqarRun r;
    r.output = (*ev)(mqar::encode(codec, x));
    return r;
  };
  return mqar_check(dom, sol);
}

// --method sat: the proof routes this artifact takes (app/engine/sat/sat_routes.h).
const bool routes_registered = register_routes("mqar/dyadic", {"sat:model", "sat:dyadic-stages"});
const bool registered = register_construction({
    "mqar/dyadic", "mqar",
    "Zoology Alg. 11: MQAR by dyadic intervals + parallel binary search, as a bit-sliced-verified circuit",
    dyadic_params(),
    build,
    check});

}  // namespace

}  // namespace cz::mqarc
