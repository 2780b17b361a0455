// Names of cells and bits as circuits name them: "y[3][1]" (row, column) and "x[5]" (bit).
#pragma once
#include <string>

namespace cz::circuits::reference {

struct Cell {
  std::size_t r = 0, c = 0;
};
// "<letter>[r][c]"; throws InputError (where) otherwise.
Cell parse_cell(const std::string& name, char letter, const std::string& where);
// "<prefix>[k]" -> k; false when the name has another form.
bool parse_bit(const std::string& name, const std::string& prefix, std::size_t& k);

}  // namespace cz::circuits::reference
