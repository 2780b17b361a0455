// The argument checks shared by the CLI (main.cpp, cmd_verify.cpp, cmd_mqar_data.cpp) and the
// Python module (python/bindings.cpp), so that both refuse the same values with the same words
// (issue 25, item 17: the module used to run `samples=-5` on the default domain, `threads=10**6`,
// and `examples=0`). Each argument has its CLI flag and its Python keyword; messages name the one
// the caller was given.
#pragma once
#include <cstdint>
#include <string>

#include "tasks/zoology.h"
#include "util/threads.h"

namespace cz::cli {

enum class ArgNames { Cli, Python };

struct UintArg {
  const char* cli;  // "--samples"
  const char* py;   // "samples"
  std::uint64_t min, max;
  const char* name(ArgNames n) const { return n == ArgNames::Cli ? cli : py; }
};

// verify
inline constexpr UintArg kSamplesArg{"--samples", "samples", 1, INT64_MAX};
inline constexpr UintArg kSeedArg{"--seed", "seed", 0, UINT64_MAX};
inline constexpr UintArg kThreadsArg{"--threads", "threads", 0, kMaxThreads};
// mqar-data
inline constexpr UintArg kVocabArg{"--vocab", "vocab", 1, std::uint64_t{1} << 32};
inline constexpr UintArg kSeqLenArg{"--seq-len", "seq_len", 1, std::uint64_t{1} << 24};
inline constexpr UintArg kKvArg{"--kv", "kv", 1, std::uint64_t{1} << 22};
inline constexpr UintArg kExamplesArg{"--examples", "examples", 1, std::uint64_t{1} << 32};
inline constexpr UintArg kDataSeedArg{"--seed", "seed", 0, 0xffffffffULL};  // numpy's legacy seeding

// TEXT as a whole number within the argument's range (parse_uint_flag's rules: digits only, never
// wraps); InputError("NAME must be a whole number from MIN to MAX", "NAME TEXT") otherwise.
std::uint64_t parse_uint_arg(const std::string& text, const UintArg& a, ArgNames names);

// verify's domain: exhaustive and samples exclude each other; the device's name (and, for cuda,
// that there is one).
void check_verify_domain(bool exhaustive, bool samples_given, const std::string& device, ArgNames names);

// A real number (issue 36 item 5: `--timeout nan` meant no limit): TEXT must be a finite decimal in
// [min, max]; NaN, inf, hex floats and trailing text are refused with the flag and the text. Every
// real-valued flag goes through it (main.cpp's finite_range validator, power-a below).
struct RealArg {
  const char* cli;
  const char* py;
  double min, max;
  const char* name(ArgNames n) const { return n == ArgNames::Cli ? cli : py; }
};
inline constexpr RealArg kTimeoutArg{"--timeout", "timeout", 0.001, 1e7};
inline constexpr RealArg kCubeAfterArg{"--sat-cube-after", "sat_cube_after", 0, 1e7};  // 0: split first (issue 38)
double parse_real_arg(const std::string& text, const RealArg& a, ArgNames names);

// mqar-data's power-law exponent: a finite positive number written as TEXT.
double parse_power_a(const std::string& text, ArgNames names);
// zoology's batch for cfg; its refusals of power_a are reported at the power-a argument.
zoology::Batch mqar_batch(const zoology::MqarConfig& cfg, const std::string& power_a_text, ArgNames names);

}  // namespace cz::cli
