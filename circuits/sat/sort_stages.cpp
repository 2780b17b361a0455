#include "circuits/sat/sort_stages.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <unordered_map>

#include "circuits/sat/cnf.h"
#include "circuits/sat/solve_hook.h"

namespace cz::circuits::sat {

namespace {

using Clock = std::chrono::steady_clock;
using gadgets::Item;
double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// -1 unless w is a 0/1 constant gate.
int const_of(const Circuit& c, Wire w) {
  if (w.id >= c.size() || c.gate(w.id).op != Op::Const) return -1;
  const Rat& v = c.const_value(w.id);
  return v == Rat(0) ? 0 : v == Rat(1) ? 1 : -1;
}

// "key<i>[<b>]" / "idx<i>[<b>]", digits written as std::to_string writes them.
bool parse_out(const std::string& nm, bool& is_key, std::size_t& i, std::size_t& b) {
  if (nm.size() < 6) return false;
  const std::string pre = nm.substr(0, 3);
  if (pre != "key" && pre != "idx") return false;
  const std::size_t br = nm.find('[', 3);
  if (br == std::string::npos || br == 3 || nm.back() != ']') return false;
  try {
    i = std::stoul(nm.substr(3, br - 3));
    b = std::stoul(nm.substr(br + 1, nm.size() - br - 2));
  } catch (const std::exception&) {
    return false;
  }
  is_key = pre == "key";
  return nm == pre + std::to_string(i) + "[" + std::to_string(b) + "]";
}

std::vector<Wire> wires_of(const Item& it) {
  std::vector<Wire> v = it.key;
  v.insert(v.end(), it.payload.begin(), it.payload.end());
  return v;
}

// NOT ((lo, hi) = (a, b) or (b, a) as whole words, and lo's first key_bits <= hi's), on literals.
int comparator_bad(Gates& g, const std::vector<int>& lo, const std::vector<int>& hi, const std::vector<int>& a,
                   const std::vector<int>& b, std::size_t key_bits) {
  const int T = g.t();
  auto eq = [&](const std::vector<int>& x, const std::vector<int>& y) {
    int r = T;
    for (std::size_t k = 0; k < x.size(); ++k) r = g.and_(r, -g.xor_(x[k], y[k]));
    return r;
  };
  // [hi.key < lo.key], least significant bit first: where the bits differ, the higher one decides.
  int lt = -T;
  for (std::size_t k = 0; k < key_bits; ++k) lt = g.mux(g.xor_(hi[k], lo[k]), lo[k], lt);
  const int swapped_ok = g.or_(g.and_(eq(lo, a), eq(hi, b)), g.and_(eq(lo, b), eq(hi, a)));
  return -g.and_(swapped_ok, -lt);
}

// The local miter of one comparator (see the header, step 2). Leaves: constants (fixed), inputs
// and `known` wires (items before this comparator), numbered a's wires first, then b's, then in
// walk order, so that two comparators with the same cone shape give the same CNF. Returns "" or
// why the cone is not one this proof takes (a Field gate, or not cut within `cap` gates).
std::string local_miter(const Circuit& c, const std::vector<std::uint8_t>& known, const Item& a, const Item& b,
                        const Item& lo, const Item& hi, std::size_t cap, Cnf& cnf, int& bad) {
  Gates g(cnf);
  const int T = g.t();
  std::unordered_map<GateId, int> lit;
  auto leaf = [&](GateId id) {
    auto it = lit.find(id);
    if (it != lit.end()) return it->second;
    const int cv = const_of(c, Wire{id});
    const int l = cv == 1 ? T : cv == 0 ? -T : cnf.new_var();
    lit.emplace(id, l);
    return l;
  };
  for (const Item* it : {&a, &b})
    for (Wire w : wires_of(*it)) leaf(w.id);
  std::size_t encoded = 0;
  std::string why;
  auto enc = [&](GateId root) -> int {
    std::vector<std::pair<GateId, bool>> stack{{root, false}};
    while (!stack.empty() && why.empty()) {
      auto [id, expanded] = stack.back();
      stack.pop_back();
      if (lit.count(id)) continue;
      const Gate gt = c.gate(id);
      if (gt.op == Op::Const || gt.op == Op::Input || known[id]) {
        if (gt.op == Op::Const && const_of(c, Wire{id}) < 0) why = "constant gate " + std::to_string(id) + " is not 0/1";
        leaf(id);
        continue;
      }
      if (!c.is_bit(id)) {
        why = "gate " + std::to_string(id) + " in a comparator's cone is a Field wire";
        break;
      }
      const BitDef d = c.bit_def(id);
      const GateId ops[3] = {d.x, d.y, d.z};
      const int ar = bool_arity(d.op);
      if (expanded) {
        // (inputs are leaves above, so BitDef's Input case is not reached)
        lit.emplace(id, bit_def_lit(g, d, [&](GateId x) { return lit.at(x); }));
        if (++encoded > cap) why = "a comparator's cone is not cut at its inputs within " + std::to_string(cap) + " gates";
        continue;
      }
      stack.push_back({id, true});
      for (int k = 0; k < ar; ++k)
        if (!lit.count(ops[k])) stack.push_back({ops[k], false});
    }
    return why.empty() ? lit.at(root) : 0;
  };
  std::vector<int> L[4];
  const Item* outs[2] = {&lo, &hi};
  for (int k = 0; k < 2; ++k)
    for (Wire w : wires_of(*outs[k])) {
      const int l = enc(w.id);
      if (!why.empty()) return why;
      L[k].push_back(l);
    }
  for (Wire w : wires_of(a)) L[2].push_back(lit.at(w.id));
  for (Wire w : wires_of(b)) L[3].push_back(lit.at(w.id));
  bad = comparator_bad(g, L[0], L[1], L[2], L[3], lo.key.size());
  if (bad != T && bad != -T) cnf.add({bad});
  return "";
}

}  // namespace

StageStructure check_sort_structure(const Circuit& c, const gadgets::NetworkTrace& t, const SortShape& s) {
  StageStructure r;
  auto fail = [&](std::string why) {
    r.ok = false;
    r.why = std::move(why);
    r.net.clear();
    return r;
  };
  const std::size_t m = t.initial.size(), n = s.n, d = s.d, w = s.w;
  if (n == 0 || m < n) return fail("the trace has " + std::to_string(m) + " positions for " + std::to_string(n) + " keys");
  const std::size_t D = t.initial[0].key.size();
  if (D < d || D > 63) return fail("the trace's keys have " + std::to_string(D) + " bits for d = " + std::to_string(d));
  if (w >= 64 || (n - 1) >> w) return fail("the payload has too few bits for the indices");
  auto shape_ok = [&](const Item& it) {
    if (it.key.size() != D || it.payload.size() != w) return false;
    for (Wire x : wires_of(it))
      if (x.id >= c.size() || !c.is_bit(x.id)) return false;
    return true;
  };
  if (c.num_inputs() != n * d) return fail("the circuit has " + std::to_string(c.num_inputs()) + " inputs, not n·d");
  std::vector<std::uint8_t> input_used(c.num_inputs(), 0);
  for (std::size_t i = 0; i < m; ++i) {
    const Item& it = t.initial[i];
    if (!shape_ok(it)) return fail("initial item " + std::to_string(i) + " has the wrong shape or a non-Bit wire");
    bool above = false;  // a sentinel's key has a constant 1 at a bit >= d: larger than every real key
    for (std::size_t b = 0; b < D; ++b) {
      const Gate gt = c.gate(it.key[b].id);
      if (i < n && b < d) {
        const std::string want = "k" + std::to_string(i) + "[" + std::to_string(b) + "]";
        if (gt.op != Op::Input || gt.a >= c.num_inputs() || c.input_name(gt.a) != want || input_used[gt.a]++)
          return fail("initial key bit " + want + " is not that circuit input");
      } else {
        const int v = const_of(c, it.key[b]);
        if (v < 0 || (i < n && v != 0)) return fail("initial item " + std::to_string(i) + ": key bit " + std::to_string(b) + " is not the constant it must be");
        if (b >= d && v == 1) above = true;
      }
    }
    if (i >= n && !above) return fail("sentinel " + std::to_string(i) + " is not above every real key");
    for (std::size_t b = 0; b < w; ++b) {
      const int v = const_of(c, it.payload[b]);
      if (v < 0 || (i < n && v != static_cast<int>((i >> b) & 1)))
        return fail("initial item " + std::to_string(i) + ": payload bit " + std::to_string(b) + " is not the index's constant");
    }
  }
  std::vector<Item> pos = t.initial;
  for (std::size_t k = 0; k < t.steps.size(); ++k) {
    const auto& st = t.steps[k];
    if (st.i == st.j || st.i >= m || st.j >= m) return fail("comparator " + std::to_string(k) + " has positions out of range");
    if (!shape_ok(st.lo) || !shape_ok(st.hi)) return fail("comparator " + std::to_string(k) + " has the wrong shape or a non-Bit wire");
    r.net.emplace_back(st.i, st.j);
    pos[st.i] = st.lo;
    pos[st.j] = st.hi;
  }
  const auto& outs = c.outputs();
  if (outs.size() != n * (d + w)) return fail("the circuit has " + std::to_string(outs.size()) + " outputs, not n·(d + w)");
  std::vector<std::uint8_t> seen(n * (d + w), 0);
  for (const auto& o : outs) {
    bool is_key = false;
    std::size_t i = 0, b = 0;
    if (!parse_out(o.name, is_key, i, b) || i >= n || b >= (is_key ? d : w)) return fail("output " + o.name + " is not key<i>[b] or idx<i>[b]");
    if (seen[i * (d + w) + (is_key ? b : d + b)]++) return fail("output " + o.name + " appears twice");
    if (o.gate != (is_key ? pos[i].key[b] : pos[i].payload[b]).id) return fail("output " + o.name + " is not the network's final wire there");
  }
  r.ok = true;
  r.positions = m;
  r.key_bits = D;
  return r;
}

std::optional<std::vector<int>> zero_one_counterexample(const gadgets::Network& net, std::size_t m, std::size_t n,
                                                        const std::string& method, const SolverSpec& solver,
                                                        double timeout_s, unsigned threads, ZeroOneStats* stats,
                                                        const std::atomic<bool>* cancel, const SolverSpec* second) {
  const auto t0 = Clock::now();
  if (method == "exhaustive") {
    if (n > 40) throw std::logic_error("zero_one_counterexample: exhaustive past 2^40");
    // 64 vectors per word: variables 0..5 vary within the word, the rest come from the block.
    static const std::uint64_t pat[6] = {0xAAAAAAAAAAAAAAAAull, 0xCCCCCCCCCCCCCCCCull, 0xF0F0F0F0F0F0F0F0ull,
                                         0xFF00FF00FF00FF00ull, 0xFFFF0000FFFF0000ull, 0xFFFFFFFF00000000ull};
    const std::size_t lo_vars = std::min<std::size_t>(n, 6);
    const std::uint64_t lanes = lo_vars == 6 ? ~0ull : ((1ull << (1u << lo_vars)) - 1);
    const std::uint64_t blocks = n > 6 ? (1ull << (n - 6)) : 1;
    std::atomic<std::uint64_t> best{~0ull};  // lowest failing vector (block·64 + lane)
    std::atomic<bool> out_of_time{false};
    auto work = [&](std::uint64_t from, std::uint64_t to) {
      std::vector<std::uint64_t> v(m);
      for (std::uint64_t B = from; B < to; ++B) {
        if ((B & 0xffff) == 0 && (since(t0) > timeout_s || (cancel && cancel->load()))) {
          out_of_time = true;
          return;
        }
        if (B * 64 > best.load()) return;
        for (std::size_t k = 0; k < m; ++k)
          v[k] = k >= n ? ~0ull : k < 6 ? pat[k] : (((B >> (k - 6)) & 1) ? ~0ull : 0);
        for (auto [i, j] : net) {
          const std::uint64_t a = v[i], b = v[j];
          v[i] = a & b, v[j] = a | b;
        }
        std::uint64_t badl = 0;
        for (std::size_t p = 0; p + 1 < m; ++p) badl |= v[p] & ~v[p + 1];
        badl &= lanes;
        if (badl) {
          const std::uint64_t at = B * 64 + static_cast<std::uint64_t>(__builtin_ctzll(badl));
          std::uint64_t cur = best.load();
          while (at < cur && !best.compare_exchange_weak(cur, at)) {
          }
          return;
        }
      }
    };
    const unsigned T = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>(std::min<std::uint64_t>(blocks, 64))));
    std::vector<std::thread> pool;
    for (unsigned k = 0; k < T; ++k) pool.emplace_back(work, blocks * k / T, blocks * (k + 1) / T);
    for (auto& th : pool) th.join();
    if (best.load() != ~0ull) {  // a failure found is a failure, even if another thread ran out of time
      std::vector<int> x(n);
      const std::uint64_t B = best.load() / 64, lane = best.load() % 64;
      for (std::size_t k = 0; k < n; ++k) x[k] = static_cast<int>(k < 6 ? (lane >> k) & 1 : (B >> (k - 6)) & 1);
      return x;
    }
    if (out_of_time) throw std::runtime_error(cancel && cancel->load() ? "cancelled" : "time limit");
    return std::nullopt;
  }
  if (method != "sat") throw std::logic_error("zero_one_counterexample: method " + method);
  Cnf cnf;
  Gates g(cnf);
  const int T = g.t();
  std::vector<int> x(n), v(m, T);
  for (std::size_t k = 0; k < n; ++k) v[k] = x[k] = cnf.new_var();
  for (auto [i, j] : net) {
    const int a = v[i], b = v[j];
    v[i] = g.and_(a, b), v[j] = g.or_(a, b);
  }
  int any = -T;  // some adjacent pair out of order (1 before 0)
  for (std::size_t p = 0; p + 1 < m; ++p) any = g.or_(any, g.and_(v[p], -v[p + 1]));
  if (stats) *stats = {static_cast<std::size_t>(cnf.num_vars), cnf.num_clauses};
  if (any == -T) return std::nullopt;
  cnf.add({any});
  const MiterLabel label("the 0-1 miter");
  const SolveResult r = solve(solver, cnf, std::max(0.1, timeout_s - since(t0)), nullptr, cancel);
  if (stats) *stats = {static_cast<std::size_t>(cnf.num_vars), cnf.num_clauses};
  if (r.answer == Answer::Unknown) throw std::runtime_error(r.why);
  if (r.answer == Answer::Unsat) {
    if (second) {
      const std::string why = confirm_unsat(*second, cnf, timeout_s - since(t0), "the 0-1 miter", cancel);
      if (!why.empty()) throw std::runtime_error(why);
    }
    return std::nullopt;
  }
  std::vector<int> bits(n);
  for (std::size_t k = 0; k < n; ++k) bits[k] = r.model.at(static_cast<std::size_t>(x[k])) == 1;
  return bits;
}

