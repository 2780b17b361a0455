// CNF and the Tseitin encoding of all-Bit circuits (issue 27). A Bit gate is encoded through its
// BitDef (its certified Boolean meaning, circuits/circuit.h), never through its arithmetic: on 0/1
// inputs the two agree by certificate, and the BitDef is what bit-sliced evaluation and the AIGER
// export use too. Only the cone of the literals asked for is encoded (cone of influence), with
// constants folded and structurally equal gates shared at the literal level, so a miter of two
// circuits that compute the same sub-function shares its clauses.
#pragma once
#include <cstdint>
#include <functional>
#include <ostream>
#include <unordered_map>
#include <vector>

#include "circuits/circuit.h"

namespace cz::circuits::sat {

// DIMACS literals: +v / -v for variable v >= 1.
struct Cnf {
  int num_vars = 0;
  std::size_t num_clauses = 0;
  std::vector<int> lits;  // the clauses, each terminated by 0

  int new_var() { return ++num_vars; }
  void add(std::initializer_list<int> clause);
  // A variable fixed to 1 by a unit clause (made on first use): constants are +t / -t.
  int true_lit();
  void write_dimacs(std::ostream& os) const;

 private:
  int true_var_ = 0;
};

// Gate constructors over literals with folding and structural hashing (a literal-level AIG with
// XOR and MUX nodes: 3, 4 and 6 clauses per node).
class Gates {
 public:
  explicit Gates(Cnf& cnf) : cnf_(cnf) {}
  int t() { return cnf_.true_lit(); }
  int f() { return -cnf_.true_lit(); }
  int and_(int a, int b);
  int or_(int a, int b) { return -and_(-a, -b); }
  int xor_(int a, int b);
  int mux(int s, int a, int b);  // s ? a : b
  Cnf& cnf() { return cnf_; }

 private:
  int node(std::uint8_t op, int a, int b, int c);
  Cnf& cnf_;
  struct Key {
    std::uint8_t op;
    int a, b, c;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      std::uint64_t h = k.op * 0x9e3779b97f4a7c15ull;
      for (int v : {k.a, k.b, k.c}) h = (h ^ static_cast<std::uint32_t>(v)) * 0xff51afd7ed558ccdull;
      return static_cast<std::size_t>(h ^ (h >> 29));
    }
  };
  std::unordered_map<Key, int, KeyHash> table_;
};

// The literal of a Bit gate from its BitDef, its operands' literals given by L (Const0/1 fold to the
// true literal; an Input gate has no operands: the caller gives its literal, std::logic_error here).
int bit_def_lit(Gates& g, const BitDef& d, const std::function<int(GateId)>& L);

// The Tseitin literals of one all-Bit circuit, encoded lazily. input_lit(k) gives the literal of
// circuit input k (asked for once per input, when the cone first reaches it).
class Tseitin {
 public:
  Tseitin(Gates& g, const Circuit& c, std::function<int(std::size_t input)> input_lit);
  // The literal of Bit gate id (throws std::logic_error on a Field gate: only certified Bit wires
  // have a Boolean meaning). Iterative: deep circuits do not recurse.
  int lit(GateId id);
  int output_lit(std::size_t k) { return lit(c_.outputs()[k].gate); }
  std::size_t gates_encoded() const { return encoded_; }

 private:
  int combine(GateId id);
  Gates& g_;
  const Circuit& c_;
  std::function<int(std::size_t)> input_lit_;
  std::vector<int> lit_;  // 0: not encoded yet
  std::size_t encoded_ = 0;
};

}  // namespace cz::circuits::sat
