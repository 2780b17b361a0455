#include "constructions/mqar/dyadic_pbs_stages.h"

#include <algorithm>
#include <map>
#include <optional>

#include "circuits/sat/cut_cone.h"

namespace cz::mqarc {

namespace {

namespace sat = circuits::sat;
using circuits::Wire;
using Word = std::vector<Wire>;

// The calls of one block as a tree over query ranges (pbs.cpp's fixed recursion).
struct CallTree {
  std::map<std::pair<std::size_t, std::size_t>, std::size_t> at;  // [s, t) -> index in calls
  std::vector<std::size_t> of_mid;                                 // query -> the call it is the mid of

  std::optional<std::size_t> find(std::size_t s, std::size_t t) const {
    auto it = at.find({s, t});
    return it == at.end() ? std::nullopt : std::optional<std::size_t>(it->second);
  }
};

// One miter: free keys and queries, with lb's comparisons [K_j < Q_p] made once each.
class Enc {
 public:
  Enc(const circuits::Circuit& c, std::size_t cap, std::size_t kb) : g(cnf), cone(c, g, cap), kb_(kb) {}

  sat::Cnf cnf;
  sat::Gates g;
  sat::CutCone cone;
  std::vector<std::vector<int>> k;  // key words (kb bits)
  std::map<std::size_t, std::vector<int>> q;
  std::vector<std::pair<circuits::GateId, int>> cut;  // PbsObligation::cut

  std::vector<int> free(const Word& ws) {
    std::vector<int> l = cone.free(ws);
    for (std::size_t b = 0; b < ws.size(); ++b) cut.emplace_back(ws[b].id, l[b]);
    return l;
  }

  void keys(const std::vector<Word>& K, bool with_values, std::vector<std::vector<int>>* values) {
    for (const Word& w : K) {
      const std::vector<int> l = free(with_values ? w : Word(w.begin(), w.begin() + static_cast<long>(kb_)));
      k.emplace_back(l.begin(), l.begin() + static_cast<long>(kb_));
      if (values) values->emplace_back(l.begin() + static_cast<long>(kb_), l.end());
    }
  }
  void assume(int lit) {
    if (lit != g.t()) cnf.add({lit});
  }
  // Keys strictly ascending (adjacent pairs: the block's hypothesis).
  void keys_ascending() {
    for (std::size_t j = 0; j + 1 < k.size(); ++j) assume(sat::lits_less_gadget(g, k[j], k[j + 1]));
  }
  // What ascending keys give every query p, as clauses the solver need not rediscover through
  // chains of word comparisons (each an instance of the order lemmas, order_lemmas()):
  // [K_{j+1} < Q] => [K_j < Q], and with eq: [K_j == Q] => not [K_j < Q] and [K_{j-1} < Q].
  void lb_facts(std::size_t p, bool with_eq) {
    for (std::size_t j = 0; j + 1 < k.size(); ++j) cnf.add({-lt(j + 1, p), lt(j, p)});
    if (!with_eq) return;
    for (std::size_t j = 0; j < k.size(); ++j) {
      const int e = eq(j, p);
      cnf.add({-e, -lt(j, p)});
      if (j > 0) cnf.add({-e, lt(j - 1, p)});
    }
  }
  int eq(std::size_t j, std::size_t p) {  // [K_j == Q_p]
    auto [it, fresh] = eq_.try_emplace({j, p}, 0);
    if (fresh) it->second = sat::lits_equal(g, k[j], q.at(p));
    return it->second;
  }
  // The hypotheses every call and top-range miter shares: keys strictly ascending, the queries ps
  // (already freed) ascending, and the order facts of lb for each of them.
  void ordered(const std::vector<std::size_t>& ps, bool across) {
    keys_ascending();
    queries_ascending();
    for (std::size_t p : ps) lb_facts(p, false);
    if (!across) return;
    // Across queries: Q_p <= Q_p' (p < p') gives [K_j < Q_p] => [K_j < Q_p'] (adjacent pairs in
    // query order; the implications chain). With it a call miter is propositional over lb's
    // comparisons: 5-10x on the call miters of mqar/dyadic n = 64 (issue 48).
    std::vector<std::size_t> sorted(ps);
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t a = 0; a + 1 < sorted.size(); ++a)
      for (std::size_t j = 0; j < k.size(); ++j) cnf.add({-lt(j, sorted[a]), lt(j, sorted[a + 1])});
  }
  void queries_ascending() {
    for (auto a = q.begin(); a != q.end(); ++a)
      for (auto b = std::next(a); b != q.end(); ++b) assume(-sat::lits_less_gadget(g, b->second, a->second));
  }
  int lt(std::size_t j, std::size_t p) {  // [K_j < Q_p]
    auto [it, fresh] = lt_.try_emplace({j, p}, 0);
    if (fresh) it->second = sat::lits_less_gadget(g, k[j], q.at(p));
    return it->second;
  }
  // [v <= lb(Q_p)] = [K_{v-1} < Q_p];  [lb(Q_p) <= v] = [Q_p <= K_v]
  int lb_at_least(std::size_t v, std::size_t p) { return v == 0 ? g.t() : lt(v - 1, p); }
  int lb_at_most(std::size_t v, std::size_t p) { return v >= k.size() ? g.t() : -lt(v, p); }

