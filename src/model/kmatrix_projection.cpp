#include "model/kmatrix_projection.h"

#include <algorithm>
#include <optional>

#include <nlohmann/json.hpp>

#include "model/model_json.h"
#include "tensor/kmatrix_forms.h"
#include "util/error.h"
#include "util/memory_budget.h"

namespace cz {
using json = nlohmann::json;

RatMatrix kmatrix_dense(const KMatrix<Rat>& k) { return dense(RingQ{}, k); }

RatMatrix kmatrix_dense(const KMatrix<Rat>& k, std::size_t rows) {
  if (rows == k.n) return kmatrix_dense(k);
  if (rows > k.n) throw std::invalid_argument("kmatrix_dense: corner larger than the K-matrix");
  RingQ Q;
  RatMatrix m(rows, rows);
  std::vector<Rat> e(k.n);
  for (std::size_t j = 0; j < rows; ++j) {
    e[j] = Rat(1);
    const auto col = apply(Q, k, e);
    e[j] = Rat();
    for (std::size_t i = 0; i < rows; ++i) m(i, j) = col[i];
  }
  return m;
}

const KMatrix<Rat>* kmatrix_form(const BaseConvLayer& L) {
  const KMatrix<Rat>* k = L.W_kmatrix.get();
  if (!k || L.W.rows() != L.W.cols() || (k->n != L.W.rows() && k->n != pad_pow2(L.W.rows()))) return nullptr;
  try {
    k->check_shape();
  } catch (const std::invalid_argument&) {
    return nullptr;
  }
  return kmatrix_dense(*k, L.W.rows()) == L.W ? k : nullptr;
}

KMatrixParamCount count_params_kmatrix(const Model& m) {
  KMatrixParamCount pc;
  pc.dense = count_params(m).dense;
  pc.kmatrix = pc.dense;
  for (std::size_t l = 0; l < m.layers.size(); ++l) {
    const auto* L = std::get_if<BaseConvLayer>(&m.layers[l]);
    if (!L) continue;
    const KMatrix<Rat>* k = kmatrix_form(*L);
    if (!k) continue;
    KMatrixProjection p;
    p.layer = l, p.n = k->n, p.e = k->e, p.width = k->width();
    p.params = kmatrix_params(*k);
    p.params_formula = kmatrix_params_formula(k->width(), k->e, k->n);
    p.dense_params = L->W.rows() * L->W.cols();
    pc.kmatrix = pc.kmatrix - p.dense_params + p.params;
    pc.projections.push_back(p);
  }
  return pc;
}

Model with_kmatrix_forms(const Model& m) {
  Model out = m;
  for (auto& layer : out.layers) {
    auto* L = std::get_if<BaseConvLayer>(&layer);
    if (!L || kmatrix_form(*L)) continue;
    auto f = kmatrix_form_of(RingQ{}, L->W);
    if (!f) continue;
    L->W_kmatrix = std::make_shared<const KMatrix<Rat>>(std::move(f->k));
    if (!kmatrix_form(*L)) L->W_kmatrix = nullptr;  // never taken while kmatrix_forms.h is right (its tests)
  }
  return out;
}

AllKmatrixCount count_params_all_kmatrix(const Model& m) {
  AllKmatrixCount c;
  c.total = count_params(m).dense;
  for (const auto& layer : m.layers) {
    const auto* L = std::get_if<BaseConvLayer>(&layer);
    if (!L) continue;
    const std::size_t n = L->W.rows(), nh = pad_pow2(n);
    std::size_t k = 0;
    if (auto f = kmatrix_form_of(RingQ{}, L->W)) {
      k = kmatrix_params(f->k), ++c.structured;
    } else {
      std::size_t s = 0;
      for (const Rat& x : L->W.data()) s += x.is_zero() ? 0 : 1;
      k = kmatrix_params_formula(sparse_plan_width(s, nh), 4, nh), ++c.thm3;
    }
    c.total = c.total - n * n + k;
    c.largest_projection = std::max(c.largest_projection, k);
  }
  return c;
}

json kmatrix_params_json(const Model& m) {
  const KMatrixParamCount pc = count_params_kmatrix(m);
  json ps = json::array();
  for (const auto& p : pc.projections)
    ps.push_back({{"layer", p.layer}, {"n", p.n}, {"e", p.e}, {"w", p.width}, {"params", p.params},
                  {"params_formula", p.params_formula}, {"dense_params", p.dense_params}});
  return {{"params_dense", pc.dense}, {"params_kmatrix", pc.kmatrix}, {"kmatrix_projections", ps}};
}

namespace {

const json& member(const json& j, const char* key, const std::string& where) {
  if (!j.is_object()) throw InputError("expected a JSON object", where);
  auto it = j.find(key);
  if (it == j.end()) throw InputError(std::string("missing field '") + key + "'", where);
  return *it;
}

std::size_t pow2_field(const json& j, const char* key, std::size_t max, const std::string& where) {
  const json& v = member(j, key, where);
  if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<std::int64_t>() > 0))
    throw InputError("expected a positive integer", where + "." + key);
  const std::uint64_t x = v.get<std::uint64_t>();
  if (x == 0 || x > max || !is_pow2(static_cast<std::size_t>(x)))
    throw InputError("expected a power of two from 1 to " + std::to_string(max) + ", got " + json_brief(v), where + "." + key);
  return static_cast<std::size_t>(x);
}

}  // namespace

