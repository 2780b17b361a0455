// Recurrent models in the sense of JRT Def G.12: the state after row i is
// Z^{i+1} = f^i(Z^i, u[i]), a function of the history u[0..i] only, and the output at row i is
// produced by the same step. The framework feeds rows one at a time (a step sees a copy of the
// current row and the state, nothing else), so anything written against it is recurrent by
// construction (Remark G.13 excludes non-causal convolutions; so does this interface).
//
// The state is an explicit record of named fixed-width registers and bags of fixed-width words,
// so its size is measured in bits, not estimated: |Z| = Σ register widths + Σ_bags words·width.
// A step that writes a value wider than its register throws, so a program cannot hide state.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "tensor/matrix.h"

namespace cz {

class RecurrentState {
 public:
  // A register of `width` bits holding `init` (checked to fit).
  std::size_t add_register(std::string name, unsigned width, std::uint64_t init = 0);
  std::uint64_t get(std::size_t reg) const { return regs_.at(reg).value; }
  void set(std::size_t reg, std::uint64_t value);  // throws std::logic_error when it does not fit

  // A bag (set) of words of `width` bits each; its size counts |bag|·width bits.
  std::size_t add_bag(std::string name, unsigned width);
  void insert(std::size_t bag, std::uint64_t word);  // throws std::logic_error when too wide
  bool contains(std::size_t bag, std::uint64_t word) const { return bags_.at(bag).words.count(word) > 0; }
  std::size_t bag_size(std::size_t bag) const { return bags_.at(bag).words.size(); }
  std::size_t bag_bits(std::size_t bag) const { return bags_.at(bag).words.size() * bags_.at(bag).width; }
  std::size_t bag_count() const { return bags_.size(); }

  std::size_t bits() const;           // the whole state
  std::size_t register_bits() const;  // registers only

 private:
  struct Reg { std::string name; unsigned width; std::uint64_t value; };
  struct Bag { std::string name; unsigned width; std::set<std::uint64_t> words; };
  std::vector<Reg> regs_;
  std::vector<Bag> bags_;
};

// Bits needed to store a value in [0, count): ceil(log2(count)), 0 for count <= 1.
unsigned bits_for(std::uint64_t count);

struct RecurrentProgram {
  std::string name;
  // Z^0 for an input of `rows` rows and `d` columns (the functions f^i of Def G.12 are indexed by
  // the position, so they may depend on the length).
  std::function<RecurrentState(std::size_t rows, std::size_t d)> init;
  // One step f^i: updates the state with row i of `rows` and returns the output row (any width).
  std::function<std::vector<std::int64_t>(RecurrentState& z, std::size_t i, std::size_t rows,
                                          const std::vector<std::int64_t>& row)>
      step;
};

struct RecurrentRun {
  Matrix<std::int64_t> output;     // row i = the step's output at row i
  std::vector<std::size_t> bits;   // |Z^i| in bits for i = 0..rows
  std::size_t max_bits = 0;        // max_i |Z^i|
  std::vector<std::size_t> bag_bits_max;  // per bag, the most bits it ever held
  std::size_t register_bits = 0;   // registers (fixed for the run)
};

// Runs the program over u's rows in order; outputs must all have the same width.
RecurrentRun run_recurrent(const RecurrentProgram& p, const Matrix<std::int64_t>& u);

}  // namespace cz
