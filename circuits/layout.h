// Where a circuit's inputs and outputs sit in the N×d matrices of a model (contract.md: a
// circuit compiled from a model names them u[i][j] and y[i][j]). Used by the circuit → model
// compiler and by circuit-vs-model equivalence checks.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "circuits/circuit.h"

namespace cz::circuits {

struct Layout {
  std::size_t N = 1, d = 1;
  std::vector<std::pair<std::size_t, std::size_t>> in_pos, out_pos;  // (row, column)
};

// Parses "u[i][j]" / "y[i][j]"; false for any other name.
bool parse_position(const std::string& name, char letter, std::size_t& i, std::size_t& j);

// Inputs named u[i][j] and outputs y[i][j] give their positions (N, d = 1 + the largest row,
// column); any other naming puts everything in row 0 (d = max(#inputs, #outputs)).
Layout default_layout(const Circuit& c);

// For a given N×d: positions by name when every name is u[i][j]/y[i][j] inside N×d, else
// row-major by index. Throws std::invalid_argument when the circuit does not fit.
Layout layout_for(const Circuit& c, std::size_t N, std::size_t d);

}  // namespace cz::circuits
