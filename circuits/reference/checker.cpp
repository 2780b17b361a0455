#include "circuits/reference/checker.h"

#include "util/error.h"

namespace cz::circuits::reference {

std::size_t got_input(const Checker& ch, const std::string& output_name, const std::string& where) {
  const std::string want = "got:" + output_name;
  for (std::size_t k = ch.task_inputs; k < ch.circuit.num_inputs(); ++k)
    if (ch.circuit.input_name(k) == want) return k;
  throw InputError("the circuit's output " + output_name + " is not an output of the task", where);
}

}  // namespace cz::circuits::reference
