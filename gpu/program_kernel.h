// The bytecode interpreter (gpu/program_bytecode.h) and the sd/recurrent-jrt verdict, CZ_HD: the
// GPU runs it one instance per thread, the CPU twin runs the same text. Semantics are those of
// model/program_json.cpp over model/recurrent.h: int64 arithmetic checked (overflow, division by
// zero: an ERROR), div = floor, comparisons 0/1, `and`/`or` evaluate both sides, registers of a
// fixed width (a negative or wider write is an ERROR), bags of words (a negative or wider word is
// an ERROR), a column beyond the row is an ERROR. An ERROR fails the instance: the engine rebuilds
// that index through the CPU's run(k), which reports the real error or failure.
#pragma once
#include <cstdint>

#include "gpu/grid_stride.h"
#include "gpu/hd.h"
#include "gpu/program_bytecode.h"
#include "gpu/sd_pairs.h"

namespace cz::gpu {

struct ProgramJob {
  ProgInfo info;
  SdShape shape;
  bool exact_min_state = false;  // sd/recurrent-jrt: bag 0 holds exactly n·min(|A|,|B|) bits (n·|A| plain)
};

struct ProgramScratch {
  std::int64_t stack[kProgMaxStack];
  std::uint64_t reg[kProgMaxRegs];
  unsigned regw[kProgMaxRegs];
  std::uint64_t bag[kProgMaxBags][kProgBagWords];
  unsigned bagw[kProgMaxBags];
  std::uint64_t bagn[kProgMaxBags];  // |bag| (bits = |bag|·width; bags only grow, so the max is the last)
  std::int64_t row[kProgMaxD], out[kProgMaxD];
  std::int64_t out_width;            // -1 before the first row
  SdPair x;
};

CZ_HD bool prog_fits(std::uint64_t v, std::int64_t width) { return width >= 64 || v < (std::uint64_t(1) << width); }

// a OP b for the binary ops; false on an ERROR (model/program_json.cpp eval()).
CZ_HD bool prog_binary(std::int32_t op, std::int64_t a, std::int64_t b, std::int64_t& r) {
  switch (op) {
    case kAdd:
      if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b)) return false;
      r = a + b;
      return true;
    case kSub:
      if ((b < 0 && a > INT64_MAX + b) || (b > 0 && a < INT64_MIN + b)) return false;
      r = a - b;
      return true;
    case kMul:
      if (a > 0 ? (b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a) : (b > 0 ? a < INT64_MIN / b : (a != 0 && b < INT64_MAX / a)))
        return false;
      r = a * b;
      return true;
    case kDiv:
      if (b == 0 || (a == INT64_MIN && b == -1)) return false;
      r = a / b;
      if (a % b != 0 && ((a < 0) != (b < 0))) --r;  // floor
      return true;
    case kEq: r = a == b; return true;
    case kNe: r = a != b; return true;
    case kLt: r = a < b; return true;
    case kLe: r = a <= b; return true;
    case kGt: r = a > b; return true;
    case kGe: r = a >= b; return true;
    case kAnd: r = a != 0 && b != 0; return true;
    default: r = a != 0 || b != 0; return true;  // kOr
  }
}

// Runs one segment from pc to its kEnd at row i (init: i = 0, no row); false on an ERROR.
CZ_HD bool prog_exec(const ProgInsn* code, std::int32_t pc, std::int64_t i, std::int64_t rows, std::int64_t d,
                     unsigned n, ProgramScratch& s) {
  std::int64_t* st = s.stack;
  int sp = 0;
  for (;;) {
    const ProgInsn& in = code[pc++];
    switch (in.op) {
      case kConst: st[sp++] = in.imm; break;
      case kI: st[sp++] = i; break;
      case kRows: st[sp++] = rows; break;
      case kD: st[sp++] = d; break;
      case kReg: st[sp++] = static_cast<std::int64_t>(s.reg[in.a]); break;
      case kCol:
        if (in.a >= d) return false;
        st[sp++] = s.row[in.a];
        break;
      case kWord: {
        std::int64_t w = 0;
        for (std::int64_t b = 0; b < in.imm; ++b) {
          if (in.a + b >= d) return false;
          if (s.row[in.a + b] != 0) w |= std::int64_t{1} << b;
        }
        st[sp++] = w;
        break;
      }
      case kIn: {
        const std::int64_t w = st[sp - 1];
        const unsigned bw = s.bagw[in.a];
        const bool has = w >= 0 && prog_fits(static_cast<std::uint64_t>(w), bw) &&
                         ((s.bag[in.a][w >> 6] >> (w & 63)) & 1);
        st[sp - 1] = has ? 1 : 0;
        break;
      }
      case kBitsFor: {
        const std::int64_t v = st[sp - 1];
        std::int64_t b = 0;
        if (v > 1)
          while (b < 64 && (std::uint64_t(1) << b) < static_cast<std::uint64_t>(v)) ++b;
        st[sp - 1] = b;
        break;
      }
      case kNot: st[sp - 1] = st[sp - 1] == 0 ? 1 : 0; break;
      case kJz:
        if (st[--sp] == 0) pc = in.a;
        break;
      case kJmp: pc = in.a; break;
      case kSet: {
        const std::int64_t v = st[--sp];
        if (v < 0 || !prog_fits(static_cast<std::uint64_t>(v), s.regw[in.a])) return false;
        s.reg[in.a] = static_cast<std::uint64_t>(v);
        break;
      }
      case kInsert: {
        const std::int64_t v = st[--sp];
        if (v < 0 || !prog_fits(static_cast<std::uint64_t>(v), s.bagw[in.a])) return false;
        std::uint64_t& word = s.bag[in.a][v >> 6];
        const std::uint64_t bit = std::uint64_t(1) << (v & 63);
        if (!(word & bit)) ++s.bagn[in.a];
        word |= bit;
        break;
      }
      case kOutWidth: {  // run_recurrent: every output row has the same width
        const std::int64_t w = st[--sp];
        if (w < 0 || w > (1 << 20) || (s.out_width >= 0 && w != s.out_width)) return false;
        s.out_width = w;
        for (unsigned c = 0; c <= n; ++c) s.out[c] = 0;
        break;
      }
      case kOutCount:
        if (in.imm != s.out_width) return false;
        break;
      case kOutValue: {
        const std::int64_t v = st[--sp];
        if (in.a <= static_cast<std::int32_t>(n)) s.out[in.a] = v;  // only columns 0..n are read
        break;
      }
      case kRegDecl: {
        const std::int64_t v = st[--sp], w = st[--sp];
        if (w < 0 || w > 64 || v < 0 || !prog_fits(static_cast<std::uint64_t>(v), w)) return false;
        s.regw[in.a] = static_cast<unsigned>(w);
        s.reg[in.a] = static_cast<std::uint64_t>(v);
        break;
      }
      case kBagDecl: {
        const std::int64_t w = st[--sp];
        if (w < 0 || w > kProgMaxBagBits) return false;  // > 12: refused at compile time for every device row count
        s.bagw[in.a] = static_cast<unsigned>(w);
        s.bagn[in.a] = 0;
        for (int q = 0; q < ((1 << w) + 63) / 64; ++q) s.bag[in.a][q] = 0;
        break;
      }
      case kEnd: return true;
      default: {
        std::int64_t r = 0;
        --sp;
        if (!prog_binary(in.op, st[sp - 1], st[sp], r)) return false;
        st[sp - 1] = r;
      }
    }
  }
}

