#include "app/engine/sat/sat_primitive_ref.h"

namespace cz::circuits::reference {

bool is_integer_map(const std::string& task) {
  for (const char* t : {"identity", "shift_down", "shift_up", "cumsum", "add", "hadamard", "remember", "prefix-sum", "prefix-product"})
    if (task == t) return true;
  return false;
}

}  // namespace cz::circuits::reference
