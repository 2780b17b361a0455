// Batched exact evaluation of a SparseModel on many inputs at once (the block path of the MQAR
// model constructions, issue 10). The model is compiled once into a straight-line "lane program"
// over slots; a slot holds one entry (row p, channel j) of some layer for kLanes instances side by
// side, so every instruction is a loop over lanes that the compiler vectorises. Entries that are
// structurally zero (no weight reaches them) get no slot and no instruction: the constructions'
// weights are shifts, masks and routings, so most of the N'×d' entries vanish.
// Overflow is never silent: compile() bounds |every slot| from |weights| and the input bound
// (interval arithmetic, per slot). The program is marked safe only when every bound is below 2^62
// (then int64 arithmetic is exact), and runs in int32 lanes when every bound is below 2^30. An
// unsafe program must not be run; callers evaluate those instances exactly instead (checked int64,
// then Z: sparse_model.h eval_exact).
#pragma once
#include <cstdint>
#include <vector>

#include "constructions/mqar/sparse_model.h"

namespace cz::mqarc {

class LaneProgram {
 public:
  static constexpr std::size_t kLanes = 64;
  static constexpr std::uint32_t kZero = ~std::uint32_t{0};  // a structurally zero entry

  // input_bound: the largest |entry| of any input (1 for one-hot, binary and p-hot codes).
  LaneProgram(const SparseModel& m, std::int64_t input_bound);

  bool safe() const { return safe_; }
  bool narrow() const { return narrow_; }  // int32 lanes
  std::size_t N() const { return N_; }
  std::size_t d() const { return d_; }
  std::size_t slots() const { return slots_; }
  std::size_t instructions() const { return code_.size(); }
  std::uint32_t in_slot(std::size_t p, std::size_t j) const { return in_[p * d_ + j]; }
  std::uint32_t out_slot(std::size_t p, std::size_t j) const { return out_[p * d_ + j]; }

  // Scratch for one thread: slots() × kLanes entries, in the lane width of the program.
  struct Scratch {
    std::vector<std::int64_t> w64;
    std::vector<std::int32_t> w32;
  };
  void reserve(Scratch& s) const;
  // Input entries must be written through set_input before run(); every input slot starts at 0.
  void clear_inputs(Scratch& s) const;
  void set_input(Scratch& s, std::uint32_t slot, std::size_t lane, std::int64_t v) const {
    if (narrow_) s.w32[slot * kLanes + lane] = static_cast<std::int32_t>(v);
    else s.w64[slot * kLanes + lane] = v;
  }
  void run(Scratch& s) const;  // precondition: safe()
  std::int64_t output(const Scratch& s, std::uint32_t slot, std::size_t lane) const {
    if (slot == kZero) return 0;
    return narrow_ ? s.w32[slot * kLanes + lane] : s.w64[slot * kLanes + lane];
  }

  enum class Op : std::uint8_t { Const, Scale, Axpy, Mul, Fma };
  struct Ins {
    Op op;
    std::uint32_t dst, a, b;
    std::int64_t v;
  };

 private:
  std::size_t N_ = 0, d_ = 0, slots_ = 0;
  std::vector<std::uint32_t> in_, out_;
  std::vector<Ins> code_;
  bool safe_ = true, narrow_ = true;
};

}  // namespace cz::mqarc

// ---- The block path of the model-based MQAR checks on triples domains ----
#include <functional>
#include <memory>
#include <optional>

#include "tasks/mqar_block.h"
#include "verify/construction.h"

namespace cz::mqarc {

// Picks the compiled model for lane t of a block (the same model the scalar path builds for that
// instance); nullptr = let the scalar check decide this instance.
using ProgramPicker = std::function<const LaneProgram*(const mqar::TriplesBlock&, std::size_t lane)>;
using PickerFactory = std::function<ProgramPicker()>;  // one picker (and its caches) per thread

// A BlockWorker: unranks the block into arrays, routes each instance to its program's pending
// batch (so instances that share a model run together even when they are not adjacent), runs a
// batch when its kLanes lanes are full (and at the end of the block), and compares the whole
// N×d output with the encoded reference answers (query rows) and zeros (other rows), as
// mqar_check does. Instances whose program is unsafe (int64 bound fails) or missing go through
// `scalar` (checked int64, then Z). The codec's code table must be small (c·d <= 2^22).
std::unique_ptr<BlockWorker> model_triples_worker(const mqar::Domain& dom, const mqar::Codec& codec, ProgramPicker pick,
                                                  std::function<std::optional<Failure>(std::uint64_t)> scalar);

}  // namespace cz::mqarc
