// circuit/compare: the comparator of Zoology Def H.31 / Lemma H.32 on d-bit words: outputs
// lt = [x < y], eq = [x = y], min(x, y) and max(x, y), built with parallel-prefix trees.
// Lemma H.32 claims size O(d), width O(d), depth O(log d); we show the measured size, width and
// depth beside them (asymptotic: `sweep circuit/compare --vary d=...` fits the exponents) and
// bind our own explicit bounds. Verified on all 2^(2d) inputs against plain C++ (<, ==, min, max).
#include <algorithm>
#include <cmath>

#include "circuits/gadgets_compare.h"
#include "constructions/circuits/support.h"
#include "gpu/lop_check.h"

namespace cz {
namespace {

const bool registered = register_construction({
    "circuit/compare", "compare", "d-bit comparator (lt, eq, min, max) with size O(d), depth O(log d) (Zoology Lemma H.32)",
    {int_param("d", 4, 1, 1 << 12, "word bits")},
    [](const Params& p) {
      namespace g = circuits::gadgets;
      const std::size_t d = p.u("d");
      circuits::Builder b;
      g::Bits x = g::input_bits(b, "x", d), y = g::input_bits(b, "y", d);
      b.output("lt", g::less_than(b, x, y));
      b.output("eq", g::equal(b, x, y));
      auto [lo, hi] = g::min_max(b, x, y);
      for (std::size_t k = 0; k < d; ++k) b.output("min[" + std::to_string(k) + "]", lo[k]);
      for (std::size_t k = 0; k < d; ++k) b.output("max[" + std::to_string(k) + "]", hi[k]);
      Built r;
      auto s = circ::attach(r, std::move(b).finish());
      const double D = static_cast<double>(d), lg = std::ceil(std::log2(std::max(2.0, D)));
      const char* src = "Zoology Lemma H.32 (citing Cormen et al.)";
      r.claims.push_back(shape_claim("size", "O(d)", D, src, s.size));
      r.claims.push_back(shape_claim("width", "O(d)", D, src, s.width));
      r.claims.push_back(shape_claim("depth", "O(log d)", std::max(1.0, std::log2(D)), src, s.depth));
      r.claims.push_back(our_claim("size", static_cast<long long>(30 * d), "upper_bound", "ours: prefix-tree lt + eq + min/max", s.size));
      r.claims.push_back(our_claim("depth", static_cast<long long>(6 * lg + 10), "upper_bound", "ours: 6 per tree level + leaves + mux", s.depth));
      return r;
    },
    [](const Params& p, const Built& b, const DomainOptions& o) {
      const std::size_t d = p.u("d");
      // Plain comparison of the two bit strings, most significant bit first.
      auto ref = [d](const std::vector<int>& in) {
        int cmp = 0;
        for (std::size_t k = d; k-- > 0;)
          if (in[k] != in[d + k]) {
            cmp = in[k] < in[d + k] ? -1 : 1;
            break;
          }
        std::vector<long long> out = {cmp < 0, cmp == 0};
        const std::size_t lo = cmp <= 0 ? 0 : d, hi = cmp <= 0 ? d : 0;
        for (std::size_t k = 0; k < d; ++k) out.push_back(in[lo + k]);
        for (std::size_t k = 0; k < d; ++k) out.push_back(in[hi + k]);
        return out;
      };
      auto device = [c = b.circuit_ir, d]() -> std::shared_ptr<const DeviceProgram> { return gpu::lop_compare_check(*c, d); };
      return circ::exhaustive_01_check(b.circuit_ir, ref, o, "pairs of d-bit words", nullptr, device);
    }});
}  // namespace
}  // namespace cz