StageResult prove_sort_stages(const Circuit& c, const gadgets::NetworkTrace& t, const SortShape& s, const SolverSpec& solver,
                              const StageOptions& o) {
  using St = StageResult::Status;
  const auto t0 = Clock::now();
  StageResult r;
  const StageStructure st = check_sort_structure(c, t, s);
  r.structure_s = since(t0);
  if (!st.ok) {
    r.status = St::NotRecognised;
    r.why = st.why;
    return r;
  }
  r.comparators = st.net.size();
  std::atomic<std::size_t> confirmed{0};  // the worker threads count too
  auto done = [&] {
    r.confirmed = confirmed;
    return r;
  };
  // --confirm: "" when the second solver agrees (or there is none), else why it did not answer.
  auto confirm = [&](const Cnf& f, const std::string& what) -> std::string {
    if (!o.second) return "";
    const std::string why = confirm_unsat(*o.second, f, o.timeout_s - since(t0), what, o.cancel);
    if (why.empty()) ++confirmed;
    return why;
  };
  // Step 2: one CNF per comparator, in order (the cut set grows with it); identical CNFs once.
  const auto t1 = Clock::now();
  std::vector<std::uint8_t> known(c.size(), 0);
  auto mark = [&](const Item& it) {
    for (Wire w : wires_of(it)) known[w.id] = 1;
  };
  for (const Item& it : t.initial) mark(it);
  std::vector<Item> pos = t.initial;
  const std::size_t cap = 64 * (st.key_bits + s.w) + 256;  // a compare-exchange is ~22 gates a bit
  std::map<std::pair<int, std::vector<int>>, std::size_t> distinct;
  std::vector<Cnf> cnfs;
  cnfs.reserve(t.steps.size());
  std::vector<std::size_t> trivially_bad;
  std::vector<long> step_cnf(t.steps.size(), -1);  // the distinct CNF standing for each comparator
  for (std::size_t k = 0; k < t.steps.size(); ++k) {
    const auto& stp = t.steps[k];
    Cnf cnf;
    int bad = 0;
    const std::string why = local_miter(c, known, pos[stp.i], pos[stp.j], stp.lo, stp.hi, cap, cnf, bad);
    if (!why.empty()) {
      r.status = St::NotRecognised;
      r.why = "comparator " + std::to_string(k) + ": " + why;
      return done();
    }
    ++r.local_miters;
    pos[stp.i] = stp.lo;
    pos[stp.j] = stp.hi;
    mark(stp.lo);
    mark(stp.hi);
    if (bad == -cnf.true_lit()) {
      ++r.local_folded;
      continue;
    }
    if (bad == cnf.true_lit()) {
      trivially_bad.push_back(k);
      continue;
    }
    auto [it, fresh] = distinct.emplace(std::make_pair(cnf.num_vars, cnf.lits), cnfs.size());
    step_cnf[k] = static_cast<long>(it->second);
    if (fresh) {
      cnfs.push_back(std::move(cnf));
    }
  }
  r.local_distinct = cnfs.size();
  for (const Cnf& f : cnfs) {
    r.local_vars += static_cast<std::size_t>(f.num_vars), r.local_clauses += f.num_clauses;
    r.local_max_vars = std::max(r.local_max_vars, static_cast<std::size_t>(f.num_vars));
    r.local_max_clauses = std::max(r.local_max_clauses, f.num_clauses);
  }
  std::vector<const Cnf*> batch;
  for (const Cnf& f : cnfs) batch.push_back(&f);
  BatchOptions bo;
  bo.timeout_s = o.timeout_s - since(t0);
  bo.threads = o.threads;
  bo.cancel = o.cancel;
  bo.second = o.second ? &*o.second : nullptr;
  bo.what = [](std::size_t q) { return "local miter " + std::to_string(q); };
  bo.runner = o.runner;
  const std::vector<SolveResult> res = solve_batch(solver, batch, bo);
  if (o.second)
    for (const SolveResult& q : res) confirmed += q.answer == Answer::Unsat ? 1 : 0;
  // Comparators whose local miter is SAT, in network order. Their leaf values need not be
  // reachable: each gets a prefix miter over the circuit's inputs (its whole input cone): SAT is a
  // circuit input on which it misbehaves (the engine evaluates the whole circuit on it); UNSAT
  // means it is a compare-exchange on every circuit input after all, which is all the composition
  // needs, so the proof goes on.
  std::vector<std::size_t> failing = trivially_bad;
  std::string undecided;
  for (std::size_t q = 0; q < cnfs.size(); ++q)
    if (res[q].answer == Answer::Unknown && undecided.empty()) undecided = res[q].why;
  for (std::size_t k = 0; k < step_cnf.size(); ++k)
    if (step_cnf[k] >= 0 && res[static_cast<std::size_t>(step_cnf[k])].answer == Answer::Sat) failing.push_back(k);
  std::sort(failing.begin(), failing.end());
  if (!failing.empty()) {
    std::vector<Item> p3 = t.initial;
    std::size_t next_fail = 0;
    for (std::size_t k = 0; k < t.steps.size() && next_fail < failing.size(); ++k) {
      const auto& stp = t.steps[k];
      if (k == failing[next_fail]) {
        ++next_fail;
        ++r.prefix_miters;
        Cnf cnf;
        Gates g(cnf);
        const int T = g.t();
        std::vector<int> in_var(c.num_inputs(), 0);
        Tseitin ts(g, c, [&](std::size_t in) { return in_var[in] ? in_var[in] : (in_var[in] = cnf.new_var()); });
        std::vector<int> L[4];
        const Item* items[4] = {&stp.lo, &stp.hi, &p3[stp.i], &p3[stp.j]};
        for (int q = 0; q < 4; ++q)
          for (Wire w : wires_of(*items[q])) L[q].push_back(ts.lit(w.id));
        const int bad = comparator_bad(g, L[0], L[1], L[2], L[3], stp.lo.key.size());
        SolveResult pr;
        if (bad == -T) {
          pr.answer = Answer::Unsat;
        } else if (bad == T) {
          pr.answer = Answer::Sat;
          pr.model.assign(static_cast<std::size_t>(cnf.num_vars) + 1, 0);
        } else {
          cnf.add({bad});
          r.prefix_clauses += cnf.num_clauses;
          const MiterLabel label("the prefix miter of comparator " + std::to_string(k));
          pr = solve(solver, cnf, std::max(0.1, o.timeout_s - since(t0)), nullptr, o.cancel);
          if (pr.answer == Answer::Unsat) {
            const std::string why = confirm(cnf, "the prefix miter of comparator " + std::to_string(k));
            if (!why.empty()) pr = SolveResult{Answer::Unknown, {}, 0, why};
          }
        }
        r.failed_step = k;
        r.why = "comparator " + std::to_string(k) + " (positions " + std::to_string(stp.i) + ", " + std::to_string(stp.j) +
                ") is not a compare-exchange of whole items for every value of its inputs";
        if (pr.answer == Answer::Sat) {
          r.status = St::LocalFailed;
          r.witness.assign(c.num_inputs(), 0);
          for (std::size_t in = 0; in < c.num_inputs(); ++in)
            if (in_var[in]) r.witness[in] = pr.model.at(static_cast<std::size_t>(in_var[in])) == 1;
          r.why += ", nor on the circuit input found for it";
          r.local_s = since(t1);
          return done();
        }
        if (pr.answer == Answer::Unknown) {
          r.status = St::LocalFailed;
          r.why += " (its prefix miter over the circuit's inputs: " + pr.why + ")";
          r.local_s = since(t1);
          return done();
        }
        ++r.prefix_unsat;  // a compare-exchange on every circuit input: the proof goes on
        r.why.clear();
      }
      p3[stp.i] = stp.lo, p3[stp.j] = stp.hi;
    }
  }
  r.local_s = since(t1);
  if (!undecided.empty()) {
    r.status = St::Undecided;
    r.why = "local miters: " + undecided;
    return done();
  }
  // Step 3.
  const auto t2 = Clock::now();
  r.zero_one_method = o.zero_one != "auto" ? o.zero_one : s.n <= 20 ? "exhaustive" : "sat";
  r.zero_one_vectors_log2 = s.n;
  ZeroOneStats zs;
  std::optional<std::vector<int>> bad01;
  try {
    bad01 = zero_one_counterexample(st.net, st.positions, s.n, r.zero_one_method, solver, o.timeout_s - since(t0), o.threads,
                                    &zs, o.cancel, o.second ? &*o.second : nullptr);
    if (o.second && r.zero_one_method == "sat" && !bad01) ++confirmed;
  } catch (const std::runtime_error& e) {
    r.zero_one_s = since(t2);
    r.status = St::Undecided;
    r.why = std::string("0-1 check: ") + e.what();
    return done();
  }
  r.zero_one_s = since(t2);
  r.zero_one_vars = zs.vars;
  r.zero_one_clauses = zs.clauses;
  if (bad01) {
    r.status = St::ZeroOneFailed;
    r.zero_one_input = *bad01;
    r.why = "the comparator network leaves a 0-1 vector unsorted";
    return done();
  }
  r.status = St::Proved;
  return done();
}

}  // namespace cz::circuits::sat
