#include "model/arch_layer.h"

#include <algorithm>
#include <sstream>

#include <nlohmann/json.hpp>

#include "model/model_json.h"
#include "model/zoo_compile.h"
#include "util/error.h"
#include "util/memory_budget.h"

namespace cz {
using json = nlohmann::json;

namespace {

const json& need(const json& j, const char* key, const std::string& where) {
  if (!j.is_object()) throw InputError("expected a JSON object", where);
  auto it = j.find(key);
  if (it == j.end()) throw InputError(std::string("missing field '") + key + "'", where);
  return *it;
}

std::vector<Rat> vec_from_json(const json& j, const std::string& where) {
  if (!j.is_array()) throw InputError("expected an array of numbers", where);
  std::vector<Rat> v;
  for (std::size_t i = 0; i < j.size(); ++i) v.push_back(rat_from_json(j[i], where + "[" + std::to_string(i) + "]"));
  return v;
}

json vec_to_json(const std::vector<Rat>& v) {
  json a = json::array();
  for (const Rat& x : v) a.push_back(rat_to_json(x));
  return a;
}

std::size_t count_from_json(const json& j, const char* key, const std::string& where) {
  const json& v = need(j, key, where);
  if (!v.is_number_unsigned() || v.get<std::uint64_t>() == 0 || v.get<std::uint64_t>() > 4096)
    throw InputError("expected an integer from 1 to 4096", where + "." + key);
  return v.get<std::size_t>();
}

Ssm ssm_from_json(const json& j, bool diagonal, const std::string& where) {
  Ssm s;
  if (diagonal) s.lambda = vec_from_json(need(j, "lambda", where), where + ".lambda");
  s.B = vec_from_json(need(j, "B", where), where + ".B");
  s.C = vec_from_json(need(j, "C", where), where + ".C");
  s.D = rat_from_json(need(j, "D", where), where + ".D");
  return s;
}

json ssm_to_json(const Ssm& s, bool diagonal) {
  json j = {{"B", vec_to_json(s.B)}, {"C", vec_to_json(s.C)}, {"D", rat_to_json(s.D)}};
  if (diagonal) j["lambda"] = vec_to_json(s.lambda);
  return j;
}

// RetNet's optional "rotation": one entry per head, either one [cos, sin] for every pair of the
// head's key coordinates or an array of dk/2 such points (contract: Architecture layers).
std::vector<std::vector<std::pair<Rat, Rat>>> rotation_from_json(const json& j, std::size_t heads, std::size_t dk, const std::string& where) {
  if (!j.is_array() || j.size() != heads) throw InputError("expected one rotation per head (" + std::to_string(heads) + ")", where);
  auto point = [](const json& p, const std::string& w) {
    if (!p.is_array() || p.size() != 2) throw InputError("expected a point [cos θ, sin θ]", w);
    return std::pair<Rat, Rat>{rat_from_json(p[0], w + "[0]"), rat_from_json(p[1], w + "[1]")};
  };
  std::vector<std::vector<std::pair<Rat, Rat>>> out;
  for (std::size_t h = 0; h < heads; ++h) {
    const std::string w = where + "[" + std::to_string(h) + "]";
    const json& e = j[h];
    if (!e.is_array()) throw InputError("expected [cos θ, sin θ] or an array of dk/2 of them", w);
    std::vector<std::pair<Rat, Rat>> head;
    if (e.size() == 2 && !e[0].is_array()) {
      head.assign(dk / 2, point(e, w));
    } else {
      if (e.size() != dk / 2) throw InputError("expected dk/2 = " + std::to_string(dk / 2) + " points [cos θ, sin θ]", w);
      for (std::size_t i = 0; i < e.size(); ++i) head.push_back(point(e[i], w + "[" + std::to_string(i) + "]"));
    }
    for (std::size_t i = 0; i < head.size(); ++i)
      if (head[i].first * head[i].first + head[i].second * head[i].second != Rat(1))
        throw InputError("(" + head[i].first.str() + ", " + head[i].second.str() + ") is not on the unit circle: cos² + sin² must be 1 exactly", w);
    out.push_back(std::move(head));
  }
  return out;
}

// The operator's own shape check, as an input error at the layer.
template <class Op>
Op checked(Op op, const std::string& where) {
  try {
    validate(op);
  } catch (const std::invalid_argument& e) {
    throw InputError(e.what(), where);
  }
  return op;
}

Model simulation(const ArchLayer& a) {
  return std::visit(
      [](const auto& op) {
        using T = std::decay_t<decltype(op)>;
        if constexpr (std::is_same_v<T, HyenaOperator>) return sim::hyena_to_baseconv(op);
        else if constexpr (std::is_same_v<T, H3Operator>) return sim::hyena_to_baseconv(h3_as_hyena(op), false);
        else if constexpr (std::is_same_v<T, RetNetOperator>) return sim::retnet_to_baseconv(op);
        else return sim::rwkv_to_baseconv(op);
      },
      a.op);
}

std::size_t op_N(const ArchLayer& a) {
  return std::visit([](const auto& op) { return op.N; }, a.op);
}

RatMatrix padded(const RatMatrix& m, std::size_t rows, std::size_t cols) {
  RatMatrix p(rows, cols);
  for (std::size_t i = 0; i < m.rows(); ++i)
    for (std::size_t j = 0; j < m.cols(); ++j) p(i, j) = m(i, j);
  return p;
}

double bits_of(const Rat& q) { return static_cast<double>(q.num().bits() + q.den().bits()); }
double max_bits(const std::vector<Rat>& v) {
  double b = 0;
  for (const Rat& q : v) b = std::max(b, bits_of(q));
  return b;
}
double max_bits(const RatMatrix& m) { return max_bits(m.data()); }

}  // namespace

double arch_coefficient_bits(const ArchLayer& a) {
  return std::visit(
      [](const auto& op) -> double {
        using T = std::decay_t<decltype(op)>;
        const double n1 = op.N > 0 ? static_cast<double>(op.N - 1) : 0.0;
        if constexpr (std::is_same_v<T, HyenaOperator>) {  // weights copied as they are
          double b = std::max(max_bits(op.W), max_bits(op.hs));
          for (const RatMatrix& h : op.h) b = std::max(b, max_bits(h));
          return b;
        } else if constexpr (std::is_same_v<T, H3Operator>) {  // h[t] = Σ_i C_i·λ_i^t·B_i + D·[t = 0]
          double b = std::max({max_bits(op.WQ), max_bits(op.WK), max_bits(op.WV)});
          for (const auto* f : {&op.shift, &op.diag})
            for (const Ssm& s : *f)
              b = std::max(b, static_cast<double>(op.m) * (max_bits(s.C) + max_bits(s.B) + n1 * max_bits(s.lambda)) + bits_of(s.D));
          return b;
        } else if constexpr (std::is_same_v<T, RetNetOperator>) {  // γ^t and the rotation's powers
          double b = std::max({max_bits(op.WQ), max_bits(op.WK), max_bits(op.WV), max_bits(op.WO)});
          for (std::size_t h = 0; h < op.heads; ++h) {
            double rot = 0;
            if (h < op.rotation.size())
              for (const auto& [c, s] : op.rotation[h]) rot = std::max(rot, bits_of(c) + bits_of(s));
            b = std::max(b, n1 * (bits_of(op.gamma[h]) + rot));
          }
          return b;
        } else {  // RWKV: λ^(t−1), β, 1 − μ
          return std::max(max_bits(op.WV), n1 * max_bits(op.decay) + max_bits(op.bonus) + max_bits(op.mu) + 1);
        }
      },
      a.op);
}

bool is_arch_kind(const std::string& kind) { return kind == "hyena" || kind == "h3" || kind == "retnet" || kind == "rwkv"; }

std::string arch_kind(const ArchLayer& a) {
  static const char* names[] = {"hyena", "h3", "retnet", "rwkv"};
  return names[a.op.index()];
}

std::size_t arch_width(const ArchLayer& a) {
  return std::visit(
      [](const auto& op) -> std::size_t {
        if constexpr (std::is_same_v<std::decay_t<decltype(op)>, RwkvOperator>) return 2 * op.d;
        else return op.d;
      },
      a.op);
}

std::size_t arch_sim_width(const ArchLayer& a) {
  return std::visit(
      [](const auto& op) -> std::size_t {
        using T = std::decay_t<decltype(op)>;
        if constexpr (std::is_same_v<T, HyenaOperator>) return (op.order + 1) * op.d;
        else if constexpr (std::is_same_v<T, H3Operator>) return 3 * op.d;
        else if constexpr (std::is_same_v<T, RetNetOperator>) return sim::retnet_inner_d(op);
        else return 2 * op.d;
      },
      a.op);
}

std::vector<BaseConvLayer> arch_expand(const ArchLayer& a, std::size_t inner_N, std::size_t inner_d, const std::string& where) {
  if (op_N(a) != inner_N)
    throw InputError("a " + arch_kind(a) + " layer of sequence length " + std::to_string(op_N(a)) + " in a model with inner_N " + std::to_string(inner_N),
                     where);
  if (arch_sim_width(a) > inner_d)
    throw InputError("a " + arch_kind(a) + " layer needs inner_d >= " + std::to_string(arch_sim_width(a)) + " (its BaseConv simulation's width), got " +
                         std::to_string(inner_d),
                     where);
  // The expansion can be far larger than the file (a Hyena of order k in a few bytes per filter
  // tap expands to k + 2 layers of d'×d' weights): refuse it up front, as the reader does for
  // inner dimensions. Two copies (the simulation, then its padding), 48 bytes a weight.
  const std::uint64_t layers = std::visit(
      [](const auto& op) -> std::uint64_t {
        using T = std::decay_t<decltype(op)>;
        if constexpr (std::is_same_v<T, HyenaOperator>) return op.order + 2;
        else if constexpr (std::is_same_v<T, RetNetOperator>) return 4;
        else return 3;
      },
      a.op);
  const std::uint64_t per_layer = sat_add(sat_mul(inner_d, inner_d), sat_mul(3 * inner_N, inner_d));
  require_memory(sat_mul(sat_mul(2 * layers, per_layer), 48),
                 "the BaseConv simulation of a " + arch_kind(a) + " layer (" + std::to_string(layers) + " layers at inner " +
                     std::to_string(inner_N) + " x " + std::to_string(inner_d) + ")",
                 where);
  // Issue 46 item 14: the expansion holds powers of the decays (γ^t, λ^t) and rotations: a weight
  // of b bits becomes coefficients of about (N − 1)·b bits, and every check then computes with
  // them. Bounded here, before anything is expanded, from the weights' bits and N.
  const double bits = arch_coefficient_bits(a);
  if (bits > static_cast<double>(kArchMaxCoefficientBits)) {
    std::ostringstream est;
    est.precision(3);
    est << bits;
    throw InputError("the BaseConv simulation of this " + arch_kind(a) + " layer would hold coefficients of about " + est.str() +
                         " bits (its weights' powers up to N − 1 = " + std::to_string(inner_N - 1) + "), over the limit of " +
                         std::to_string(kArchMaxCoefficientBits) + " bits a coefficient for a model file",
                     where);
  }
  const Model s = simulation(a);
  std::vector<BaseConvLayer> out;
  for (const Layer& l : s.layers) {
    const auto& b = std::get<BaseConvLayer>(l);
    out.push_back({padded(b.W, inner_d, inner_d), padded(b.b1, inner_N, inner_d), padded(b.h, inner_N, inner_d), padded(b.b2, inner_N, inner_d)});
  }
  return out;
}

std::shared_ptr<const ArchLayer> arch_from_json(const json& L, std::size_t inner_N, const std::string& where) {
  const json& kind = need(L, "kind", where);
  const std::string k = kind.is_string() ? kind.get<std::string>() : "";
  auto mat = [&](const char* key) { return matrix_from_json(need(L, key, where), where + "." + key); };
  auto vec = [&](const char* key) { return vec_from_json(need(L, key, where), where + "." + key); };
  auto a = std::make_shared<ArchLayer>();
  if (k == "hyena") {
    HyenaOperator op;
    op.order = count_from_json(L, "order", where);
    op.W = mat("W");
    op.hs = mat("h_s");
    op.N = op.hs.rows(), op.d = op.W.rows();
    // "filters", not "h": a BaseConv layer's "h" is one matrix (python/ converts it as one).
    const json& h = need(L, "filters", where);
    if (!h.is_array()) throw InputError("expected an array of k filters (N×d matrices)", where + ".filters");
    for (std::size_t l = 0; l < h.size(); ++l) op.h.push_back(matrix_from_json(h[l], where + ".filters[" + std::to_string(l) + "]"));
    a->op = checked(std::move(op), where);
  } else if (k == "h3") {
    H3Operator op;
    // "form" is required (contract 12-03): until then "h3" meant the shift_v reading; an old file
    // that lacks the key is refused rather than read with a changed meaning.
    const json* form = L.contains("form") ? &L["form"] : nullptr;
    if (!form)
      throw InputError("an h3 layer needs \"form\": \"published\" (H3 as Fu et al. 2023: Q ⊙ (h_diag ∗ ((h_shift ∗ K) ⊙ V))) or \"shift_v\" "
                       "(Q ⊙ (h_diag ∗ (K ⊙ (h_shift ∗ V))), what files written before 2026-12-03 meant)", where + ".form");
    if (*form == "published") op.form = H3Form::Published;
    else if (*form == "shift_v") op.form = H3Form::ShiftV;
    else throw InputError("unknown h3 form " + json_brief(*form) + " (want published or shift_v)", where + ".form");
    op.WQ = mat("WQ"), op.WK = mat("WK"), op.WV = mat("WV");
    op.N = inner_N, op.d = op.WQ.rows();
    for (bool diagonal : {false, true}) {
      const char* key = diagonal ? "diag" : "shift";
      const json& f = need(L, key, where);
      if (!f.is_array()) throw InputError("expected an array of one SSM per channel", where + "." + key);
      for (std::size_t c = 0; c < f.size(); ++c)
        (diagonal ? op.diag : op.shift).push_back(ssm_from_json(f[c], diagonal, where + "." + key + "[" + std::to_string(c) + "]"));
    }
    op.m = op.shift.empty() ? 0 : op.shift[0].B.size();
    a->op = checked(std::move(op), where);
  } else if (k == "retnet") {
    RetNetOperator op;
    op.heads = count_from_json(L, "heads", where);
    op.WQ = mat("WQ"), op.WK = mat("WK"), op.WV = mat("WV"), op.WO = mat("WO");
    op.gamma = vec("gamma");
    op.N = inner_N, op.d = op.WQ.rows();
    if (op.WQ.cols() % op.heads || op.WV.cols() % op.heads)
      throw InputError("WQ and WV must have a multiple of heads columns (H·dk, H·dv)", where);
    op.dk = op.WQ.cols() / op.heads, op.dv = op.WV.cols() / op.heads;
    if (L.contains("rotation")) {
      if (op.dk % 2) throw InputError("a rotation needs an even key width dk per head (pairs of coordinates)", where + ".rotation");
      op.rotation = rotation_from_json(L["rotation"], op.heads, op.dk, where + ".rotation");
    }
    a->op = checked(std::move(op), where);
  } else if (k == "rwkv") {
    RwkvOperator op;
    op.WV = mat("WV");
    op.mu = vec("mu"), op.decay = vec("decay"), op.bonus = vec("bonus");
    op.N = inner_N, op.d = op.WV.rows();
    a->op = checked(std::move(op), where);
  } else {
    throw InputError("unknown architecture layer " + json_brief(kind) + " (want hyena, h3, retnet or rwkv)", where + ".kind");
  }
  return a;
}

json arch_to_json(const ArchLayer& a) {
  return std::visit(
      [](const auto& op) -> json {
        using T = std::decay_t<decltype(op)>;
        if constexpr (std::is_same_v<T, HyenaOperator>) {
          json h = json::array();
          for (const RatMatrix& f : op.h) h.push_back(matrix_to_json(f));
          return {{"kind", "hyena"}, {"order", op.order}, {"W", matrix_to_json(op.W)}, {"h_s", matrix_to_json(op.hs)}, {"filters", h}};
        } else if constexpr (std::is_same_v<T, H3Operator>) {
          json shift = json::array(), diag = json::array();
          for (const Ssm& s : op.shift) shift.push_back(ssm_to_json(s, false));
          for (const Ssm& s : op.diag) diag.push_back(ssm_to_json(s, true));
          return {{"kind", "h3"}, {"form", h3_form_name(op.form)}, {"WQ", matrix_to_json(op.WQ)}, {"WK", matrix_to_json(op.WK)}, {"WV", matrix_to_json(op.WV)},
                  {"shift", shift}, {"diag", diag}};
        } else if constexpr (std::is_same_v<T, RetNetOperator>) {
          json j = {{"kind", "retnet"}, {"heads", op.heads}, {"WQ", matrix_to_json(op.WQ)}, {"WK", matrix_to_json(op.WK)},
                    {"WV", matrix_to_json(op.WV)}, {"WO", matrix_to_json(op.WO)}, {"gamma", vec_to_json(op.gamma)}};
          if (!op.rotation.empty()) {
            json rot = json::array();
            for (const auto& head : op.rotation) {
              json h = json::array();
              for (const auto& [c, s] : head) h.push_back({rat_to_json(c), rat_to_json(s)});
              rot.push_back(h);
            }
            j["rotation"] = rot;
          }
          return j;
        } else {
          return {{"kind", "rwkv"}, {"mu", vec_to_json(op.mu)}, {"WV", matrix_to_json(op.WV)}, {"decay", vec_to_json(op.decay)},
                  {"bonus", vec_to_json(op.bonus)}};
        }
      },
      a.op);
}

void append_arch(Model& m, std::shared_ptr<const ArchLayer> ap, const std::string& where) {
  const ArchLayer& a = *ap;
  if (m.conv != ConvMode::Causal) throw InputError("a " + arch_kind(a) + " layer needs the causal conv mode", where);
  std::vector<BaseConvLayer> ls = arch_expand(a, m.inner_N, m.inner_d, where);
  if (m.ring == "Z")
    for (const BaseConvLayer& b : ls)
      for (const RatMatrix* x : {&b.W, &b.b1, &b.h, &b.b2})
        for (const Rat& e : x->data())
          if (!e.is_integer())
            throw InputError("non-integer weight " + e.str() + " in the BaseConv simulation of this " + arch_kind(a) + " layer in a Z model (use ring Q)",
                             where);
  m.arch.push_back({m.layers.size(), ls.size(), std::move(ap)});
  for (auto& b : ls) m.layers.emplace_back(std::move(b));
}

void append_arch(Model& m, const ArchLayer& a, const std::string& where) { append_arch(m, std::make_shared<const ArchLayer>(a), where); }

bool arch_origin_holds(const Model& m, const ArchOrigin& o) {
  if (!o.layer || m.conv != ConvMode::Causal || o.count == 0 || o.first > m.layers.size() || o.count > m.layers.size() - o.first)
    return false;
  for (std::size_t l = o.first; l < o.first + o.count; ++l) {
    const auto* b = std::get_if<BaseConvLayer>(&m.layers[l]);
    if (!b || b->W_kmatrix) return false;
  }
  std::vector<BaseConvLayer> want;
  try {
    want = arch_expand(*o.layer, m.inner_N, m.inner_d, "model");
  } catch (const InputError&) {  // the inner shape changed so that the layer no longer fits
    return false;
  }
  if (want.size() != o.count) return false;
  for (std::size_t l = 0; l < o.count; ++l) {
    const auto& b = std::get<BaseConvLayer>(m.layers[o.first + l]);
    if (!(b.W == want[l].W && b.b1 == want[l].b1 && b.h == want[l].h && b.b2 == want[l].b2)) return false;
  }
  return true;
}

}  // namespace cz