  int one_hot(const std::vector<int>& x) {
    int any = g.f(), two = g.f();
    for (int b : x) {
      two = g.or_(two, g.and_(any, b));
      any = g.or_(any, b);
    }
    return g.and_(any, -two);
  }
  // Pre(N, i) on the call's X, Y1 literals for the queries ps.
  int pre(const std::vector<int>& X, const std::vector<int>& Y1, const std::vector<std::size_t>& ps) {
    int ok = g.and_(one_hot(X), one_hot(Y1));
    int sx = g.f();  // [x >= j]: suffix OR of X
    for (std::size_t j = Y1.size(); j-- > 0;) {
      if (j < X.size()) sx = g.or_(sx, X[j]);
      ok = g.and_(ok, -g.and_(Y1[j], sx));  // x < y+1
    }
    for (std::size_t p : ps)
      for (std::size_t j = 0; j < Y1.size(); ++j) {
        if (j < X.size()) ok = g.and_(ok, -g.and_(X[j], -lb_at_least(j, p)));
        ok = g.and_(ok, -g.and_(Y1[j], -lb_at_most(j, p)));
      }
    return ok;
  }
  // [C == lb(Q_p)], C a binary word (LSB first).
  int post(const std::vector<int>& C, std::size_t p) {
    int r = g.f();
    for (std::size_t v = 0; v <= k.size(); ++v) {
      if (C.size() < 64 && (v >> C.size()) != 0) break;
      int is = g.t();
      for (std::size_t b = 0; b < C.size(); ++b) is = g.and_(is, (b < 64 && (v >> b) & 1) ? C[b] : -C[b]);
      r = g.or_(r, g.and_(is, g.and_(lb_at_least(v, p), lb_at_most(v, p))));
    }
    return r;
  }

