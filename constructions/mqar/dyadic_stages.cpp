#include "constructions/mqar/dyadic_stages.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <stdexcept>
#include <unordered_map>

#include "circuits/sat/cut_cone.h"
#include "constructions/mqar/dyadic_pbs_stages.h"

namespace cz::mqarc {

namespace {

namespace sat = circuits::sat;
using circuits::Circuit;
using circuits::GateId;
using circuits::Wire;
using Word = std::vector<Wire>;
using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

Word cat(const Word& a, const Word& b) {
  Word r = a;
  r.insert(r.end(), b.begin(), b.end());
  return r;
}
std::vector<int> part(const std::vector<int>& v, std::size_t from, std::size_t to) {
  return std::vector<int>(v.begin() + static_cast<long>(from), v.begin() + static_cast<long>(to));
}

// A miter whose UNSAT is one obligation (or a batch of them: bad = OR of theirs).
struct Miter {
  std::string what;
  sat::Cnf cnf;
  bool block = false;
};

class Prover {
 public:
  Prover(const Circuit& c, const DyadicTrace& t, const DyadicConfig& cfg, std::size_t split, std::size_t pbs_calls, bool across)
      : c_(c), t_(t), cfg_(cfg), d_(cfg.codec.d), rw_(1 + cfg.codec.d), split_(split), pbs_calls_(pbs_calls), across_(across) {}

  // Steps 1, 2 (structure), 4 (structure) and 5; the miters in miters_. "" or why not.
  std::string build(DyStageResult& r) {
    if (!cfg_.sort_queries) return "queries=each has no query sort (its per-query miters are the proof)";
    nodes_ = dyadic_tree(cfg_.n, cfg_.prefix);
    if (t_.nodes.size() != nodes_.size()) return "the trace has " + std::to_string(t_.nodes.size()) + " nodes, the tree " + std::to_string(nodes_.size());
    if (std::string why = partition(); !why.empty()) return why;
    if (!wires_in_range()) return "the trace names a wire the circuit does not have";
    for (std::size_t k = 0; k < c_.num_inputs(); ++k) input_[c_.input_name(k)] = c_.input_gate(k);
    if (std::string why = leaf_words(r); !why.empty()) return why;
    sk_.resize(nodes_.size());
    sq_.resize(nodes_.size());
    for (std::size_t id = 0; id < nodes_.size(); ++id) {
      const DyadicNode& nd = nodes_[id];
      if (nd.left < 0) continue;
      if (!sorted(nd.left, true, r) || !sorted(nd.right, false, r)) return why_;
      if (std::string why = block_miter(static_cast<int>(id), r); !why.empty()) return why;
      ++r.blocks;
    }
    answer_.assign(cfg_.n, std::nullopt);
    if (!down(0, std::nullopt, r)) return why_;
    return outputs();
  }

  std::vector<Miter> miters_;

 private:
  // Every wire the trace names is a gate of this circuit (a trace of another build is refused).
  bool wires_in_range() const {
    auto ok = [&](const Word& w) {
      return std::all_of(w.begin(), w.end(), [&](Wire x) { return x.id < c_.size(); });
    };
    auto all = [&](const std::vector<Word>& ws) { return std::all_of(ws.begin(), ws.end(), ok); };
    auto steps = [&](const std::vector<dy::Step>& ss) {
      return std::all_of(ss.begin(), ss.end(), [&](const dy::Step& s) { return s.s.id < c_.size() && ok(s.lo) && ok(s.hi); });
    };
    if (!all(t_.kw) || !all(t_.vw) || !all(t_.qw)) return false;
    for (const DyNodeTrace& n : t_.nodes)
      if (!steps(n.key_merge) || !steps(n.query_merge) || !steps(n.unroute) || !all(n.res) || !all(n.acc_right)) return false;
    for (const DyNodeTrace& n : t_.nodes)
      for (const PbsCallTrace& cl : n.pbs_calls)
        if (!ok(cl.X) || !ok(cl.Y1) || !all(cl.C)) return false;
    return true;
  }

