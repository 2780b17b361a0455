#include "circuits/reference/parse_cell.h"

#include <cctype>

#include "util/error.h"

namespace cz::circuits::reference {

namespace {
// Reads "[digits]" at s[pos]; advances pos.
bool index(const std::string& s, std::size_t& pos, std::size_t& v) {
  if (pos >= s.size() || s[pos] != '[') return false;
  std::size_t q = pos + 1, x = 0;
  if (q >= s.size() || !std::isdigit(static_cast<unsigned char>(s[q]))) return false;
  while (q < s.size() && std::isdigit(static_cast<unsigned char>(s[q]))) {
    if (x > (std::size_t{1} << 40)) return false;
    x = 10 * x + static_cast<std::size_t>(s[q++] - '0');
  }
  if (q >= s.size() || s[q] != ']') return false;
  pos = q + 1;
  v = x;
  return true;
}
}  // namespace

Cell parse_cell(const std::string& name, char letter, const std::string& where) {
  Cell c;
  std::size_t pos = 1;
  if (name.empty() || name[0] != letter || !index(name, pos, c.r) || !index(name, pos, c.c) || pos != name.size())
    throw InputError("output " + name + " is not named " + letter + "[row][column] (as export names them)", where);
  return c;
}

bool parse_bit(const std::string& name, const std::string& prefix, std::size_t& k) {
  if (name.rfind(prefix, 0) != 0) return false;
  std::size_t pos = prefix.size();
  return index(name, pos, k) && pos == name.size();
}

}  // namespace cz::circuits::reference