// The program's init for a prompt of `rows` rows (d = n + 1); false on an ERROR.
CZ_HD bool prog_init(const ProgInfo& info, const ProgInsn* code, std::int64_t rows, ProgramScratch& s) {
  s.out_width = -1;
  return prog_exec(code, info.init_begin, 0, rows, static_cast<std::int64_t>(info.n) + 1, info.n, s);
}

// true iff the program fails on x: an ERROR, output rows narrower than n + 1, flagged elements
// (decode_flags: flag column n nonzero) other than A ∩ B, or (exact_min_state) bag 0 not holding
// exactly n·min(|A|,|B|) bits (n·|A| on the plain prompt): recurrent_jrt.cpp verdict().
CZ_HD bool prog_pair_fails(const ProgramJob& job, const ProgInsn* code, const SdPair& x, ProgramScratch& s) {
  const ProgInfo& info = job.info;
  const unsigned n = info.n;
  const std::int64_t rows = static_cast<std::int64_t>(sd_prompt_rows(x, info.copies)), d = n + 1;
  if (!prog_init(info, code, rows, s)) return true;
  std::uint64_t flagged = 0;  // bit j: A[j] was flagged
  for (std::int64_t i = 0; i < rows; ++i) {
    sd_prompt_row(x, static_cast<std::uint64_t>(i), s.row);
    if (!prog_exec(code, info.step_begin, i, rows, d, n, s)) return true;
    if (s.out_width < d) return true;  // SD reads the flag at column n
    if (s.out[n] == 0) continue;
    std::uint32_t e = 0;
    for (unsigned b = 0; b < n; ++b)
      if (s.out[b] != 0) e |= std::uint32_t(1) << b;
    int j = 0;
    while (j < x.na && x.A[j] != e) ++j;
    bool in_b = false;
    for (int q = 0; q < x.nb; ++q) in_b = in_b || x.B[q] == e;
    if (j == x.na || !in_b) return true;  // a flagged element outside A ∩ B
    flagged |= std::uint64_t(1) << j;
  }
  for (int j = 0; j < x.na; ++j) {  // every common element flagged
    bool in_b = false;
    for (int q = 0; q < x.nb; ++q) in_b = in_b || x.B[q] == x.A[j];
    if (in_b && !((flagged >> j) & 1)) return true;
  }
  if (job.exact_min_state) {
    if (info.n_bags == 0) return true;  // recurrent_jrt.cpp reads bag 0 (.at(0) throws)
    const std::uint64_t m = info.copies == 1 ? x.na : (x.na < x.nb ? x.na : x.nb);
    if (s.bagn[0] * s.bagw[0] != n * m) return true;
  }
  return false;
}

CZ_HD bool prog_instance_fails(const ProgramJob& job, const ProgInsn* code, std::uint64_t k, ProgramScratch& s) {
  sd_pair(job.shape, k, s.x);
  return prog_pair_fails(job, code, s.x, s);
}

// Thread tid of a grid of `stride` threads over instances [k0, k0 + count) (gpu/grid_stride.h):
// the kernel's whole body, so the twin test runs the launch's own loop on a tiny grid.
CZ_HD void prog_thread(const ProgramJob& job, const ProgInsn* code, std::uint64_t k0, std::uint64_t count, std::uint64_t tid,
                       std::uint64_t stride, ProgramScratch& s, FailTally& f) {
  grid_stride(tid, stride, count, [&](std::uint64_t t) {
    if (prog_instance_fails(job, code, k0 + t, s)) f.fail(k0 + t);
  });
}

}  // namespace cz::gpu