  // Step 5: for every i, the left children of the blocks whose right child holds i partition {0..i-1}.
  std::string partition() {
    std::vector<std::vector<int>> seen(cfg_.n, std::vector<int>(cfg_.n, 0));
    for (const DyadicNode& nd : nodes_) {
      if (nd.left < 0) continue;
      for (std::size_t i : nodes_[static_cast<std::size_t>(nd.right)].members)
        for (std::size_t j : nodes_[static_cast<std::size_t>(nd.left)].members) ++seen[i][j];
    }
    for (std::size_t i = 0; i < cfg_.n; ++i)
      for (std::size_t j = 0; j < cfg_.n; ++j)
        if (seen[i][j] != (j < i ? 1 : 0))
          return "the blocks pair key " + std::to_string(j) + " with query " + std::to_string(i) + " " +
                 std::to_string(seen[i][j]) + " times (MQAR needs exactly the keys j < i once)";
    return "";
  }

  std::optional<GateId> input(std::size_t row, std::size_t j) const {
    auto it = input_.find("u[" + std::to_string(row) + "][" + std::to_string(j) + "]");
    if (it == input_.end()) return std::nullopt;
    return it->second;
  }

  // Step 1: the words of every key and query row, evaluated exactly on every token's codeword.
  std::string leaf_words(DyStageResult& r) {
    const std::size_t n = cfg_.n;
    if (t_.kw.size() != n || t_.vw.size() != n || t_.qw.size() != n) return "the trace's leaf words are not one per triple";
    kb_ = t_.kw[0].size();
    if (kb_ == 0 || kb_ > 62) return "key words of " + std::to_string(kb_) + " bits";
    for (std::size_t i = 0; i < n; ++i) {
      if (t_.vw[i].size() != d_) return "value row " + std::to_string(i) + " is not d wires";
      for (std::size_t j = 0; j < d_; ++j) {
        const auto g = input(3 * i + 1, j);
        if (!g || t_.vw[i][j].id != *g) return "value row " + std::to_string(i) + " is not the inputs u[" + std::to_string(3 * i + 1) + "][*]";
      }
    }
    std::vector<std::uint64_t> W;  // the table of word values by token, from the first row
    for (std::size_t i = 0; i < n; ++i)
      for (int kind = 0; kind < 2; ++kind) {
        const Word& w = kind == 0 ? t_.kw[i] : t_.qw[i];
        const std::size_t row = kind == 0 ? 3 * i : 3 * i + 2;
        if (w.size() != kb_) return "word of row " + std::to_string(row) + " is not " + std::to_string(kb_) + " bits";
        std::unordered_map<GateId, int> slot;  // this row's inputs -> column
        for (std::size_t j = 0; j < d_; ++j) {
          const auto g = input(row, j);
          if (!g) return "the circuit has no input u[" + std::to_string(row) + "][" + std::to_string(j) + "]";
          slot[*g] = static_cast<int>(j);
        }
        for (std::size_t tok = 0; tok < cfg_.codec.c; ++tok) {
          const std::vector<std::int64_t> cw = mqar::encode_token(cfg_.codec, static_cast<std::int64_t>(tok));
          std::uint64_t v = 0;
          std::unordered_map<GateId, int> val;  // shared by the word's bits
          for (std::size_t b = 0; b < kb_; ++b) {
            const int bit = eval(w[b].id, slot, cw, val);
            if (bit < 0) return why_;
            v |= static_cast<std::uint64_t>(bit) << b;
          }
          if (i == 0 && kind == 0) W.push_back(v);
          else if (W[tok] != v)
            return "row " + std::to_string(row) + "'s word of token " + std::to_string(tok) + " differs from row 0's";
        }
        ++r.leaf_words;
      }
    std::vector<std::uint64_t> s = W;
    std::sort(s.begin(), s.end());
    if (std::adjacent_find(s.begin(), s.end()) != s.end()) return "two tokens have the same comparison word";
    return "";
  }

