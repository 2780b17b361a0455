#include "constructions/mqar/dyadic_circuit.h"

#include <optional>

#include "circuits/builder.h"
#include "constructions/mqar/dyadic_block.h"
#include "util/error.h"

namespace cz::mqarc {

namespace g = circuits::gadgets;
using dy::Bits;
using dy::Builder;
using dy::Rec;
using dy::Wire;

std::string to_string(DyVariant v) {
  switch (v) {
    case DyVariant::PbsFixed: return "fixed";
    case DyVariant::PbsPaper: return "paper";
    case DyVariant::PbsDeadZero: return "deadzero";
    case DyVariant::Merge: return "merge";
  }
  return "?";
}

namespace {

// The comparison word of a token row (see the header: natural binary, LSB first).
Bits token_word(Builder& b, const std::vector<Wire>& row, const mqar::Codec& k) {
  auto digit_bits = [&](std::size_t off, std::size_t count, Bits& out) {
    const std::size_t wb = count > 1 ? dy::bits_for(count - 1) : 1;
    for (std::size_t bit = 0; bit < wb; ++bit) {
      std::vector<Wire> xs;
      for (std::size_t t = 0; t < count; ++t)
        if ((t >> bit) & 1) xs.push_back(row[off + t]);
      out.push_back(g::or_all(b, xs));
    }
  };
  Bits w;
  switch (k.enc) {
    case mqar::Encoding::Binary: return row;
    case mqar::Encoding::OneHot: digit_bits(0, k.c, w); return w;
    case mqar::Encoding::PHot:
      for (std::size_t dg = 0; dg < k.p; ++dg) digit_bits(dg * k.base, k.base, w);
      return w;
  }
  return w;
}

using Node = DyadicNode;

int make_node(std::vector<Node>& nodes, const std::vector<std::size_t>& members, std::size_t depth, std::size_t lg,
              DyPrefix prefix) {
  const int id = static_cast<int>(nodes.size());
  nodes.push_back({members, -1, -1});
  if (members.size() > 1) {
    const std::size_t bit = prefix == DyPrefix::Msb ? lg - 1 - depth : depth;
    std::vector<std::size_t> l, r;
    for (std::size_t i : members) ((i >> bit) & 1 ? r : l).push_back(i);
    const int a = make_node(nodes, l, depth + 1, lg, prefix);
    const int c = make_node(nodes, r, depth + 1, lg, prefix);
    nodes[static_cast<std::size_t>(id)].left = a;
    nodes[static_cast<std::size_t>(id)].right = c;
  }
  return id;
}

struct Sorted {
  std::vector<Rec> recs;
  dy::Network net;           // the merge that produced it from the children (empty for a leaf)
  std::vector<Wire> swaps;   // its recorded swap bits
};

struct Dyadic {
  explicit Dyadic(const DyadicConfig& c) : cfg(c) {}
  const DyadicConfig& cfg;
  Builder b;
  std::vector<Node> nodes;
  std::vector<Bits> kw, qw, vw;  // per triple: key word, query word, value row
  std::vector<std::optional<Sorted>> sk, sq;
  int flip_node = -1;
  DyadicTrace* trace = nullptr;
  std::size_t sort_comparators = 0, merge_comparators = 0, blocks = 0;
  PbsCount pbs;

  // Sorted keys (with values) or queries of a node: the merge of its children's (Batcher).
  const Sorted& sorted(int id, bool keys) {
    auto& memo = keys ? sk : sq;
    auto& slot = memo[static_cast<std::size_t>(id)];
    if (slot) return *slot;
    const Node& nd = nodes[static_cast<std::size_t>(id)];
    Sorted s;
    if (nd.left < 0) {
      const std::size_t i = nd.members[0];
      s.recs.push_back(keys ? Rec{kw[i], vw[i]} : Rec{qw[i], {}});
    } else {
      s.recs = sorted(nd.left, keys).recs;
      const auto& r = sorted(nd.right, keys).recs;
      s.recs.insert(s.recs.end(), r.begin(), r.end());
      s.net = dy::merge_network(nd.members.size() / 2);
      std::vector<dy::Step>* steps = nullptr;
      if (trace) {
        DyNodeTrace& t = trace->nodes[static_cast<std::size_t>(id)];
        steps = keys ? &t.key_merge : &t.query_merge;
      }
      s.swaps = dy::apply_traced(b, s.recs, s.net, keys && id == flip_node ? 0 : -1, steps);
      sort_comparators += s.net.size();
    }
    slot = std::move(s);
    return *slot;
  }

