// libFuzzer harness: the AIGER reader on ASCII files. The first three bytes are forced to "aag"
// so that mutations explore the body rather than the magic (fuzz_aiger_binary covers "aig").
#include "fuzz/circuit_common.h"

void fuzz_one(const std::string& text) {
  std::string t = text;
  if (t.size() >= 3) t.replace(0, 3, "aag");
  cz::fuzz::exercise(cz::circuits::read_circuit(t, "aiger", "fuzz.aag"));
}