  // The exact 0/1 value of Bit wire id when only `slot`'s inputs are set (to cw); -1 (why_) when
  // its cone reads another input or a Field gate. val: values known so far (same slot and cw).
  int eval(GateId root, const std::unordered_map<GateId, int>& slot, const std::vector<std::int64_t>& cw,
           std::unordered_map<GateId, int>& val) {
    std::vector<std::pair<GateId, bool>> stack{{root, false}};
    while (!stack.empty()) {
      auto [id, expanded] = stack.back();
      stack.pop_back();
      if (val.count(id)) continue;
      const circuits::Gate g = c_.gate(id);
      if (g.op == circuits::Op::Input) {
        auto it = slot.find(id);
        if (it == slot.end()) {
          why_ = "a word's cone reads input " + c_.input_name(g.a) + " of another row";
          return -1;
        }
        val[id] = static_cast<int>(cw[static_cast<std::size_t>(it->second)] != 0);
        continue;
      }
      if (g.op == circuits::Op::Const) {
        const Rat& v = c_.const_value(id);
        if (v != Rat(0) && v != Rat(1)) {
          why_ = "a word's cone has a constant that is not 0/1";
          return -1;
        }
        val[id] = v == Rat(1);
        continue;
      }
      if (!c_.is_bit(id)) {
        why_ = "a word's cone has a Field gate";
        return -1;
      }
      const circuits::BitDef bd = c_.bit_def(id);
      const GateId ops[3] = {bd.x, bd.y, bd.z};
      const int ar = circuits::bool_arity(bd.op);
      if (expanded) {
        val[id] = circuits::bool_apply(bd.op, ar > 0 && val.at(ops[0]), ar > 1 && val.at(ops[1]), ar > 2 && val.at(ops[2]));
        continue;
      }
      stack.push_back({id, true});
      for (int k = 0; k < ar; ++k) stack.push_back({ops[k], false});
    }
    return val.at(root);
  }

  // Step 2: a node's sorted records (key ++ value for keys, the word for queries), threaded
  // through its merge; the merge's comparators become one miter; false (why_) when the trace
  // does not fit.
  bool sorted(int id, bool keys, DyStageResult& r) {
    auto& memo = keys ? sk_ : sq_;
    auto& slot = memo[static_cast<std::size_t>(id)];
    if (slot) return true;
    const DyadicNode& nd = nodes_[static_cast<std::size_t>(id)];
    const std::string kind = keys ? "key" : "query";
    if (nd.left < 0) {
      const std::size_t i = nd.members[0];
      slot = std::vector<Word>{keys ? cat(t_.kw[i], t_.vw[i]) : t_.qw[i]};
      return true;
    }
    const DyNodeTrace& tn = t_.nodes[static_cast<std::size_t>(id)];
    if ((keys ? tn.key_merge : tn.query_merge).empty()) return fail("node " + std::to_string(id) + "'s " + kind + " merge is not in the trace");
    if (!sorted(nd.left, keys, r) || !sorted(nd.right, keys, r)) return false;
    std::vector<Word> pos = *memo[static_cast<std::size_t>(nd.left)];
    const auto& right = *memo[static_cast<std::size_t>(nd.right)];
    pos.insert(pos.end(), right.begin(), right.end());
    const std::size_t m = pos.size(), width = kb_ + (keys ? d_ : 0);
    if (m % 2 || (*memo[static_cast<std::size_t>(nd.left)]).size() != m / 2) return fail("node " + std::to_string(id) + "'s children differ in size");
    Miter mt;
    mt.what = "node " + std::to_string(id) + "'s " + kind + " merge";
    sat::Gates g(mt.cnf);
    int bad = g.f();
    std::vector<std::pair<std::size_t, std::size_t>> net;
    for (const dy::Step& st : keys ? tn.key_merge : tn.query_merge) {
      if (st.i >= m || st.j >= m || st.i == st.j || st.lo.size() != width || st.hi.size() != width)
        return fail(mt.what + ": a comparator does not fit the records");
      sat::CutCone cone(c_, g, 64 * width + 256);
      const std::vector<int> a = cone.free(pos[st.i]), b = cone.free(pos[st.j]);
      const int s = cone.lit(st.s.id);
      const std::vector<int> lo = cone.lits(st.lo), hi = cone.lits(st.hi);
      if (!s || lo.empty() || hi.empty()) return fail(mt.what + ": " + cone.why());
      const int ok = g.and_(g.and_(-g.xor_(s, sat::lits_less(g, part(b, 0, kb_), part(a, 0, kb_))),
                                   sat::lits_equal(g, lo, sat::lits_mux(g, s, b, a))),
                            sat::lits_equal(g, hi, sat::lits_mux(g, s, a, b)));
      bad = g.or_(bad, -ok);
      net.emplace_back(st.i, st.j);
      pos[st.i] = st.lo;
      pos[st.j] = st.hi;
      ++r.route_steps;
    }
    if (!merges(net, m / 2)) return fail(mt.what + " does not merge two sorted halves (0-1 check)");
    ++r.mergers;
    keep(std::move(mt), bad, g);
    slot = std::move(pos);
    return true;
  }

