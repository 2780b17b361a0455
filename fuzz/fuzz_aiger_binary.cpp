// libFuzzer harness: the AIGER reader on binary files (magic forced to "aig", see
// fuzz_aiger_ascii.cpp).
#include "fuzz/circuit_common.h"

void fuzz_one(const std::string& text) {
  std::string t = text;
  if (t.size() >= 3) t.replace(0, 3, "aig");
  cz::fuzz::exercise(cz::circuits::read_circuit(t, "aiger-binary", "fuzz.aig"));
}
