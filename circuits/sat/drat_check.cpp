// The DRAT checker (drat_check.h): readers, then the checker proper (forward pass to the first
// top-level conflict, backward pass over the core with core-first propagation).
#include "circuits/sat/drat_check.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <unordered_map>

#include "util/error.h"
#include "util/memory_budget.h"

namespace cz::circuits::sat {

namespace {

// ---- readers ------------------------------------------------------------------------------------

// A signed decimal at s[i..]; i moves past it. False when there is none or it overflows int.
bool read_int(std::string_view s, std::size_t& i, long long& out) {
  bool neg = false;
  std::size_t k = i;
  if (k < s.size() && s[k] == '-') neg = true, ++k;
  if (k >= s.size() || s[k] < '0' || s[k] > '9') return false;
  long long v = 0;
  for (; k < s.size() && s[k] >= '0' && s[k] <= '9'; ++k) {
    v = v * 10 + (s[k] - '0');
    if (v > std::numeric_limits<int>::max()) return false;
  }
  if (k < s.size() && !(s[k] == ' ' || s[k] == '\t' || s[k] == '\n' || s[k] == '\r')) return false;
  out = neg ? -v : v;
  i = k;
  return true;
}

bool space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string at_line(std::size_t line) { return " at line " + std::to_string(line); }

}  // namespace

DratFormula read_dimacs(std::string_view s, const std::string& where) {
  DratFormula f;
  bool header = false;
  std::size_t declared = 0, line = 1, i = 0;
  bool open = false;  // a clause begun and not yet ended by 0
  while (i < s.size()) {
    const char c = s[i];
    if (c == '\n') {
      ++line, ++i;
      continue;
    }
    if (space(c)) {
      ++i;
      continue;
    }
    if (c == 'c' && !open) {  // a comment runs to the end of its line
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    if (c == 'p') {
      if (header) throw InputError("DIMACS: a second 'p' line" + at_line(line), where);
      if (s.substr(i, 6) != "p cnf ") throw InputError("DIMACS: expected 'p cnf V C'" + at_line(line), where);
      i += 6;
      long long v = 0, n = 0;
      while (i < s.size() && s[i] == ' ') ++i;
      if (!read_int(s, i, v) || v < 0) throw InputError("DIMACS: bad variable count" + at_line(line), where);
      while (i < s.size() && s[i] == ' ') ++i;
      if (!read_int(s, i, n) || n < 0) throw InputError("DIMACS: bad clause count" + at_line(line), where);
      if (v > kDratMaxVar) throw InputError("DIMACS: more than 2^26 variables" + at_line(line), where);
      f.num_vars = static_cast<int>(v);
      declared = static_cast<std::size_t>(n);
      header = true;
      continue;
    }
    if (!header) throw InputError("DIMACS: a clause before the 'p cnf' line" + at_line(line), where);
    long long l = 0;
    if (!read_int(s, i, l)) throw InputError("DIMACS: expected a literal" + at_line(line), where);
    if (l < -f.num_vars || l > f.num_vars)
      throw InputError("DIMACS: literal " + std::to_string(l) + " past the " + std::to_string(f.num_vars) + " variables" + at_line(line), where);
    f.lits.push_back(static_cast<int>(l));
    if (l == 0) {
      ++f.num_clauses, open = false;
      if (f.num_clauses > declared) throw InputError("DIMACS: more clauses than the header's " + std::to_string(declared) + at_line(line), where);
    } else {
      open = true;
    }
  }
  if (!header) throw InputError("DIMACS: no 'p cnf' line", where);
  if (open) throw InputError("DIMACS: the last clause is not ended by 0", where);
  if (f.num_clauses != declared)
    throw InputError("DIMACS: " + std::to_string(f.num_clauses) + " clauses, the header says " + std::to_string(declared), where);
  return f;
}

DratProof read_drat(std::string_view s, const std::string& where) {
  DratProof p;
  p.binary = (!s.empty() && s[0] == 'a') || std::memchr(s.data(), 0, s.size()) != nullptr;
  auto lit_ok = [&](long long l, std::size_t at) {
    if (l > kDratMaxVar || l < -kDratMaxVar)
      throw InputError("DRAT: literal " + std::to_string(l) + " past 2^26 variables at byte " + std::to_string(at), where);
    p.max_var = std::max(p.max_var, static_cast<int>(l < 0 ? -l : l));
  };
  if (p.binary) {
    std::size_t i = 0;
    while (i < s.size()) {
      const std::size_t step_at = i;
      const unsigned char k = static_cast<unsigned char>(s[i++]);
      if (k != 'a' && k != 'd') throw InputError("binary DRAT: expected 'a' or 'd' at byte " + std::to_string(step_at), where);
      p.deletion.push_back(k == 'd');
      for (;;) {
        std::uint64_t u = 0;
        int shift = 0;
        for (;;) {
          if (i >= s.size()) throw InputError("binary DRAT: truncated (the step at byte " + std::to_string(step_at) + " has no end)", where);
          const unsigned char b = static_cast<unsigned char>(s[i++]);
          if (shift > 28) throw InputError("binary DRAT: a literal longer than 32 bits at byte " + std::to_string(i - 1), where);
          u |= static_cast<std::uint64_t>(b & 0x7f) << shift;
          shift += 7;
          if (!(b & 0x80)) break;
        }
        if (u == 0) break;
        if (u == 1) throw InputError("binary DRAT: literal -0 at byte " + std::to_string(i - 1), where);
        const long long l = (u & 1) ? -static_cast<long long>(u >> 1) : static_cast<long long>(u >> 1);
        lit_ok(l, i - 1);
        p.lits.push_back(static_cast<int>(l));
      }
      p.lits.push_back(0);
    }
    return p;
  }
  std::size_t i = 0, line = 1;
  bool open = false;
  while (i < s.size()) {
    const char c = s[i];
    if (c == '\n') {
      ++line, ++i;
      continue;
    }
    if (space(c)) {
      ++i;
      continue;
    }
    if (c == 'c' && !open) {
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    if (!open) {
      const bool del = c == 'd';
      if (del) {
        ++i;
        if (i < s.size() && !space(s[i])) throw InputError("DRAT: expected a space after 'd'" + at_line(line), where);
      }
      p.deletion.push_back(del);
      open = true;
      continue;
    }
    long long l = 0;
    if (!read_int(s, i, l)) throw InputError("DRAT: expected a literal" + at_line(line), where);
    if (l == 0) {
      open = false;
      p.lits.push_back(0);
      continue;
    }
    lit_ok(l, i);
    p.lits.push_back(static_cast<int>(l));
  }
  if (open) throw InputError("DRAT: truncated (the last step is not ended by 0)", where);
  return p;
}

namespace {

// ---- the checker --------------------------------------------------------------------------------

class Checker {
 public:
  explicit Checker(int max_var)
      : val_(static_cast<std::size_t>(max_var) + 1, 0), reason_(val_.size(), -1), pos_(val_.size(), 0),
        seen_(val_.size(), 0), watches_(2 * val_.size() + 2), mark_(watches_.size(), 0) {}

  // A clause from lits (duplicates merged); returns its id.
  int add_clause(const int* l, std::size_t n, int pivot_from) {
    const int id = static_cast<int>(start_.size());
    start_.push_back(arena_.size());
    bool taut = false;
    ++stamp_;
    for (std::size_t k = 0; k < n; ++k) {
      const int x = l[k];
      if (mark_[li(-x)] == stamp_) taut = true;
      if (mark_[li(x)] == stamp_) continue;  // a duplicate
      mark_[li(x)] = stamp_;
      arena_.push_back(x);
    }
    len_.push_back(static_cast<std::uint32_t>(arena_.size() - start_.back()));
    active_.push_back(0), core_.push_back(0), taut_.push_back(taut);
    pivot_.push_back(n ? pivot_from : 0);
    return id;
  }

  // Puts c into the formula at the top level: watches, and its unit or conflict (returns c on a
  // conflict, else -1).
  int activate(int c) {
    active_[c] = 1;
    if (taut_[c]) return -1;
    int* L = lits(c);
    const std::uint32_t n = len_[c];
    if (n == 0) return c;
    if (n == 1) {
      const int v = value(L[0]);
      if (v < 0) return c;
      if (v == 0) assign(L[0], c);
      return -1;
    }
    // Watches: non-false literals first, then the false ones assigned last.
    auto key = [&](int x) -> long long { return value(x) >= 0 ? std::numeric_limits<long long>::max() : pos_[var(x)]; };
    for (int w = 0; w < 2; ++w) {
      std::uint32_t best = static_cast<std::uint32_t>(w);
      for (std::uint32_t k = best + 1; k < n; ++k)
        if (key(L[k]) > key(L[best])) best = k;
      std::swap(L[w], L[best]);
    }
    watches_[li(L[0])].push_back(c);
    watches_[li(L[1])].push_back(c);
    if (value(L[0]) < 0) return c;
    if (value(L[1]) < 0 && value(L[0]) == 0) assign(L[0], c);
    return -1;
  }

  DratResult run(const DratFormula& f, const DratProof& p, const std::atomic<bool>* cancel) {
    DratResult res;
    // A cancelled check (Python's Ctrl-C, issue 46 row 8) stops within a few thousand steps.
    auto stop = [&](std::size_t s) {
      if (!cancel || (s & 1023) != 0 || !cancel->load(std::memory_order_relaxed)) return false;
      res.cancelled = true, res.why = "cancelled";
      return true;
    };
    for (char d : p.deletion) res.lemmas += d == 0;
    int conflict = -1;
    for (std::size_t i = 0; i < f.lits.size();) {
      std::size_t j = i;
      while (f.lits[j] != 0) ++j;
      const int c = add_clause(&f.lits[i], j - i, 0);
      const int cf = activate(c);
      if (cf >= 0 && conflict < 0) conflict = cf;
      i = j + 1;
    }
    if (conflict < 0) conflict = propagate(false);
    // Forward: steps until the first top-level conflict.
    struct Step {
      bool del;
      int clause;  // the lemma, or the clause deleted (-1: ignored)
    };
    std::vector<Step> steps;
    std::vector<std::size_t> prefix;  // the trail's length before each step
    std::unordered_map<std::uint64_t, std::vector<int>> by_hash;  // active clauses by their literal set
    auto hash_of = [&](int c) {
      std::vector<int> v(lits(c), lits(c) + len_[c]);
      std::sort(v.begin(), v.end());
      std::uint64_t h = 0x9e3779b97f4a7c15ull ^ v.size();
      for (int x : v) h = (h ^ static_cast<std::uint32_t>(x)) * 0xff51afd7ed558ccdull, h ^= h >> 31;
      return h;
    };
    auto same = [&](int a, int b) {
      if (len_[a] != len_[b]) return false;
      std::vector<int> x(lits(a), lits(a) + len_[a]), y(lits(b), lits(b) + len_[b]);
      std::sort(x.begin(), x.end()), std::sort(y.begin(), y.end());
      return x == y;
    };
    for (int c = 0; c < static_cast<int>(start_.size()); ++c) by_hash[hash_of(c)].push_back(c);
    std::size_t at = 0;
    for (std::size_t s = 0; s < p.deletion.size() && conflict < 0; ++s) {
      if (stop(s)) return res;
      std::size_t e = at;
      while (p.lits[e] != 0) ++e;
      prefix.push_back(trail_.size());
      if (!p.deletion[s]) {
        const int c = add_clause(&p.lits[at], e - at, e > at ? p.lits[at] : 0);
        by_hash[hash_of(c)].push_back(c);
        steps.push_back({false, c});
        conflict = activate(c);
        if (conflict < 0) conflict = propagate(false);
      } else {
        // The clause to delete: a scratch clause with the same literals, matched by set.
        const int probe = add_clause(&p.lits[at], e - at, 0);
        auto it = by_hash.find(hash_of(probe));
        int found = -1;
        if (it != by_hash.end())
          for (std::size_t k = 0; k < it->second.size(); ++k)
            if (active_[it->second[k]] && same(it->second[k], probe)) {
              found = it->second[k];
              if (is_reason(found)) {
                found = -2;
              } else {
                it->second.erase(it->second.begin() + static_cast<long>(k));
              }
              break;
            }
        pop_clause();
        if (found == -1) ++res.missing_deletions;
        if (found == -2) ++res.unit_deletions_ignored;
        if (found >= 0) active_[found] = 0, ++res.deletions;
        steps.push_back({true, found >= 0 ? found : -1});
      }
      at = e + 1;
    }
    res.steps_used = steps.size();
    if (conflict < 0) {
      res.why = "no conflict: unit propagation on the formula and all " + std::to_string(res.lemmas) +
                " lemmas does not reach the empty clause";
      return res;
    }
    analyze_clause(conflict);
    // Backward over the steps up to the conflict.
    for (std::size_t s = steps.size(); s-- > 0;) {
      if (stop(s)) return res;
      backtrack(prefix[s]);
      const Step& st = steps[s];
      if (st.del) {
        // The trail here is the one the forward pass had when it deleted the clause, a fixpoint
        // with the clause in it: it is satisfied or has two open literals. (Were it unit, the
        // assignment would be undone by the next step's backtrack: no check happens here.)
        if (st.clause >= 0) (void)activate(st.clause);
        continue;
      }
      active_[st.clause] = 0;
      if (!core_[st.clause]) continue;
      ++res.checked;
      const std::string fail = check_lemma(st.clause, res);
      if (!fail.empty()) {
        res.why = "the lemma of step " + std::to_string(s + 1) + " of the proof: " + fail;
        return res;
      }
    }
    res.ok = true;
    return res;
  }

 private:
  static int var(int l) { return l < 0 ? -l : l; }
  static std::size_t li(int l) { return 2 * static_cast<std::size_t>(var(l)) + (l < 0); }
  int value(int l) const { return l > 0 ? val_[static_cast<std::size_t>(l)] : -val_[static_cast<std::size_t>(-l)]; }
  int* lits(int c) { return arena_.data() + start_[c]; }

  void assign(int l, int r) {
    const std::size_t v = static_cast<std::size_t>(var(l));
    val_[v] = l > 0 ? 1 : -1;
    reason_[v] = r;
    pos_[v] = trail_.size();
    trail_.push_back(l);
  }
  void backtrack(std::size_t to) {
    while (trail_.size() > to) {
      const std::size_t v = static_cast<std::size_t>(var(trail_.back()));
      val_[v] = 0, reason_[v] = -1;
      trail_.pop_back();
    }
    head_core_ = head_non_ = trail_.size();
  }
  void pop_clause() {
    arena_.resize(start_.back());
    start_.pop_back(), len_.pop_back(), active_.pop_back(), core_.pop_back(), taut_.pop_back(), pivot_.pop_back();
  }
  bool is_reason(int c) {
    const int* L = lits(c);
    for (std::uint32_t k = 0; k < len_[c]; ++k)
      if (value(L[k]) > 0 && reason_[static_cast<std::size_t>(var(L[k]))] == c) return true;
    return false;
  }

  enum Mode { All, Core, NonCore };
  // The clauses watching f (now false): each finds another watch, becomes unit (assigned, reason
  // c) or is a conflict (returned). Inactive and stale entries are dropped here.
  int visit(int f, Mode mode) {
    std::vector<int>& ws = watches_[li(f)];
    std::size_t i = 0, j = 0;
    int conflict = -1;
    while (i < ws.size()) {
      const int c = ws[i++];
      if (!active_[c]) continue;
      int* L = lits(c);
      if (L[0] != f && L[1] != f) continue;
      if (mode != All && (core_[c] != 0) != (mode == Core)) {
        ws[j++] = c;
        continue;
      }
      if (L[0] == f) std::swap(L[0], L[1]);
      if (value(L[0]) > 0) {
        ws[j++] = c;
        continue;
      }
      const std::uint32_t n = len_[c];
      std::uint32_t k = 2;
      while (k < n && value(L[k]) < 0) ++k;
      if (k < n) {
        std::swap(L[1], L[k]);
        watches_[li(L[1])].push_back(c);
        if (value(L[0]) < 0) {
          // The other watch is false too (kept on a top-level false literal): move it as well,
          // or L[1] is the clause's last open literal.
          std::uint32_t q = 2;
          while (q < n && value(L[q]) < 0) ++q;
          if (q < n) {
            std::swap(L[0], L[q]);
            watches_[li(L[0])].push_back(c);
          } else if (value(L[1]) == 0) {
            assign(L[1], c);
          }
        }
        continue;
      }
      ws[j++] = c;
      if (value(L[0]) < 0) {
        conflict = c;
        break;
      }
      assign(L[0], c);
    }
    while (i < ws.size()) ws[j++] = ws[i++];
    ws.resize(j);
    return conflict;
  }

  // Unit propagation to a fixpoint or a conflict (returned). core_first: the core clauses to a
  // fixpoint, then one literal of the trail through the other clauses, and again.
  int propagate(bool core_first) {
    for (;;) {
      while (head_core_ < trail_.size()) {
        const int cf = visit(-trail_[head_core_++], core_first ? Core : All);
        if (cf >= 0) return cf;
      }
      if (!core_first) {
        head_non_ = head_core_;
        return -1;
      }
      bool more = false;
      while (head_non_ < trail_.size() && !more) {
        const std::size_t before = trail_.size();
        const int cf = visit(-trail_[head_non_++], NonCore);
        if (cf >= 0) return cf;
        more = trail_.size() > before;
      }
      if (!more) return -1;
    }
  }

  // Marks every clause the derivation of the seen variables' values used (their reasons, back
  // through the trail); seen_ is cleared on the way.
  void analyze_seen(std::size_t pending) {
    for (std::size_t t = trail_.size(); t-- > 0 && pending > 0;) {
      const std::size_t v = static_cast<std::size_t>(var(trail_[t]));
      if (!seen_[v]) continue;
      seen_[v] = 0, --pending;
      const int r = reason_[v];
      if (r < 0) continue;
      core_[r] = 1;
      const int* L = lits(r);
      for (std::uint32_t k = 0; k < len_[r]; ++k) {
        const std::size_t u = static_cast<std::size_t>(var(L[k]));
        if (u != v && !seen_[u]) seen_[u] = 1, ++pending;
      }
    }
  }
  void analyze_clause(int c) {
    core_[c] = 1;
    std::size_t pending = 0;
    const int* L = lits(c);
    for (std::uint32_t k = 0; k < len_[c]; ++k) {
      const std::size_t u = static_cast<std::size_t>(var(L[k]));
      if (!seen_[u]) seen_[u] = 1, ++pending;
    }
    analyze_seen(pending);
  }
  void analyze_var(int l) {
    const std::size_t u = static_cast<std::size_t>(var(l));
    seen_[u] = 1;
    analyze_seen(1);
  }

  // RUP of the literals `clause` (all but `skip` negated on top of what is assigned): "" when
  // propagation reaches a conflict (its clauses marked), else "no conflict".
  bool rup(const std::vector<int>& clause) {
    for (int l : clause)
      if (value(l) > 0) {  // the negation contradicts a literal already derived
        analyze_var(l);
        return true;
      }
    for (int l : clause)
      if (value(l) == 0) assign(-l, -1);
    const int cf = propagate(true);
    if (cf < 0) return false;
    analyze_clause(cf);
    return true;
  }

  std::string check_lemma(int c, DratResult& res) {
    const std::size_t base = trail_.size();
    std::vector<int> C(lits(c), lits(c) + len_[c]);
    if (taut_[c]) return "";
    if (rup(C)) {
      backtrack(base);
      return "";
    }
    // RAT on the pivot (the lemma's first literal as written): every clause D with -pivot gives
    // a resolvent C ∪ (D \ {-pivot}) that must be RUP. The negation of C is assigned already.
    const int p = pivot_[c];
    if (p == 0) {
      backtrack(base);
      return "the empty clause is not implied by unit propagation";
    }
    ++res.rat;
    const std::size_t mid = trail_.size();
    for (int d = 0; d < static_cast<int>(start_.size()); ++d) {
      if (!active_[d] || taut_[d]) continue;
      const int* L = lits(d);
      bool has = false;
      for (std::uint32_t k = 0; k < len_[d] && !has; ++k) has = L[k] == -p;
      if (!has) continue;
      core_[d] = 1;
      std::vector<int> rest;
      for (std::uint32_t k = 0; k < len_[d]; ++k)
        if (L[k] != -p) rest.push_back(L[k]);
      const bool ok = rup(rest);
      backtrack(mid);
      if (!ok) {
        backtrack(base);
        return "neither RUP nor RAT on its first literal " + std::to_string(p) + " (the resolvent with a clause of " +
               std::to_string(len_[d]) + " literals is not RUP)";
      }
    }
    backtrack(base);
    return "";
  }

  std::vector<int> arena_;
  std::vector<std::size_t> start_;
  std::vector<std::uint32_t> len_;
  std::vector<char> active_, core_, taut_;
  std::vector<int> pivot_;
  std::vector<signed char> val_;
  std::vector<int> reason_;
  std::vector<std::size_t> pos_;
  std::vector<char> seen_;
  std::vector<std::vector<int>> watches_;
  std::vector<int> trail_;
  std::size_t head_core_ = 0, head_non_ = 0;
  std::vector<unsigned> mark_;  // per literal: stamp_ when in the clause being added
  unsigned stamp_ = 0;
};

}  // namespace

DratResult check_drat(const DratFormula& f, const DratProof& proof, const std::atomic<bool>* cancel) {
  const auto t0 = std::chrono::steady_clock::now();
  int fv = f.num_vars;
  for (int l : f.lits) fv = std::max(fv, l < 0 ? -l : l);  // a formula given in memory, unchecked
  // Variables past the formula's are extension variables, each new in the proof: a proof of L
  // literals has at most L of them, so a variable past V + L is no proof's (issue 46 row 11: a
  // 7-byte proof naming variable 2^26 took 4.4 GB), refused before anything is allocated for it.
  const std::uint64_t ext_limit = static_cast<std::uint64_t>(fv) + proof.lits.size();
  if (static_cast<std::uint64_t>(proof.max_var) > ext_limit)
    throw InputError("DRAT: variable " + std::to_string(proof.max_var) + " is past the CNF's " + std::to_string(fv) +
                         " variables and the proof's " + std::to_string(proof.lits.size()) +
                         " literals (an extension variable is one of the proof's own, numbered after the CNF's)",
                     "DRAT check");
  const int mv = std::max(fv, proof.max_var);
  if (!f.lits.empty() && f.lits.back() != 0) throw std::logic_error("check_drat: the formula's last clause has no 0");
  if (!proof.lits.empty() && proof.lits.back() != 0) throw std::logic_error("check_drat: the proof's last step has no 0");
  if (static_cast<std::size_t>(std::count(proof.lits.begin(), proof.lits.end(), 0)) != proof.deletion.size())
    throw std::logic_error("check_drat: the proof's steps and its 0s differ");
  // About 64 bytes a variable (values, reasons, trail positions, two watch lists) and 4 a literal:
  // a header or a proof literal naming 2^26 variables must not take gigabytes unasked.
  const std::uint64_t need = (static_cast<std::uint64_t>(mv) + 1) * 64 + (f.lits.size() + proof.lits.size()) * 8;
  if (need > memory_budget())
    throw InputError("the DRAT check needs about " + std::to_string(need >> 20) + " MiB for " + std::to_string(mv) +
                         " variables, over the memory budget (--max-memory)",
                     "DRAT check");
  Checker ch(mv);
  DratResult r = ch.run(f, proof, cancel);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace cz::circuits::sat
