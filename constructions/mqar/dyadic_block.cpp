#include "constructions/mqar/dyadic_block.h"

#include <stdexcept>

namespace cz::mqarc {

namespace g = circuits::gadgets;
using dy::Bits;
using dy::Builder;
using dy::Wire;

std::vector<Bits> block_pbs(Builder& b, const std::vector<dy::Rec>& Qs, const std::vector<dy::Rec>& Ks, PbsVariant v,
                            PbsCount* count, std::vector<PbsCallTrace>* calls, std::size_t x0) {
  const std::size_t mk = Ks.size();
  std::vector<Bits> Qw, Kw, table;
  for (const auto& q : Qs) Qw.push_back(q.key);
  for (const auto& k : Ks) {
    Kw.push_back(k.key);
    Bits row = k.key;
    row.insert(row.end(), k.load.begin(), k.load.end());
    table.push_back(std::move(row));
  }
  const std::vector<Bits> C = pbs_key_values(b, Qw, Kw, v, count, calls, x0);
  const std::size_t w = Kw.empty() ? 0 : Kw[0].size();
  std::vector<Bits> out;
  for (std::size_t p = 0; p < Qs.size(); ++p) {
    // Zoology Alg. 11 line 17: C[p] < m and Ks[C[p]] == Qs[p].
    const std::size_t cw = std::max(C[p].size(), dy::bits_for(mk));
    const Wire in_range = g::less_than(b, dy::pad(b, C[p], cw), g::const_bits(b, mk, cw));
    const Bits sel = dy::select_word(b, table, C[p]);
    const Wire found = g::and_(b, in_range, g::equal(b, Bits(sel.begin(), sel.begin() + static_cast<long>(w)), Qw[p]));
    Bits r = {found};
    const Bits val = dy::and_word(b, found, Bits(sel.begin() + static_cast<long>(w), sel.end()));
    r.insert(r.end(), val.begin(), val.end());
    out.push_back(std::move(r));
  }
  return out;
}

namespace {
// The merged sequence of a block and, for every position, the first key at or after it.
struct MergeScan {
  std::vector<dy::Rec> recs;  // merged; key = [tag] ++ word, tag 1 = key
  dy::Network net;
  std::vector<Wire> swaps;
  std::vector<dy::Flagged> next;  // data = word ++ load of that key
};

MergeScan merge_scan(Builder& b, const std::vector<dy::Rec>& Qs, const std::vector<dy::Rec>& Ks, std::size_t* comparators) {
  const std::size_t m = Qs.size();
  if (Ks.size() != m) throw std::logic_error("block_merge: the halves differ in size");
  const std::size_t dv = m ? Ks[0].load.size() : 0;
  // Merge on (word, tag): tag is the new least significant key bit, 0 = query, 1 = key.
  MergeScan ms;
  for (const auto& q : Qs) {
    Bits key = {b.zero()};
    key.insert(key.end(), q.key.begin(), q.key.end());
    ms.recs.push_back({key, Bits(dv, b.zero())});
  }
  for (const auto& k : Ks) {
    Bits key = {b.one()};
    key.insert(key.end(), k.key.begin(), k.key.end());
    ms.recs.push_back({key, k.load});
  }
  ms.net = dy::merge_network(m);
  ms.swaps = dy::apply_traced(b, ms.recs, ms.net);
  if (comparators) *comparators += ms.net.size();
  std::vector<Wire> is_key;
  std::vector<Bits> data;
  for (const auto& r : ms.recs) {
    is_key.push_back(r.key[0]);
    Bits x(r.key.begin() + 1, r.key.end());
    x.insert(x.end(), r.load.begin(), r.load.end());
    data.push_back(std::move(x));
  }
  ms.next = dy::next_flagged(b, is_key, data);
  return ms;
}

// Per-position results back to [queries | keys] order; the queries' part.
std::vector<Bits> queries_part(Builder& b, std::vector<Bits> res, const MergeScan& ms) {
  dy::unroute(b, res, ms.net, ms.swaps);
  res.resize(res.size() / 2);
  return res;
}
}  // namespace

std::vector<Bits> block_merge(Builder& b, const std::vector<dy::Rec>& Qs, const std::vector<dy::Rec>& Ks,
                              std::size_t* comparators) {
  const MergeScan ms = merge_scan(b, Qs, Ks, comparators);
  const std::size_t w = ms.recs[0].key.size() - 1;
  std::vector<Bits> res;
  for (std::size_t i = 0; i < ms.recs.size(); ++i) {
    const Wire is_key = ms.recs[i].key[0];
    const Bits word(ms.recs[i].key.begin() + 1, ms.recs[i].key.end());
    const Bits nk(ms.next[i].data.begin(), ms.next[i].data.begin() + static_cast<long>(w));
    const Bits nv(ms.next[i].data.begin() + static_cast<long>(w), ms.next[i].data.end());
    const Wire found = g::and_(b, g::not_(b, is_key), g::and_(b, ms.next[i].has, g::equal(b, nk, word)));
    Bits r = {found};
    const Bits val = dy::and_word(b, found, nv);
    r.insert(r.end(), val.begin(), val.end());
    res.push_back(std::move(r));
  }
  return queries_part(b, std::move(res), ms);
}

std::vector<Bits> merge_key_values(Builder& b, const std::vector<Bits>& Q, const std::vector<Bits>& K) {
  const std::size_t m = Q.size(), B = dy::bits_for(m);
  std::vector<dy::Rec> Qs, Ks;
  for (const auto& q : Q) Qs.push_back({q, {}});
  for (std::size_t j = 0; j < K.size(); ++j) Ks.push_back({K[j], g::const_bits(b, j, B)});  // sorted position j
  const MergeScan ms = merge_scan(b, Qs, Ks, nullptr);
  const std::size_t w = ms.recs[0].key.size() - 1;
  std::vector<Bits> res;
  for (const auto& nx : ms.next) {
    const Bits idx(nx.data.begin() + static_cast<long>(w), nx.data.end());
    res.push_back(g::mux_bits(b, nx.has, idx, g::const_bits(b, m, B)));  // no key >= q: C = m
  }
  return queries_part(b, std::move(res), ms);
}

}  // namespace cz::mqarc