  // Every 0-1 input whose halves (h each) are sorted comes out sorted (min to position i).
  static bool merges(const std::vector<std::pair<std::size_t, std::size_t>>& net, std::size_t h) {
    std::vector<int> x(2 * h);
    for (std::size_t a = 0; a <= h; ++a)
      for (std::size_t b = 0; b <= h; ++b) {
        for (std::size_t k = 0; k < h; ++k) {
          x[k] = k >= a;
          x[h + k] = k >= b;
        }
        for (auto [i, j] : net) {
          const int lo = x[i] & x[j], hi = x[i] | x[j];
          x[i] = lo;
          x[j] = hi;
        }
        if (!std::is_sorted(x.begin(), x.end())) return false;
      }
    return true;
  }

  // Step 3: the block of internal node id on free sorted keys and queries: one miter for the
  // block, or (blocks of at least split_ queries) one per query position, each with every
  // assumption: a query's answer reads the pbs calls above it, not the whole block.
  std::string block_miter(int id, DyStageResult& r) {
    const DyadicNode& nd = nodes_[static_cast<std::size_t>(id)];
    const auto& K = *sk_[static_cast<std::size_t>(nd.left)];
    const auto& Q = *sq_[static_cast<std::size_t>(nd.right)];
    const auto& res = t_.nodes[static_cast<std::size_t>(id)].res;
    const std::string what = "block " + std::to_string(id) + " (" + std::to_string(K.size()) + " keys, " + std::to_string(Q.size()) + " queries)";
    if (res.size() != Q.size()) return what + ": the trace has " + std::to_string(res.size()) + " answers";
    for (const Word& w : res)
      if (w.size() != rw_) return what + ": an answer word is not 1 + d bits";
    const auto& calls = t_.nodes[static_cast<std::size_t>(id)].pbs_calls;
    if (pbs_calls_ && Q.size() >= pbs_calls_ && !calls.empty()) {
      std::vector<PbsObligation> obs;
      if (std::string why = pbs_call_obligations(c_, K, kb_, Q, calls, res, what, obs, across_); !why.empty()) return why;
      for (PbsObligation& ob : obs) miters_.push_back({std::move(ob.what), std::move(ob.cnf), true});
      ++r.pbs_blocks;
      r.pbs_obligations += obs.size();
      return "";
    }
    const bool split = Q.size() >= split_;
    for (std::size_t from = 0; from < Q.size(); from += split ? 1 : Q.size()) {
      const std::size_t to = split ? from + 1 : Q.size();
      Miter mt;
      mt.what = split ? what + ", query " + std::to_string(from) : what;
      mt.block = true;
      sat::Gates g(mt.cnf);
      sat::CutCone cone(c_, g, c_.size());
      std::vector<std::vector<int>> k, q;
      for (const Word& w : K) k.push_back(cone.free(w));
      for (const Word& w : Q) q.push_back(cone.free(w));
      for (std::size_t j = 0; j + 1 < k.size(); ++j) {  // keys strictly ascending
        const int lt = sat::lits_less(g, part(k[j], 0, kb_), part(k[j + 1], 0, kb_));
        if (lt != g.t()) mt.cnf.add({lt});
      }
      for (std::size_t p = 0; p + 1 < q.size(); ++p) {  // queries ascending
        const int gt = sat::lits_less(g, q[p + 1], q[p]);
        if (gt != g.f()) mt.cnf.add({-gt});
      }
      int bad = g.f();
      for (std::size_t p = from; p < to; ++p) {
        const std::vector<int> got = cone.lits(res[p]);
        if (got.empty()) return what + ": " + cone.why();
        int found = g.f();
        std::vector<int> val(d_, g.f());
        for (const auto& kj : k) {
          const int eq = sat::lits_equal(g, part(kj, 0, kb_), q[p]);
          found = g.or_(found, eq);
          for (std::size_t b = 0; b < d_; ++b) val[b] = g.or_(val[b], g.and_(eq, kj[kb_ + b]));
        }
        std::vector<int> want{found};
        want.insert(want.end(), val.begin(), val.end());
        bad = g.or_(bad, -sat::lits_equal(g, got, want));
      }
      keep(std::move(mt), bad, g);
    }
    return "";
  }