  // Keys of a block for the off-by-one mutant: the left child's indices + 1, sorted afresh.
  std::vector<Rec> shifted_keys(const Node& left) {
    std::vector<Rec> recs;
    for (std::size_t i : left.members) {
      const std::size_t j = i + 1 < kw.size() ? i + 1 : i;
      recs.push_back({kw[j], vw[j]});
    }
    dy::apply_traced(b, recs, dy::mergesort_network(recs.size()));
    return recs;
  }
};

}  // namespace

std::vector<DyadicNode> dyadic_tree(std::size_t n, DyPrefix prefix) {
  if (n == 0 || (n & (n - 1))) throw InputError("n must be a power of two (Zoology H.7.4 assumes it)", "-p n=" + std::to_string(n));
  std::size_t lg = 0;
  while ((std::size_t{1} << lg) < n) ++lg;
  std::vector<std::size_t> all(n);
  for (std::size_t i = 0; i < n; ++i) all[i] = i;
  std::vector<Node> nodes;
  make_node(nodes, all, 0, lg, prefix);
  return nodes;
}

DyadicCircuit build_dyadic(const DyadicConfig& cfg, DyadicTrace* trace) {
  const std::size_t n = cfg.n;
  const mqar::Codec& k = cfg.codec;
  const std::size_t N = 3 * n, d = k.d;
  const bool found_out = cfg.found_output;
  Dyadic D(cfg);
  D.nodes = dyadic_tree(n, cfg.prefix);  // throws unless n is a power of two
  Builder& b = D.b;
  {  // size the hash-consing table once (measured: ~10·n·log²n·(w+d) gates merge, ~7·n²·(w+d) pbs)
    std::size_t lg = 1;
    while ((std::size_t{1} << lg) < n) ++lg;
    const std::size_t wd = 2 * d + 8;
    const std::size_t est = cfg.variant == DyVariant::Merge ? 10 * n * lg * lg * wd : 7 * n * n * wd;
    b.reserve(std::min<std::size_t>(est, std::size_t{1} << 26));
  }
  // Inputs u[r][j], row-major.
  std::vector<std::vector<Wire>> u(N);
  for (std::size_t r = 0; r < N; ++r)
    for (std::size_t j = 0; j < d; ++j)
      u[r].push_back(b.input("u[" + std::to_string(r) + "][" + std::to_string(j) + "]", circuits::Type::Bit));
  for (std::size_t i = 0; i < n; ++i) {
    D.kw.push_back(token_word(b, u[3 * i], k));
    D.vw.push_back(u[3 * i + 1]);
    D.qw.push_back(token_word(b, u[3 * i + 2], k));
  }
  if (trace) {
    *trace = DyadicTrace{};
    trace->kw = D.kw;
    trace->vw = D.vw;
    trace->qw = D.qw;
    trace->nodes.resize(D.nodes.size());
    D.trace = trace;
  }
  D.sk.resize(D.nodes.size());
  D.sq.resize(D.nodes.size());
  if (cfg.mutant == DyMutant::FlipComparator) {
    if (n < 4) throw InputError("the flipped-comparator mutant needs n >= 4", "mutant");
    D.flip_node = D.nodes[0].left;  // the largest key merge (the top block's keys)
  }
  if (cfg.mutant == DyMutant::BlockOffByOne && n < 2) throw InputError("the off-by-one mutant needs n >= 2", "mutant");
  if (cfg.mutant == DyMutant::PbsTopFromOne && (n < 4 || cfg.variant == DyVariant::Merge || !cfg.sort_queries))
    throw InputError("the pbs-top-from-one mutant needs n >= 4 and a pbs variant with sorted queries", "mutant");
  const std::size_t g0 = b.size();

  // Phase 1: sort (merge trees) the keys of every left child and the queries of every right child.
  std::vector<int> internal;
  for (std::size_t id = 0; id < D.nodes.size(); ++id)
    if (D.nodes[id].left >= 0) internal.push_back(static_cast<int>(id));
  for (int id : internal) {
    const Node& nd = D.nodes[static_cast<std::size_t>(id)];
    if (cfg.mutant != DyMutant::BlockOffByOne) D.sorted(nd.left, true);
    if (cfg.sort_queries) D.sorted(nd.right, false);
  }
  const std::size_t g1 = b.size();

  // Phase 2: every block's answers, in its sorted-query order.
  std::vector<std::vector<Bits>> res(D.nodes.size());
  std::size_t top_block = 0;
  for (int id : internal) {
    const std::size_t before = b.size();
    const Node& nd = D.nodes[static_cast<std::size_t>(id)];
    const std::vector<Rec> keys = cfg.mutant == DyMutant::BlockOffByOne
                                      ? D.shifted_keys(D.nodes[static_cast<std::size_t>(nd.left)])
                                      : D.sorted(nd.left, true).recs;
    ++D.blocks;
    if (!cfg.sort_queries) {  // each query alone, in index order: no permutation to undo
      for (std::size_t i : D.nodes[static_cast<std::size_t>(nd.right)].members) {
        const PbsVariant pv = cfg.variant == DyVariant::PbsPaper      ? PbsVariant::Paper
                              : cfg.variant == DyVariant::PbsDeadZero ? PbsVariant::DeadZero
                                                                      : PbsVariant::Fixed;
        res[static_cast<std::size_t>(id)].push_back(block_pbs(b, {Rec{D.qw[i], {}}}, keys, pv, &D.pbs)[0]);
      }
      if (id == 0) top_block = b.size() - before;
      continue;
    }
    const std::vector<Rec>& qs = D.sorted(nd.right, false).recs;
    const std::size_t x0 = cfg.mutant == DyMutant::PbsTopFromOne && keys.size() > 1 ? 1 : 0;
    std::vector<PbsCallTrace>* calls = trace ? &trace->nodes[static_cast<std::size_t>(id)].pbs_calls : nullptr;
    switch (cfg.variant) {
      case DyVariant::Merge: res[static_cast<std::size_t>(id)] = block_merge(b, qs, keys, &D.merge_comparators); break;
      case DyVariant::PbsFixed: res[static_cast<std::size_t>(id)] = block_pbs(b, qs, keys, PbsVariant::Fixed, &D.pbs, calls, x0); break;
      case DyVariant::PbsPaper: res[static_cast<std::size_t>(id)] = block_pbs(b, qs, keys, PbsVariant::Paper, &D.pbs, calls, x0); break;
      case DyVariant::PbsDeadZero:
        res[static_cast<std::size_t>(id)] = block_pbs(b, qs, keys, PbsVariant::DeadZero, &D.pbs, calls, x0);
        break;
    }
    if (id == 0) top_block = b.size() - before;
  }
  const std::size_t g2 = b.size();

  // Phase 3: top-down, reverse each query merge once, OR-ing in each block's answers for its
  // right child; at the leaves every query holds its answer (lines 19–21).
  const std::size_t rw = 1 + d;
  std::vector<Bits> answer(n, Bits(rw, b.zero()));
  auto down = [&](auto&& self, int id, std::optional<std::vector<Bits>> acc) -> void {
    const Node& nd = D.nodes[static_cast<std::size_t>(id)];
    if (nd.left < 0) {
      if (acc) answer[nd.members[0]] = (*acc)[0];
      return;
    }
    std::optional<std::vector<Bits>> accL, accR;
    if (acc) {  // undo the merge that sorted this node's queries
      const Sorted& s = D.sorted(id, false);
      dy::unroute(b, *acc, s.net, s.swaps, trace ? &trace->nodes[static_cast<std::size_t>(id)].unroute : nullptr);
      const std::size_t h = nd.members.size() / 2;
      accL = std::vector<Bits>(acc->begin(), acc->begin() + static_cast<long>(h));
      accR = std::vector<Bits>(acc->begin() + static_cast<long>(h), acc->end());
    }
    const auto& mine = res[static_cast<std::size_t>(id)];
    if (accR)
      for (std::size_t p = 0; p < mine.size(); ++p) (*accR)[p] = dy::or_words(b, (*accR)[p], mine[p]);
    else
      accR = mine;
    if (trace) {
      trace->nodes[static_cast<std::size_t>(id)].res = mine;
      trace->nodes[static_cast<std::size_t>(id)].acc_right = *accR;
    }
    self(self, nd.left, accL);
    self(self, nd.right, accR);
  };
  if (cfg.sort_queries) {
    down(down, 0, std::nullopt);
  } else {
    for (int id : internal) {
      const auto& members = D.nodes[static_cast<std::size_t>(D.nodes[static_cast<std::size_t>(id)].right)].members;
      for (std::size_t t = 0; t < members.size(); ++t)
        answer[members[t]] = dy::or_words(b, answer[members[t]], res[static_cast<std::size_t>(id)][t]);
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t row = 3 * i + 2;
    for (std::size_t j = 0; j < d; ++j)
      b.output("y[" + std::to_string(row) + "][" + std::to_string(j) + "]", answer[i][1 + j]);
    if (found_out) b.output("y[" + std::to_string(row) + "][" + std::to_string(d) + "]", answer[i][0]);
  }
  const std::size_t g3 = b.size();

  DyadicCircuit out;
  out.n = n;
  out.N = N;
  out.d = d;
  out.word_bits = D.kw.empty() ? 0 : D.kw[0].size();
  out.out_cols = d + (found_out ? 1 : 0);
  out.found_output = found_out;
  out.counts = {{"blocks", D.blocks},
                {"sort_comparators", D.sort_comparators},
                {"merge_comparators", D.merge_comparators},
                {"pbs_comparisons", D.pbs.comparisons},
                {"pbs_calls", D.pbs.calls},
                {"gates_created_encode", g0},
                {"gates_created_sort", g1 - g0},
                {"gates_created_search", g2 - g1},
                {"gates_created_top_block", top_block},
                {"gates_created_route", g3 - g2}};
  out.circuit = std::make_shared<const circuits::Circuit>(std::move(b).finish());
  return out;
}

}  // namespace cz::mqarc
