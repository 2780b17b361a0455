// Compiles a recurrent program file (model/program_json.h, task sd) into the device bytecode
// (gpu/program_bytecode.h), reproducing model/program_json.cpp's semantics instruction for
// instruction; tests/gpu/test_program_*.cpp hold it to the CPU interpreter on every instance.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "gpu/program_bytecode.h"

namespace cz::gpu {

struct ProgramCode {
  ProgInfo info;
  std::vector<ProgInsn> code;
  std::string name;
};

// The file is validated first by program_from_json (its InputError, unchanged). nullopt, with the
// reason in *why, when the program needs more than the device's fixed per-thread state: more than
// kProgMaxRegs registers or kProgMaxBags bags, a deeper expression stack than kProgMaxStack, or a
// bag wider than kProgMaxBagBits bits for some prompt the device can generate.
std::optional<ProgramCode> compile_program(const nlohmann::json& j, const std::string& source, std::string* why = nullptr);

}  // namespace cz::gpu