  // Step 4: the top-down pass, node by node (acc: the words arriving, in this node's sorted query
  // order); one miter per node for its unroute steps and OR words.
  bool down(int id, std::optional<std::vector<Word>> acc, DyStageResult& r) {
    const DyadicNode& nd = nodes_[static_cast<std::size_t>(id)];
    if (nd.left < 0) {
      if (acc) answer_[nd.members[0]] = (*acc)[0];
      return true;
    }
    const DyNodeTrace& tn = t_.nodes[static_cast<std::size_t>(id)];
    const std::size_t h = nd.members.size() / 2;
    if (tn.res.size() != h || tn.acc_right.size() != h) return fail("node " + std::to_string(id) + "'s answers are not one per query");
    std::optional<std::vector<Word>> accL;
    std::vector<Word> accR = tn.res;
    if (acc) {
      const auto& route = tn.query_merge;
      if (route.empty() || tn.unroute.size() != route.size() || acc->size() != nd.members.size())
        return fail("node " + std::to_string(id) + "'s routing back does not match its query merge");
      Miter mt;
      mt.what = "node " + std::to_string(id) + "'s routing back";
      sat::Gates g(mt.cnf);
      int bad = g.f();
      std::vector<Word> w = *acc;
      for (std::size_t k = 0; k < route.size(); ++k) {
        const dy::Step& u = tn.unroute[k];
        const dy::Step& f = route[route.size() - 1 - k];
        if (u.i != f.i || u.j != f.j || u.s.id != f.s.id || u.lo.size() != rw_ || u.hi.size() != rw_ ||
            w[u.i].size() != rw_ || w[u.j].size() != rw_)
          return fail(mt.what + ": step " + std::to_string(k) + " is not its comparator run backwards");
        sat::CutCone cone(c_, g, 64 * rw_ + 256);
        const std::vector<int> a = cone.free(w[u.i]), b = cone.free(w[u.j]);
        const int s = cone.free({u.s})[0];
        const std::vector<int> lo = cone.lits(u.lo), hi = cone.lits(u.hi);
        if (lo.empty() || hi.empty()) return fail(mt.what + ": " + cone.why());
        bad = g.or_(bad, -g.and_(sat::lits_equal(g, lo, sat::lits_mux(g, s, b, a)), sat::lits_equal(g, hi, sat::lits_mux(g, s, a, b))));
        w[u.i] = u.lo;
        w[u.j] = u.hi;
        ++r.unroute_steps;
      }
      accL = std::vector<Word>(w.begin(), w.begin() + static_cast<long>(h));
      for (std::size_t p = 0; p < h; ++p) {  // acc_right = (routed back) OR (this block's answers)
        if (tn.res[p].size() != rw_ || tn.acc_right[p].size() != rw_) return fail(mt.what + ": an OR word is not 1 + d bits");
        sat::CutCone cone(c_, g, 16 * rw_ + 64);
        const std::vector<int> x = cone.free(w[h + p]), y = cone.free(tn.res[p]);
        const std::vector<int> o = cone.lits(tn.acc_right[p]);
        if (o.empty()) return fail(mt.what + ": " + cone.why());
        std::vector<int> want;
        for (std::size_t b = 0; b < rw_; ++b) want.push_back(g.or_(x[b], y[b]));
        bad = g.or_(bad, -sat::lits_equal(g, o, want));
        ++r.or_words;
      }
      keep(std::move(mt), bad, g);
      accR = tn.acc_right;
    } else {
      for (std::size_t p = 0; p < h; ++p)
        if (tn.acc_right[p] != tn.res[p]) return fail("node " + std::to_string(id) + ": with nothing arriving, its right child must get its answers");
    }
    return down(nd.left, accL, r) && down(nd.right, accR, r);
  }

  // The outputs are the leaves' answer words (constant 0 where nothing arrives: query 0).
  std::string outputs() {
    const bool found = cfg_.found_output;
    const std::size_t per = d_ + (found ? 1 : 0);
    if (c_.outputs().size() != cfg_.n * per) return "the circuit has " + std::to_string(c_.outputs().size()) + " outputs, not n·" + std::to_string(per);
    std::map<std::string, GateId> out;
    for (const auto& o : c_.outputs()) out[o.name] = o.gate;
    for (std::size_t i = 0; i < cfg_.n; ++i)
      for (std::size_t j = 0; j < per; ++j) {
        const std::string nm = "y[" + std::to_string(3 * i + 2) + "][" + std::to_string(j) + "]";
        auto it = out.find(nm);
        if (it == out.end()) return "output " + nm + " is missing";
        const std::size_t b = j < d_ ? 1 + j : 0;  // column d is the found bit
        if (answer_[i]) {
          if ((*answer_[i])[b].id != it->second) return "output " + nm + " is not query " + std::to_string(i) + "'s routed answer";
        } else if (c_.gate(it->second).op != circuits::Op::Const || c_.const_value(it->second) != Rat(0)) {
          return "output " + nm + " of query " + std::to_string(i) + " (no earlier key) is not the constant 0";
        }
      }
    return "";
  }

