#include "constructions/mqar/dyadic_block.h"

#include <stdexcept>

namespace cz::mqarc {

namespace g = circuits::gadgets;
using dy::Bits;
using dy::Builder;
using dy::Wire;

std::vector<Bits> block_pbs(Builder& b, const std::vector<dy::Rec>& Qs, const std::vector<dy::Rec>& Ks, PbsVariant v,
                            PbsCount* count) {
  const std::size_t mk = Ks.size();
  std::vector<Bits> Qw, Kw, table;
  for (const auto& q : Qs) Qw.push_back(q.key);
  for (const auto& k : Ks) {
    Kw.push_back(k.key);
    Bits row = k.key;
    row.insert(row.end(), k.load.begin(), k.load.end());
    table.push_back(std::move(row));
  }
  const std::vector<Bits> C = pbs_key_values(b, Qw, Kw, v, count);
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

std::vector<Bits> block_merge(Builder& b, const std::vector<dy::Rec>& Qs, const std::vector<dy::Rec>& Ks,
                              std::size_t* comparators) {
  const std::size_t m = Qs.size();
  if (Ks.size() != m) throw std::logic_error("block_merge: the halves differ in size");
  const std::size_t dv = m ? Ks[0].load.size() : 0;
  // Merge on (word, tag): tag is the new least significant key bit, 0 = query, 1 = key.
  std::vector<dy::Rec> recs;
  for (const auto& q : Qs) {
    Bits key = {b.zero()};
    key.insert(key.end(), q.key.begin(), q.key.end());
    recs.push_back({key, Bits(dv, b.zero())});
  }
  for (const auto& k : Ks) {
    Bits key = {b.one()};
    key.insert(key.end(), k.key.begin(), k.key.end());
    recs.push_back({key, k.load});
  }
  const dy::Network net = dy::merge_network(m);
  const std::vector<Wire> swaps = dy::apply_traced(b, recs, net);
  if (comparators) *comparators += net.size();
  // Every position's first key at or after it (for a query: the smallest key >= it).
  std::vector<Wire> is_key;
  std::vector<Bits> data;
  for (const auto& r : recs) {
    is_key.push_back(r.key[0]);
    Bits x(r.key.begin() + 1, r.key.end());
    x.insert(x.end(), r.load.begin(), r.load.end());
    data.push_back(std::move(x));
  }
  const std::vector<dy::Flagged> next = dy::next_flagged(b, is_key, data);
  const std::size_t w = recs[0].key.size() - 1;
  std::vector<Bits> res;
  for (std::size_t i = 0; i < recs.size(); ++i) {
    const Bits word(recs[i].key.begin() + 1, recs[i].key.end());
    const Bits nk(next[i].data.begin(), next[i].data.begin() + static_cast<long>(w));
    const Bits nv(next[i].data.begin() + static_cast<long>(w), next[i].data.end());
    const Wire found =
        g::and_(b, g::not_(b, is_key[i]), g::and_(b, next[i].has, g::equal(b, nk, word)));
    Bits r = {found};
    const Bits val = dy::and_word(b, found, nv);
    r.insert(r.end(), val.begin(), val.end());
    res.push_back(std::move(r));
  }
  dy::unroute(b, res, net, swaps);  // back to [queries | keys] order
  res.resize(m);
  return res;
}

}  // namespace cz::mqarc
