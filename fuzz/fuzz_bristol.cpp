// libFuzzer harness: the bristol circuit reader (circuits/io.h).
#include "fuzz/circuit_common.h"

void fuzz_one(const std::string& text) {
  cz::fuzz::exercise(cz::circuits::read_circuit(text, "bristol", "fuzz.bristol"));
}