  // A miter to solve: bad must be false. Folded to false it holds structurally (nothing to solve);
  // folded to true it stays, as a trivially SAT CNF, so that it fails like any other.
  void keep(Miter mt, int bad, sat::Gates& g) {
    if (bad == g.f()) return;
    mt.cnf.add({bad});
    miters_.push_back(std::move(mt));
  }

  bool fail(std::string why) {
    why_ = std::move(why);
    return false;
  }

  const Circuit& c_;
  const DyadicTrace& t_;
  const DyadicConfig& cfg_;
  const std::size_t d_, rw_, split_, pbs_calls_;
  const bool across_;
  std::size_t kb_ = 0;
  std::vector<DyadicNode> nodes_;
  std::map<std::string, GateId> input_;
  std::vector<std::optional<std::vector<Word>>> sk_, sq_;
  std::vector<std::optional<Word>> answer_;
  std::string why_;
};

}  // namespace

DyStageResult prove_dyadic_stages(const Circuit& c, const DyadicTrace& t, const DyadicConfig& cfg,
                                  const circuits::sat::SolverSpec& solver, const DyStageOptions& o) {
  using St = DyStageResult::Status;
  const auto t0 = Clock::now();
  DyStageResult r;
  Prover pv(c, t, cfg, o.split_block, o.pbs_call_block, o.pbs_across);
  const std::string why = pv.build(r);
  r.structure_s = since(t0);
  if (!why.empty()) {
    r.status = St::NotRecognised;
    r.why = why;
    return r;
  }
  // Local miters first (small), then the blocks, largest first; `threads` solver processes; the
  // first miter that is not UNSAT ends the run (no proof; the caller falls back).
  std::vector<Miter>& ms = pv.miters_;
  std::stable_sort(ms.begin(), ms.end(), [](const Miter& a, const Miter& b) {
    if (a.block != b.block) return !a.block;
    return a.block && a.cnf.num_clauses > b.cnf.num_clauses;
  });
  if (o.on_built) o.on_built(ms.size());
  std::vector<const sat::Cnf*> batch;
  for (const Miter& m : ms) batch.push_back(&m.cnf);
  sat::BatchOptions bo;
  bo.timeout_s = o.timeout_s - since(t0);
  bo.threads = o.threads;
  bo.cancel = o.cancel;
  bo.second = o.second ? &*o.second : nullptr;
  bo.stop_at_first = true;
  bo.what = [&](std::size_t k) { return ms[k].what; };
  if (o.on_start) bo.started = [&](std::size_t k) { o.on_start(k, ms[k].what); };
  bo.finished = o.on_done;
  bo.runner = o.runner;
  const std::vector<sat::SolveResult> res = sat::solve_batch(solver, batch, bo);
  std::optional<std::size_t> sat_at, unknown_at;
  for (std::size_t k = 0; k < ms.size(); ++k) {
    const sat::SolveResult& q = res[k];
    if (q.answer == sat::Answer::Sat && !sat_at) sat_at = k;
    if (q.answer == sat::Answer::Unknown && q.why != "not run" && !unknown_at) unknown_at = k;
    if (q.answer == sat::Answer::Unknown && q.why == "not run") continue;
    ++r.miters;
    r.vars += static_cast<std::size_t>(ms[k].cnf.num_vars);
    r.clauses += ms[k].cnf.num_clauses;
    r.max_vars = std::max(r.max_vars, static_cast<std::size_t>(ms[k].cnf.num_vars));
    r.max_clauses = std::max(r.max_clauses, ms[k].cnf.num_clauses);
    (ms[k].block ? r.block_s : r.local_s) += q.seconds;
    if (ms[k].block) r.max_block_s = std::max(r.max_block_s, q.seconds);
    if (q.answer == sat::Answer::Unsat && o.second) ++r.confirmed;
  }
  if (sat_at) {
    r.status = St::Failed;
    r.why = ms[*sat_at].what + ": the miter is SAT (the stage misbehaves for some values of its cut wires)";
  } else if (unknown_at) {
    r.status = St::Undecided;
    r.why = ms[*unknown_at].what + ": " + res[*unknown_at].why;
  } else {
    r.status = St::Proved;
  }
  return r;
}

}  // namespace cz::mqarc
