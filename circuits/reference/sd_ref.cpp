#include "circuits/reference/sd_ref.h"

#include <stdexcept>

#include "circuits/gadgets_bits.h"

namespace cz::circuits::reference {

namespace g = gadgets;

namespace {

std::string cell(const std::string& p, const char* letter, std::size_t r, std::size_t j) {
  return p + letter + "[" + std::to_string(r) + "][" + std::to_string(j) + "]";
}

// Word equality and strict order, from Boolean gadgets only (as compare_ref.cpp writes them).
Wire eq_word(Builder& b, const g::Bits& x, const g::Bits& y) {
  std::vector<Wire> same;
  for (std::size_t k = 0; k < x.size(); ++k) same.push_back(g::xnor_(b, x[k], y[k]));
  return g::and_all(b, same);
}
Wire lt_word(Builder& b, const g::Bits& x, const g::Bits& y) {
  Wire lt = b.zero();
  for (std::size_t k = 0; k < x.size(); ++k) lt = g::mux(b, g::xnor_(b, x[k], y[k]), lt, y[k]);
  return lt;
}

struct Block {
  std::vector<g::Bits> elem;   // row r's element bits
  std::vector<Wire> flag;      // row r's flag
  std::vector<Wire> sep_at;    // per allowed separator: "u is in the domain with the separator on that row"
  Wire domain;
  std::vector<Wire> common;    // row r's element is in A ∩ B (domain assumed)
  Wire disjoint;
};

Block inputs(Builder& b, const SdBlockSpec& s) {
  Block k;
  for (std::size_t r = 0; r < s.N; ++r) {
    g::Bits e;
    for (unsigned j = 0; j < s.n; ++j) e.push_back(b.input(cell(s.prefix, "u", r, j), Type::Bit));
    k.elem.push_back(e);
    k.flag.push_back(b.input(cell(s.prefix, "u", r, s.n), Type::Bit));
  }
  return k;
}

// The task's meaning on one block: A = rows above the separator, B = rows below.
void semantics(Builder& b, const SdBlockSpec& s, Block& k) {
  const std::size_t N = s.N;
  std::vector<std::vector<Wire>> eq(N, std::vector<Wire>(N));
  for (std::size_t r = 0; r < N; ++r)
    for (std::size_t t = r + 1; t < N; ++t) eq[r][t] = eq[t][r] = eq_word(b, k.elem[r], k.elem[t]);
  std::vector<std::vector<Wire>> common_if(N);  // per row: (sep_at[a] ∧ row's element in the other set)
  for (std::size_t a : s.seps) {
    if (a >= N) throw std::logic_error("sd_checker: separator row " + std::to_string(a) + " >= N");
    std::vector<Wire> c;
    for (std::size_t r = 0; r < N; ++r) {
      if (r == a) c.push_back(k.flag[r]);
      else c.push_back(g::not_(b, k.flag[r]));
    }
    for (unsigned j = 0; j < s.n; ++j) c.push_back(g::not_(b, k.elem[a][j]));  // the separator is [0^n :: 1]
    auto within = [&](std::size_t lo, std::size_t hi) {  // rows [lo, hi) form one set
      for (std::size_t r = lo; r < hi; ++r)
        for (std::size_t t = r + 1; t < hi; ++t) {
          if (s.increasing && t == r + 1) c.push_back(lt_word(b, k.elem[r], k.elem[t]));
          if (!s.increasing) c.push_back(g::not_(b, eq[r][t]));
        }
    };
    within(0, a);
    within(a + 1, N);
    const Wire at = g::and_all(b, c);
    k.sep_at.push_back(at);
    for (std::size_t r = 0; r < N; ++r) {
      if (r == a) continue;
      std::vector<Wire> hits;
      for (std::size_t t = r < a ? a + 1 : 0; t < (r < a ? N : a); ++t) hits.push_back(eq[r][t]);
      common_if[r].push_back(g::and_(b, at, g::or_all(b, hits)));
    }
  }
  k.domain = g::or_all(b, k.sep_at);
  for (std::size_t r = 0; r < N; ++r) k.common.push_back(g::or_all(b, common_if[r]));
  k.disjoint = g::not_(b, g::or_all(b, k.common));
}

}  // namespace

Circuit sd_reference_circuit(const SdBlockSpec& s) {
  Builder b;
  Block k = inputs(b, s);
  semantics(b, s, k);
  b.output(s.prefix + "domain", k.domain);
  b.output(s.prefix + "disjoint", k.disjoint);
  for (std::size_t r = 0; r < s.N; ++r) b.output(s.prefix + "common[" + std::to_string(r) + "]", k.common[r]);
  return std::move(b).finish();
}

Checker sd_checker(const std::vector<SdBlockSpec>& blocks) {
  Builder b;
  Checker ch;
  std::vector<Block> ks;
  for (const auto& s : blocks) ks.push_back(inputs(b, s));
  ch.task_inputs = b.peek().num_inputs();
  struct Got {
    std::vector<g::Bits> elem;
    std::vector<Wire> flag, held;
    Wire fails;
  };
  std::vector<Got> got(blocks.size());
  for (std::size_t bi = 0; bi < blocks.size(); ++bi) {
    const auto& s = blocks[bi];
    for (std::size_t p = 0; p < s.out_rows; ++p) {
      g::Bits e;
      for (unsigned j = 0; j < s.n; ++j) e.push_back(b.input("got:" + cell(s.prefix, "y", p, j), Type::Bit));
      got[bi].elem.push_back(e);
      got[bi].flag.push_back(b.input("got:" + cell(s.prefix, "y", p, s.n), Type::Bit));
    }
    for (std::size_t t = 0; t < s.slots; ++t)  // read only when state != None
        got[bi].held.push_back(b.input("got:" + s.prefix + "held[" + std::to_string(t) + "]", Type::Bit));
    if (s.fails) got[bi].fails = b.input("got:" + s.prefix + "fails", Type::Bit);
  }
  b.output("domain", b.one());
  std::vector<std::pair<std::string, std::string>> groups;  // (group, family)
  std::vector<Wire> oks, cases;
  std::vector<std::string> case_names;
  for (std::size_t bi = 0; bi < blocks.size(); ++bi) {
    const auto& s = blocks[bi];
    Block& k = ks[bi];
    semantics(b, s, k);
    std::string fam = s.prefix;
    if (!fam.empty() && fam.back() == '.') fam.pop_back();
    if (fam.empty()) fam = "sd";
    const Wire out_dom = g::not_(b, k.domain);
    auto group = [&](const std::string& name, Wire right) {
      groups.push_back({fam + " " + name, fam});
      oks.push_back(g::or_(b, out_dom, right));
    };
    for (std::size_t p = 0; p < s.out_rows; ++p) {  // a flagged row's element is in A ∩ B
      std::vector<Wire> in;
      for (std::size_t r = 0; r < s.N; ++r) in.push_back(g::and_(b, k.common[r], eq_word(b, got[bi].elem[p], k.elem[r])));
      group("sound y[" + std::to_string(p) + "]", g::or_(b, g::not_(b, got[bi].flag[p]), g::or_all(b, in)));
    }
    for (std::size_t r = 0; r < s.N; ++r) {  // an element of A ∩ B is flagged in some row
      std::vector<Wire> seen;
      for (std::size_t p = 0; p < s.out_rows; ++p) seen.push_back(g::and_(b, got[bi].flag[p], eq_word(b, got[bi].elem[p], k.elem[r])));
      group("complete u[" + std::to_string(r) + "]", g::or_(b, g::not_(b, k.common[r]), g::or_all(b, seen)));
    }
    if (s.fails) group("runs", g::not_(b, got[bi].fails));  // no answer at all is a wrong answer
    if (s.state != SdBlockSpec::None) {
      // exactly[c]: exactly c of the held bits are 1 (a unary count, Boolean gadgets only).
      std::vector<Wire> exactly{b.one()};
      for (Wire h : got[bi].held) {
        std::vector<Wire> next(exactly.size() + 1, b.zero());
        for (std::size_t c = 0; c < exactly.size(); ++c) {
          next[c] = g::or_(b, next[c], g::and_(b, exactly[c], g::not_(b, h)));
          next[c + 1] = g::or_(b, next[c + 1], g::and_(b, exactly[c], h));
        }
        exactly = std::move(next);
      }
      std::vector<Wire> right;
      for (std::size_t i = 0; i < s.seps.size(); ++i) {
        const std::size_t a = s.seps[i], bsz = s.N - 1 - a;
        const std::size_t want = s.state == SdBlockSpec::MinAB ? std::min(a, bsz) : a;
        right.push_back(g::and_(b, k.sep_at[i], want < exactly.size() ? exactly[want] : b.zero()));
      }
      group("state", g::or_all(b, right));
    }
    for (std::size_t i = 0; i < s.seps.size(); ++i) {
      cases.push_back(k.sep_at[i]);
      case_names.push_back("case:" + fam + ":sep=" + std::to_string(s.seps[i]));
    }
  }
  for (std::size_t gi = 0; gi < groups.size(); ++gi) {
    b.output("ok:" + groups[gi].first, oks[gi]);
    ch.groups.push_back(groups[gi].first);
    ch.family.push_back(groups[gi].second);
  }
  for (std::size_t ci = 0; ci < cases.size(); ++ci) {
    b.output(case_names[ci], cases[ci]);
    std::string f = case_names[ci].substr(5);
    f = f.substr(0, f.rfind(':'));
    ch.cases.push_back({f, 1 + groups.size() + ci});
  }
  ch.circuit = std::move(b).finish();
  return ch;
}

}  // namespace cz::circuits::reference
