#include "verify/arch_check.h"

#include <functional>
#include <memory>
#include <stdexcept>

#include "exact/rings.h"
#include "model/arch_layer.h"
#include "model/eval.h"
#include "model/model_json.h"
#include "util/error.h"
#include "verify/matrix_domain.h"
#include "verify/model_check.h"

namespace cz {

namespace {

std::string layer_name(const ArchOrigin& o) {
  return "the " + arch_kind(*o.layer) + " layer's expansion (model layers " + std::to_string(o.first) + " to " +
         std::to_string(o.first + o.count - 1) + ")";
}

// One recorded layer: its stored expansion prepared alone (a model on the whole N'×d' state).
template <Ring R>
struct Part {
  ArchOrigin origin;
  PreparedModel<R> expansion;
};

template <Ring R>
std::shared_ptr<const std::vector<Part<R>>> prepare_parts(const R& ring, const Model& m, const std::string& where) {
  auto parts = std::make_shared<std::vector<Part<R>>>();
  for (const ArchOrigin& o : m.arch) {
    Model s;
    s.ring = m.ring, s.N = s.inner_N = m.inner_N, s.d = s.inner_d = m.inner_d, s.conv = m.conv;
    s.layers.assign(m.layers.begin() + static_cast<std::ptrdiff_t>(o.first), m.layers.begin() + static_cast<std::ptrdiff_t>(o.first + o.count));
    try {
      parts->push_back({o, prepare(ring, s)});
    } catch (const std::domain_error& e) {  // a weight outside the ring (Fp dividing a denominator)
      throw InputError(std::string(e.what()) + " in " + layer_name(o), where);
    }
  }
  return parts;
}

// Every part's expansion against arch_eval on the state u, in ring R; the first wrong entry as a
// Failure. Over RingI64 an intermediate beyond int64 throws Overflow (the caller redoes it in Z).
template <Ring R>
std::optional<Failure> first_wrong(const R& ring, const std::vector<Part<R>>& parts, const Matrix<std::int64_t>& u, const std::string& ring_name) {
  const Matrix<typename R::Elem> x = map_matrix(u, [&](std::int64_t v) { return ring.from_int(v); });
  auto rat = [&](const Matrix<typename R::Elem>& y) { return matrix_to_json(map_matrix(y, [&](const auto& e) { return ring.to_rat(e); })); };
  for (const Part<R>& p : parts) {
    const Matrix<typename R::Elem> got = eval_inner(p.expansion, x), want = arch_eval(ring, *p.origin.layer, x);
    for (std::size_t i = 0; i < want.rows(); ++i)
      for (std::size_t j = 0; j < want.cols(); ++j)
        if (!ring.equal(got(i, j), want(i, j))) {
          Failure f;
          f.instance = {{"arch_layer", arch_kind(*p.origin.layer)}, {"layers", {p.origin.first, p.origin.first + p.origin.count}}};
          f.input = int_matrix_json(u);
          f.expected = rat(want);
          f.got = rat(got);
          f.message = layer_name(p.origin) + ": output[" + std::to_string(i) + "][" + std::to_string(j) + "] is " +
                      ring.to_rat(got(i, j)).str() + ", want " + ring.to_rat(want(i, j)).str() + " (" + arch_kind(*p.origin.layer) +
                      "'s own evaluation, over " + ring_name + ")";
          return f;
        }
  }
  return std::nullopt;
}

using FailOf = MatrixFailureFn;

// Z: the checked int64 ring first, redone in Z (FLINT) when an intermediate leaves int64 (the
// verdict is exact either way; int64 is ~10x faster at N = 64).
FailOf fail_of_z(const Model& m, const std::string& where) {
  std::shared_ptr<const std::vector<Part<RingI64>>> fast;
  try {
    fast = prepare_parts(RingI64{}, m, where);
  } catch (const Overflow&) {  // a weight beyond int64: Z only
  }
  auto exact = prepare_parts(RingZ{}, m, where);
  return [fast, exact](const Matrix<std::int64_t>& u) {
    if (fast) {
      try {
        return first_wrong(RingI64{}, *fast, u, "Z");
      } catch (const Overflow&) {
      }
    }
    return first_wrong(RingZ{}, *exact, u, "Z");
  };
}

template <Ring R>
FailOf fail_of_in(const R& ring, const Model& m, const std::string& where) {
  auto parts = prepare_parts(ring, m, where);
  return [ring, parts](const Matrix<std::int64_t>& u) { return first_wrong(ring, *parts, u, ring.name()); };
}

Check make_check(const ArchStateDomain& dom, const FailOf& fail_of, const std::string& ring) {
  Check c = matrix_domain_check(dom, fail_of, dom.describe() + ", evaluated over " + ring);
  c.preconditions = {"each architecture layer's expansion is run alone on the whole N'xd' state and compared entry for entry "
                     "with the architecture's own exact evaluation (model/arch_layer.h arch_eval)"};
  c.block = scalar_blocks(c.run);
  c.block_kind = "adapter over run(k)";
  return c;
}

}  // namespace

Matrix<std::int64_t> ArchStateDomain::instance(std::uint64_t k) const {
  if (k >= box.count) return samples.instance(k - box.count);
  const Matrix<std::int64_t> b = box.instance(k);
  Matrix<std::int64_t> x(inner_N, inner_d, 0);
  for (std::size_t i = 0; i < b.rows(); ++i)
    for (std::size_t j = 0; j < b.cols(); ++j) x(i, j) = b(i, j);
  return x;
}

std::string ArchStateDomain::describe() const {
  std::string out;
  if (box.count) out = box.describe() + " as the first " + std::to_string(box.d) + " columns of the " + std::to_string(inner_N) + "x" +
                       std::to_string(inner_d) + " state (the rest 0)";
  if (samples.count) out += (out.empty() ? "" : ", then ") + samples.describe() + " (whole states)";
  return out;
}

std::string ArchStateDomain::kind() const {
  if (!samples.count) return "exhaustive";
  return box.count ? "exhaustive+sampled" : "sampled";
}

ArchStateDomain make_arch_domain(const Model& m, const DomainOptions& opts, const std::string& where) {
  if (m.arch.empty())
    throw InputError("the model has no architecture layers (hyena, h3, retnet, rwkv) to check: give another --task (see `circuitzoo tasks`)",
                     where);
  std::size_t w = 0;
  for (const ArchOrigin& o : m.arch) {
    if (!o.layer || o.count == 0 || o.first > m.layers.size() || o.count > m.layers.size() - o.first)
      throw InputError("an architecture layer record points beyond the model's layers", where);
    w = std::max(w, std::min(arch_width(*o.layer), m.inner_d));
  }
  ArchStateDomain d;
  d.inner_N = m.inner_N, d.inner_d = m.inner_d;
  d.box.N = d.samples.N = m.inner_N;
  d.box.d = w, d.samples.d = m.inner_d;
  d.box.seed = d.samples.seed = opts.seed;
  d.samples.range = kArchSampleRange;
  const std::size_t cells = m.inner_N * w;
  auto pick_box = [&](unsigned bits) {
    if (const std::uint64_t n3 = power_within(3, cells, bits)) d.box.lo = -1, d.box.hi = 1, d.box.box = n3;
    else if (const std::uint64_t n2 = power_within(2, cells, bits)) d.box.lo = 0, d.box.hi = 1, d.box.box = n2;
  };
  if (opts.force_exhaustive) {
    pick_box(kExhaustiveBitsMax);
    if (!d.box.box) throw InputError("exhaustive domain 2^" + std::to_string(cells) + " is too large (limit 2^32)", "--exhaustive");
  } else if (opts.samples) {
    d.samples.samples = *opts.samples;
  } else {
    if (const std::uint64_t n3 = power_within(3, cells, kArchBoxBits)) d.box.lo = -1, d.box.hi = 1, d.box.box = n3;
    d.samples.samples = d.box.box ? 1000 : 10000;
  }
  d.box.count = d.box.box;
  d.samples.count = d.samples.samples;
  d.box.exhaustive = true, d.samples.exhaustive = false;
  d.count = d.box.count + d.samples.count;
  return d;
}

Check arch_expansion_check(const Model& m, const DomainOptions& opts, const std::string& where) {
  const ArchStateDomain dom = make_arch_domain(m, opts, where);
  if (m.ring == "Z") return make_check(dom, fail_of_z(m, where), "Z");
  if (m.ring == "Q") return make_check(dom, fail_of_in(RingQ{}, m, where), "Q");
  const RingFp fp(check_ring_name(m.ring, where + ".ring"));
  return make_check(dom, fail_of_in(fp, m, where), fp.name());
}

}  // namespace cz
