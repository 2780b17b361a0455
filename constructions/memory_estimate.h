// Memory estimates that constructions make before they build or check (issue 9): work whose
// estimate exceeds the memory budget (util/memory_budget.h: half of physical RAM, or
// `--max-memory`) is refused up front with an InputError that states the estimate, instead of
// running into the OOM killer. The constants are measured (peak RSS over the estimated quantity,
// rounded up; see tests/cli/memory_budget.sh and the notes in the commits), and estimates err high.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>

#include "util/memory_budget.h"
#include "util/threads.h"
#include "verify/params.h"

namespace cz::est {

// Dense weights of L BaseConv layers at inner N'×d': W is d'×d'; b1, h, b2 are N'×d'.
inline std::uint64_t baseconv_weights(std::uint64_t L, std::uint64_t inner_N, std::uint64_t inner_d) {
  return sat_mul(L, sat_add(sat_mul(inner_d, inner_d), sat_mul(3, sat_mul(inner_N, inner_d))));
}

// Building a model: each weight is a Rat (16 bytes) in the model, and layers are assembled in a
// temporary before they are pushed (a second copy while the model grows).
inline constexpr std::uint64_t kBuildBytesPerWeight = 40;
// Checking a model: the evaluator's ring copy of every weight (int64 and the nonzero lists) ...
inline constexpr std::uint64_t kCheckBytesPerWeight = 24;
// ... plus, per worker thread, a few N'×d' matrices (input, layer intermediates, convolution
// buffers, the reference's output, the Z fallback) per cell.
inline constexpr std::uint64_t kCheckBytesPerCellPerThread = 96;

// "-p N=65536 -p d=1024": the parameters an estimate depends on, for the error's where.
inline std::string where_of(const Params& p, std::initializer_list<const char*> keys) {
  std::string w;
  for (const char* k : keys) w += (w.empty() ? "-p " : " -p ") + std::string(k) + "=" + p.s(k);
  return w;
}

inline std::string shape_text(std::uint64_t L, std::uint64_t inner_N, std::uint64_t inner_d) {
  return std::to_string(L) + (L == 1 ? " layer" : " layers") + " at " + std::to_string(inner_N) + "x" +
         std::to_string(inner_d);
}

// Refuses building an L-layer BaseConv model at inner N'×d'.
inline void require_model_build(const std::string& name, std::uint64_t L, std::uint64_t inner_N, std::uint64_t inner_d,
                                const std::string& where) {
  require_memory(sat_mul(baseconv_weights(L, inner_N, inner_d), kBuildBytesPerWeight),
                 name + " (a model of " + shape_text(L, inner_N, inner_d) + ")", where);
}

// Building a circuit: the 12-byte packed gate, the windowed hash-consing table (6 bytes a gate id),
// a 13-byte BitDef per Bit gate (about 24 bytes a gate at the builder's peak, bench_builder), the
// construction's Wire vectors, and then the statistics. Errs high: measured 109 bytes a gate on
// circuit/sort n=256 d=16 with stats, before the packed builder.
inline constexpr std::uint64_t kBytesPerGate = 128;
inline void require_gates(const std::string& name, std::uint64_t gates, const std::string& where) {
  require_memory(sat_mul(gates, kBytesPerGate), name + " (a circuit of about " + std::to_string(gates) + " gates)", where);
}

// Threads a check will run on (0: all cores), as the engine resolves them.
inline unsigned check_threads(unsigned requested) { return resolve_threads(requested); }

// Refuses checking a model of `weights` dense weights at inner N'×d' on `threads` threads (the
// model itself is already built and counted in `resident`).
inline void require_model_check(const std::string& name, std::uint64_t weights, std::uint64_t inner_N,
                                std::uint64_t inner_d, unsigned threads, std::uint64_t resident,
                                const std::string& where) {
  const std::uint64_t per_thread = sat_mul(sat_mul(inner_N, inner_d), kCheckBytesPerCellPerThread);
  const std::uint64_t bytes =
      sat_add(resident, sat_add(sat_mul(weights, kCheckBytesPerWeight), sat_mul(per_thread, check_threads(threads))));
  require_memory(bytes,
                 "checking " + name + " (" + std::to_string(weights) + " weights at " + std::to_string(inner_N) + "x" +
                     std::to_string(inner_d) + ", " + std::to_string(check_threads(threads)) + " threads)",
                 where);
}

}  // namespace cz::est
