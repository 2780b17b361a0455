// The "arch" self-check of a model (issue 28; `verify --model F --task arch`, contract
// "Architecture layers"): each architecture layer recorded in the model (Model::arch) is checked by
// running its stored expansion, the model's layers [first, first + count) alone, on an N'×d' state
// against the architecture's own exact evaluation (arch_eval, model/arch_layer.h: no BaseConv
// code), in the model's ring (Z, Q or Fp). A file always holds a fresh expansion (the reader
// recomputes it), so this checks the simulation the file runs, as built here, against its operator;
// a model edited in memory (a tampered weight) is caught the same way.
#pragma once
#include <cstdint>
#include <string>

#include "model/model.h"
#include "verify/construction.h"
#include "verify/matrix_domain.h"

namespace cz {

// The states: the box {-1,0,1}^(N'×w) in the first w columns (w the widest layer's width, the
// other columns 0) when 3^(N'·w) <= 2^20, then seeded N'×d' states (every column, so an expansion
// that reads or writes beyond its columns is met) with entries in [-3, 3]: 1,000 beside a box,
// 10,000 without. --exhaustive: the box alone ({-1,0,1} up to 2^32, else {0,1}); --samples K: K
// seeded states alone.
struct ArchStateDomain {
  MatrixDomain box;      // N'×w, box only (count 0: none)
  MatrixDomain samples;  // N'×d', samples only (count 0: none)
  std::size_t inner_N = 0, inner_d = 0;
  std::uint64_t count = 0;

  Matrix<std::int64_t> instance(std::uint64_t k) const;  // the N'×d' state
  std::string describe() const;
  std::string kind() const;
};

inline constexpr unsigned kArchBoxBits = 20;
inline constexpr std::int64_t kArchSampleRange = 3;

// Throws InputError(where) when the model records no architecture layer, when a record points
// beyond the layers, and when --exhaustive is asked beyond 2^32 states.
ArchStateDomain make_arch_domain(const Model& m, const DomainOptions& opts, const std::string& where);

// Every recorded architecture layer's expansion against arch_eval on every state of the domain.
// A failure names the layer (kind, model layers [first, first + count)) and the first wrong entry.
// Throws InputError(where) as make_arch_domain, and when a weight is not in the model's ring.
Check arch_expansion_check(const Model& m, const DomainOptions& opts, const std::string& where);

}  // namespace cz
