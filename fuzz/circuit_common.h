// Circuit-reader harnesses: read, then exercise what `circuit FILE` does with a read circuit
// (stats, every writer) and read our own DOT and circuit-json output back: a file we write must
// read back (names escaped, no partial circuits).
#pragma once
#include "circuits/io.h"
#include "circuits/stats.h"
#include "fuzz/fuzz_common.h"

namespace cz::fuzz {

inline void exercise(const circuits::Circuit& c) {
  (void)circuits::compute_stats(c);
  for (const auto& f : circuits::circuit_formats()) {
    std::string out;
    try {
      out = circuits::write_circuit(c, f);
    } catch (const InputError&) {
      continue;  // aiger/blif of a Field circuit; circuit-json of a non-UTF-8 name
    }
    if (f == "dot" || f == "circuit-json" || f == "bristol") {
      circuits::Circuit back = circuits::read_circuit(out, f, "roundtrip." + f);
      if (back.num_inputs() != c.num_inputs() || back.outputs().size() != c.outputs().size())
        finding("write -> read changed the number of inputs or outputs");
      if (f != "bristol")  // Bristol has no names
        for (std::size_t k = 0; k < c.num_inputs(); ++k)
          if (back.input_name(k) != c.input_name(k)) finding("write -> read changed an input name");
    }
  }
}

}  // namespace cz::fuzz