 private:
  std::size_t kb_;
  std::map<std::pair<std::size_t, std::size_t>, int> lt_, eq_;
};

// The facts of integer order the other miters use as clauses, on free words a, b, c of kb bits
// with the same comparator encodings (sat::lits_less, lits_equal): a < b < c => a < c;
// a <= b <= c => a <= c; a == c => not a < c; a < b == c => a < c; with across, a < b <= c =>
// a < c. UNSAT = they hold for every value, so every instance of them in another miter is implied
// by its hypotheses.
sat::Cnf order_lemmas(std::size_t kb, bool across) {
  sat::Cnf cnf;
  sat::Gates g(cnf);
  std::vector<int> a, b, c;
  for (std::size_t i = 0; i < kb; ++i) a.push_back(cnf.new_var()), b.push_back(cnf.new_var()), c.push_back(cnf.new_var());
  const int ab = sat::lits_less_gadget(g, a, b), bc = sat::lits_less_gadget(g, b, c), ac = sat::lits_less_gadget(g, a, c);
  const int ba = sat::lits_less_gadget(g, b, a), cb = sat::lits_less_gadget(g, c, b), ca = sat::lits_less_gadget(g, c, a);
  int bad = g.and_(g.and_(ab, bc), -ac);
  bad = g.or_(bad, g.and_(g.and_(-ba, -cb), ca));
  bad = g.or_(bad, g.and_(sat::lits_equal(g, a, c), ac));
  bad = g.or_(bad, g.and_(g.and_(ab, sat::lits_equal(g, b, c)), -ac));
  if (across) bad = g.or_(bad, g.and_(g.and_(ab, -cb), -ac));  // a < b <= c => a < c (Enc::ordered)
  cnf.add({bad});
  return cnf;
}

std::string check_calls(const std::vector<PbsCallTrace>& calls, std::size_t mk, std::size_t mq, CallTree& tree) {
  tree.of_mid.assign(mq, calls.size());
  for (std::size_t n = 0; n < calls.size(); ++n) {
    const PbsCallTrace& cl = calls[n];
    if (!(cl.s <= cl.mid && cl.mid < cl.t && cl.t <= mq)) return "a pbs call's range is not [s, t) with s <= mid < t";
    if (cl.X.size() != mk || cl.Y1.size() != mk + 1) return "a pbs call's key range is not one-hot over the keys";
    if (cl.C.size() != cl.t - cl.s) return "a pbs call's results are not one per query";
    for (const auto& w : cl.C)
      if (w.empty()) return "a pbs call's result is an empty word";
    if (tree.of_mid[cl.mid] != calls.size() || !tree.at.emplace(std::pair{cl.s, cl.t}, n).second)
      return "two pbs calls share a query range or a mid";
    tree.of_mid[cl.mid] = n;
  }
  for (std::size_t i = 0; i < mq; ++i)
    if (tree.of_mid[i] == calls.size()) return "query " + std::to_string(i) + " is the mid of no pbs call";
  if (!tree.find(0, mq)) return "no pbs call covers every query";
  for (const PbsCallTrace& cl : calls)  // the children are the calls on [s, mid) and [mid+1, t)
    if ((cl.s < cl.mid && !tree.find(cl.s, cl.mid)) || (cl.mid + 1 < cl.t && !tree.find(cl.mid + 1, cl.t)))
      return "a pbs call's halves are not calls";
  return "";
}

}  // namespace