KMatrix<Rat> kmatrix_from_json(const json& j, std::size_t want_n, const std::string& ring, const std::string& where) {
  const json& kind = member(j, "kind", where);
  if (!kind.is_string() || kind.get<std::string>() != "kmatrix")
    throw InputError("unknown projection kind " + json_brief(kind) + " (want \"kmatrix\", or give W as a matrix)", where + ".kind");
  KMatrix<Rat> k;
  k.n = pow2_field(j, "n", std::size_t{1} << 20, where);
  k.e = pow2_field(j, "e", std::size_t{1} << 20, where);
  if (k.n != want_n && k.n != pad_pow2(want_n))
    throw InputError("K-matrix of size " + std::to_string(k.n) + " for a " + std::to_string(want_n) + "×" + std::to_string(want_n) +
                     " projection (n must be inner_d rounded up to a power of two)", where + ".n");
  const std::size_t m = k.n * k.e;
  if (m > (std::size_t{1} << 20)) throw InputError("inner size e·n = " + std::to_string(m) + " above 2^20", where + ".e");
  const json& els = member(j, "elements", where);
  if (!els.is_array()) throw InputError("expected an array of BB* elements", where + ".elements");
  const unsigned L = log2_exact(m);
  // Stored entries, the dense n×n expansion and the work of expanding it (n columns through every
  // entry) are bounded before anything is allocated.
  const std::uint64_t entries = sat_mul(sat_mul(els.size(), 2 * std::uint64_t{L}), 2 * m);
  // Width multiplies the file, the factors held and every expansion (issue 36 item 12: w = 200000
  // took 45 s and 969 MB at n = 4), and no n×n matrix needs more than 4n: Thm 3's form of one with
  // s nonzeros has width 3⌈s/n⌉ + 1 <= 3n + 1 (tensor/kmatrix_forms.h).
  if (els.size() > 4 * std::uint64_t{k.n})
    throw InputError("a K-matrix of width w = " + std::to_string(els.size()) + " (" + std::to_string(entries) + " entries, about " +
                         format_bytes(sat_mul(entries, 112)) + " to read), above 4n = " + std::to_string(4 * k.n) +
                         ": every n x n matrix has a K-matrix of width at most 4n (Dao et al. 2020, Thm 3)",
                     where + ".elements");
  require_memory(sat_mul(entries, 48), "a K-matrix projection with " + std::to_string(entries) + " entries", where);
  require_memory(sat_mul(sat_mul(k.n, k.n), 48), "the " + std::to_string(k.n) + "×" + std::to_string(k.n) + " expansion of a K-matrix", where);
  if (sat_mul(entries, k.n) > (std::uint64_t{1} << 34))
    throw InputError("K-matrix too large to expand exactly (" + std::to_string(entries) + " entries × " + std::to_string(k.n) + " columns)", where);
  const std::uint64_t p = check_ring_name(ring, where);
  const std::optional<RingFp> fp = p ? std::optional<RingFp>(RingFp(p)) : std::nullopt;
  auto in_ring = [&](const Rat& q, const std::string& w) {
    try {
      if (ring == "Z") (void)RingZ{}.from_rat(q);
      else if (fp) (void)fp->from_rat(q);
    } catch (const std::domain_error&) {
      throw InputError("entry " + q.str() + " is not in the model's ring " + ring, w);
    }
  };
  for (std::size_t e = 0; e < els.size(); ++e) {
    const std::string we = where + ".elements[" + std::to_string(e) + "]";
    BBStar<Rat> el;
    for (auto [key, bf] : {std::pair{"M1", &el.M1}, {"M2", &el.M2}}) {
      const std::string wb = we + "." + key;
      const json& fs = member(els[e], key, we);
      if (!fs.is_array() || fs.size() != L)
        throw InputError("expected an array of log2(e·n) = " + std::to_string(L) + " butterfly factors", wb);
      bf->n = m;
      for (unsigned f = 0; f < L; ++f) {
        const std::string wf = wb + "[" + std::to_string(f) + "]";
        ButterflyFactor<Rat> F;
        F.n = m, F.k = std::size_t{2} << f;
        for (auto [dk, dv] : {std::pair{"d1", &F.d1}, {"d2", &F.d2}, {"d3", &F.d3}, {"d4", &F.d4}}) {
          const std::string wd = wf + "." + dk;
          const json& d = member(fs[f], dk, wf);
          if (!d.is_array() || d.size() != m / 2)
            throw InputError("expected a diagonal of e·n/2 = " + std::to_string(m / 2) + " entries", wd);
          dv->reserve(m / 2);
          for (std::size_t t = 0; t < d.size(); ++t) {
            const std::string wt = wd + "[" + std::to_string(t) + "]";
            dv->push_back(rat_from_json(d[t], wt));
            in_ring(dv->back(), wt);
          }
        }
        bf->factors.push_back(std::move(F));
      }
    }
    k.elements.push_back(std::move(el));
  }
  return k;
}

json kmatrix_to_json(const KMatrix<Rat>& k) {
  json els = json::array();
  for (const auto& el : k.elements) {
    json o = json::object();
    for (auto [key, bf] : {std::pair{"M1", &el.M1}, {"M2", &el.M2}}) {
      json fs = json::array();
      for (const auto& F : bf->factors) {
        json f = json::object();
        for (auto [dk, dv] : {std::pair{"d1", &F.d1}, {"d2", &F.d2}, {"d3", &F.d3}, {"d4", &F.d4}}) {
          json d = json::array();
          for (const Rat& x : *dv) d.push_back(rat_to_json(x));
          f[dk] = std::move(d);
        }
        fs.push_back(std::move(f));
      }
      o[key] = std::move(fs);
    }
    els.push_back(std::move(o));
  }
  return {{"kind", "kmatrix"}, {"n", k.n}, {"e", k.e}, {"elements", els}};
}

}  // namespace cz
