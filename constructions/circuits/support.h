// Shared pieces of the circuit-native constructions: attach a circuit to a Built (the IR for
// stats/export and its stats JSON for the report), and a Check that evaluates the circuit
// exactly on every 0/1 input (input i = bit i of the instance number) against a reference.
#pragma once
#include <functional>
#include <memory>
#include <vector>

#include "circuits/circuit.h"
#include "circuits/stats.h"
#include "verify/construction.h"

namespace cz::circ {

// Sets b.circuit_ir and b.circuit (stats JSON); returns the stats.
circuits::CircuitStats attach(Built& b, circuits::Circuit c);

// reference(inputs) -> expected outputs (0/1 ints or integers), written independently of the
// circuit. Exhaustive when 2^inputs <= 2^22 (or forced, up to 2^32), else `samples` seeded
// random 0/1 vectors.
using Reference = std::function<std::vector<long long>(const std::vector<int>& inputs)>;
// Optional acceptance test used instead of "got == reference" (e.g. any valid order of equal
// keys): returns true when `got` is a correct answer for `inputs`.
using Accept = std::function<bool(const std::vector<int>& inputs, const std::vector<Int>& got)>;
// device: the check's device path (issue 12), asked for only when the domain is exhaustive (the
// device paths generate "input i = bit i of the instance number" themselves); null for none.
using DevicePath = std::function<std::shared_ptr<const DeviceProgram>()>;
Check exhaustive_01_check(std::shared_ptr<const circuits::Circuit> c, Reference ref, const DomainOptions& o,
                          const std::string& what, Accept accept = nullptr, DevicePath device = nullptr);

}  // namespace cz::circ