std::string pbs_call_obligations(const circuits::Circuit& c, const std::vector<Word>& K, std::size_t kb, const std::vector<Word>& Q,
                                 const std::vector<PbsCallTrace>& calls, const std::vector<Word>& res, const std::string& what,
                                 std::vector<PbsObligation>& out, bool across) {
  const std::size_t mk = K.size(), mq = Q.size();
  if (mk == 0 || mq == 0 || res.size() != mq) return what + ": not a block with keys, queries and one answer per query";
  if (kb == 0) return what + ": key words of 0 bits";
  for (const Word& w : K)
    if (w.size() < kb) return what + ": a key record is shorter than its key word";
  for (const Word& w : Q)
    if (w.size() != kb) return what + ": a query word is not as wide as the key words";
  CallTree tree;
  if (std::string why = check_calls(calls, mk, mq, tree); !why.empty()) return what + ": " + why;
  const std::size_t cap = 64 * mk * (kb + 8) + 4096;  // one call's gates: mk comparators and its one-hot plumbing
  std::vector<PbsObligation> mine;
  auto take = [&](Enc& e, std::string name, int bad) -> std::string {
    if (e.cone.free_inputs() != 0) return name + ": the cut does not close (the cone reaches circuit inputs)";
    if (bad == e.g.f()) return "";
    e.cnf.add({bad});
    mine.push_back({std::move(name), std::move(e.cnf), std::move(e.cut)});
    return "";
  };
  for (std::size_t n = 0; n < calls.size(); ++n) {
    const PbsCallTrace& N = calls[n];
    for (std::size_t i = N.s; i < N.t; ++i) {
      std::vector<std::size_t> path{n};  // N down to the call whose mid is i
      while (calls[path.back()].mid != i) {
        const PbsCallTrace& at = calls[path.back()];
        path.push_back(*(i < at.mid ? tree.find(at.s, at.mid) : tree.find(at.mid + 1, at.t)));
      }
      std::vector<std::size_t> ps;
      for (std::size_t m : path) ps.push_back(calls[m].mid);
      Enc e(c, cap, kb);
      e.keys(K, false, nullptr);
      for (std::size_t p : ps) e.q[p] = e.free(Q[p]);
      const std::vector<int> X = e.free(N.X), Y1 = e.free(N.Y1);
      std::optional<std::vector<int>> childC;
      if (path.size() > 1) {
        const PbsCallTrace& M = calls[path[1]];
        childC = e.free(M.C[i - M.s]);
      }
      const std::vector<int> got = e.cone.lits(N.C[i - N.s]);
      std::string name = what + ", pbs call [" + std::to_string(N.s) + "," + std::to_string(N.t) + ") query " + std::to_string(i);
      if (got.empty()) return name + ": " + e.cone.why();
      e.ordered(ps, across);
      e.assume(e.pre(X, Y1, ps));
      if (childC) {
        const PbsCallTrace& M = calls[path[1]];
        const std::vector<int> mx = e.cone.lits(M.X), my = e.cone.lits(M.Y1);
        if (mx.empty() || my.empty()) return name + ": " + e.cone.why();
        const std::vector<std::size_t> rest(ps.begin() + 1, ps.end());
        e.assume(e.g.or_(-e.pre(mx, my, rest), e.post(*childC, i)));
      }
      if (std::string why = take(e, std::move(name), -e.post(got, i)); !why.empty()) return why;
    }
  }
  const PbsCallTrace& top = calls[*tree.find(0, mq)];
  {
    // The induction's base: Pre(top, i) for every query i, on the circuit's own wires (the call
    // miters assume Pre on free X, Y1). pbs.cpp's top call is given the constants x = 0, y+1 = m,
    // so this folds to no miter at all; a circuit whose top call gets another range (a mutant
    // searching from key 1 misses every query equal to the smallest key) fails it here, while every
    // call miter above holds.
    Enc e(c, cap, kb);
    e.keys(K, false, nullptr);
    std::vector<std::size_t> ps;
    for (std::size_t p = 0; p < mq; ++p) {
      e.q[p] = e.free(Q[p]);
      ps.push_back(p);
    }
    const std::vector<int> X = e.cone.lits(top.X), Y1 = e.cone.lits(top.Y1);
    std::string name = what + ", pbs top call's key range";
    if (X.empty() || Y1.empty()) return name + ": " + e.cone.why();
    e.ordered(ps, across);
    if (std::string why = take(e, std::move(name), -e.pre(X, Y1, ps)); !why.empty()) return why;
  }
  for (std::size_t p = 0; p < mq; ++p) {
    Enc e(c, cap, kb);
    std::vector<std::vector<int>> vals;
    e.keys(K, true, &vals);
    e.q[p] = e.free(Q[p]);
    const std::vector<int> C = e.free(top.C[p]);
    const std::vector<int> got = e.cone.lits(res[p]);
    std::string name = what + ", answer " + std::to_string(p) + " from pbs";
    if (got.empty()) return name + ": " + e.cone.why();
    if (got.size() != 1 + vals[0].size()) return name + ": the answer word is not 1 + d bits";
    if (!across) e.keys_ascending();  // the facts below carry what the answer needs of key order
    e.lb_facts(p, true);
    e.assume(e.post(C, p));
    int found = e.g.f();
    std::vector<int> val(vals[0].size(), e.g.f());
    for (std::size_t j = 0; j < mk; ++j) {
      const int eq = e.eq(j, p);
      found = e.g.or_(found, eq);
      for (std::size_t b = 0; b < val.size(); ++b) val[b] = e.g.or_(val[b], e.g.and_(eq, vals[j][b]));
    }
    std::vector<int> want{found};
    want.insert(want.end(), val.begin(), val.end());
    if (std::string why = take(e, std::move(name), -sat::lits_equal(e.g, got, want)); !why.empty()) return why;
  }
  mine.push_back({what + ", order lemmas of " + std::to_string(kb) + "-bit words", order_lemmas(kb, across), {}});
  for (PbsObligation& o : mine) out.push_back(std::move(o));
  return "";
}

}  // namespace cz::mqarc
