// InputError: bad input from a user (a flag, a parameter, a file). The CLI prints it as
// `error: <what> (<where>)` on stderr and exits 2 (contract.md, exit codes).
#pragma once
#include <stdexcept>
#include <string>

namespace cz {

struct InputError : std::runtime_error {
  InputError(const std::string& what, std::string where)
      : std::runtime_error(what), where(std::move(where)) {}
  std::string where;
};

}  // namespace cz
