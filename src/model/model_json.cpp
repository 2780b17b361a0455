#include "model/model_json.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "exact/rings.h"
#include "model/arch_layer.h"
#include "model/kmatrix_projection.h"
#include "model/layer_json_check.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/memory_budget.h"
#include "util/text.h"

namespace cz {
using json = nlohmann::json;

namespace {
constexpr std::int64_t kJsonSafe = (std::int64_t(1) << 53) - 1;

const json& field(const json& j, const char* key, const std::string& where) {
  if (!j.is_object()) throw InputError("expected a JSON object", where);
  auto it = j.find(key);
  if (it == j.end()) throw InputError(std::string("missing field '") + key + "'", where);
  return *it;
}

std::size_t dim(const json& j, const char* key, const std::string& where) {
  const json& v = field(j, key, where);
  // Parsed text gives unsigned numbers; a json built in memory may hold a positive signed one.
  if (!v.is_number_integer() || (!v.is_number_unsigned() && v.get<std::int64_t>() <= 0) || v.get<std::uint64_t>() == 0 ||
      v.get<std::uint64_t>() > (1u << 28))
    throw InputError("expected a positive integer", where + "." + key);
  return v.get<std::size_t>();
}
}  // namespace

std::string json_brief(const json& j) {
  if (j.is_structured()) return std::string("an ") + (j.is_array() ? "array" : "object");  // dump() recurses
  if (j.is_string()) {  // cut before escaping: a long string is never copied whole
    const std::string& s = j.get_ref<const std::string&>();
    return "\"" + printable(std::string_view(s).substr(0, 64), 60) + (s.size() > 60 ? "" : "\"");
  }
  return printable(j.dump(-1, ' ', false, json::error_handler_t::replace), 60);
}

json rat_to_json(const Rat& x) {
  if (x.is_integer() && x.num().fits_int64()) {
    std::int64_t v = x.num().to_int64();
    if (v >= -kJsonSafe && v <= kJsonSafe) return v;
  }
  return x.str();
}

Rat rat_from_json(const json& j, const std::string& where) {
  if (j.is_number_integer()) return j.is_number_unsigned() ? Rat(Int::parse(std::to_string(j.get<std::uint64_t>())).value()) : Rat(j.get<std::int64_t>());
  if (j.is_string()) {
    auto q = Rat::parse(j.get<std::string>());
    if (!q) throw InputError("not an exact number: \"" + printable(j.get<std::string>()) + "\" (want an integer or \"p/q\" with q != 0)", where);
    return *q;
  }
  if (j.is_number_float()) throw InputError("floating-point number " + json_brief(j) + " (exact entries only: integers or \"p/q\")", where);
  throw InputError("expected a number, got " + std::string(j.type_name()), where);
}

json matrix_to_json(const RatMatrix& m) {
  json rows = json::array();
  for (std::size_t i = 0; i < m.rows(); ++i) {
    json r = json::array();
    for (std::size_t j = 0; j < m.cols(); ++j) r.push_back(rat_to_json(m(i, j)));
    rows.push_back(std::move(r));
  }
  return rows;
}

RatMatrix matrix_from_json(const json& j, const std::string& where) {
  if (!j.is_array()) throw InputError("expected a matrix (array of rows)", where);
  const std::size_t rows = j.size();
  const std::size_t cols = rows ? (j[0].is_array() ? j[0].size() : 0) : 0;
  // Shape first: rows x cols is allocated only once every row is known to hold cols entries.
  for (std::size_t i = 0; i < rows; ++i) {
    const std::string wi = where + "[" + std::to_string(i) + "]";
    if (!j[i].is_array()) throw InputError("expected a row (array)", wi);
    if (j[i].size() != cols) throw InputError("ragged matrix: row has " + std::to_string(j[i].size()) + " entries, want " + std::to_string(cols), wi);
  }
  RatMatrix m(rows, cols);
  for (std::size_t i = 0; i < rows; ++i) {
    const std::string wi = where + "[" + std::to_string(i) + "]";
    for (std::size_t c = 0; c < cols; ++c) m(i, c) = rat_from_json(j[i][c], wi + "[" + std::to_string(c) + "]");
  }
  return m;
}

json model_to_json(const Model& m) {
  // An architecture layer is written as the user wrote it while its expansion is untouched (model/
  // arch_layer.h arch_origin_holds: it then reads back to exactly these layers), else the layers.
  std::map<std::size_t, const ArchOrigin*> arch_at;
  for (const ArchOrigin& o : m.arch)
    if (arch_origin_holds(m, o)) arch_at.emplace(o.first, &o);
  json layers = json::array();
  for (std::size_t l = 0; l < m.layers.size(); ++l) {
    if (auto a = arch_at.find(l); a != arch_at.end()) {
      layers.push_back(arch_to_json(*a->second->layer));
      l += a->second->count - 1;
      continue;
    }
    std::visit([&](const auto& L) {
      using T = std::decay_t<decltype(L)>;
      if constexpr (std::is_same_v<T, BaseConvLayer>) {
        const KMatrix<Rat>* k = kmatrix_form(L);  // written as given while it still expands to W
        layers.push_back({{"kind", "baseconv"}, {"W", k ? kmatrix_to_json(*k) : matrix_to_json(L.W)}, {"b1", matrix_to_json(L.b1)}, {"h", matrix_to_json(L.h)}, {"b2", matrix_to_json(L.b2)}});
      } else if constexpr (std::is_same_v<T, MlpLayer>)
        layers.push_back({{"kind", "mlp"}, {"activation", "relu"}, {"W1", matrix_to_json(L.W1)}, {"B1", matrix_to_json(L.B1)}, {"W2", matrix_to_json(L.W2)}, {"B2", matrix_to_json(L.B2)}});
      else
        layers.push_back({{"kind", "linear_attention"}, {"Wq", matrix_to_json(L.Wq)}, {"Wk", matrix_to_json(L.Wk)}, {"Wv", matrix_to_json(L.Wv)}});
    }, m.layers[l]);
  }
  return {{"format", "circuitzoo.model/1"}, {"ring", m.ring}, {"N", m.N}, {"d", m.d},
          {"inner_N", m.inner_N}, {"inner_d", m.inner_d}, {"conv", to_string(m.conv)}, {"layers", layers}};
}

Model model_from_json(const json& j, const std::string& where) {
  const json& fmt = field(j, "format", where);
  if (!fmt.is_string() || fmt.get<std::string>() != "circuitzoo.model/1")
    throw InputError("unknown format (want \"circuitzoo.model/1\")", where + ".format");
  Model m;
  const json& ring = field(j, "ring", where);
  if (!ring.is_string()) throw InputError("expected a string", where + ".ring");
  m.ring = ring.get<std::string>();
  check_ring_name(m.ring, where + ".ring");
  m.N = dim(j, "N", where);
  m.d = dim(j, "d", where);
  m.inner_N = dim(j, "inner_N", where);
  m.inner_d = dim(j, "inner_d", where);
  // Evaluating the model holds a few inner_N x inner_d matrices even when the file has no layers
  // (issue 9: inner dims 20000 took 3.1 GB): refuse before anything is allocated.
  require_memory(sat_mul(sat_mul(m.inner_N, m.inner_d), 48),
                 "a model with inner dimensions " + std::to_string(m.inner_N) + " x " + std::to_string(m.inner_d), where);
  const json& conv = field(j, "conv", where);
  auto mode = conv.is_string() ? parse_conv_mode(conv.get<std::string>()) : std::nullopt;
  if (!mode) throw InputError("unknown conv mode " + json_brief(conv) + " (want causal, cyclic or anticausal)", where + ".conv");
  m.conv = *mode;
  const json& layers = field(j, "layers", where);
  if (!layers.is_array()) throw InputError("expected an array of layers", where + ".layers");
  for (std::size_t l = 0; l < layers.size(); ++l) {
    const std::string w = where + ".layers[" + std::to_string(l) + "]";
    const json& L = layers[l];
    const json& kind = field(L, "kind", w);
    // Keys, lengths and ring before any weight is read (model/layer_json_check.h).
    if (kind.is_string()) check_layer_json(L, kind.get<std::string>(), {m.N, m.d, m.inner_N, m.inner_d, m.ring}, w);
    auto mat = [&](const char* k) { return matrix_from_json(field(L, k, w), w + "." + k); };
    if (kind == "baseconv") {
      const json& W = field(L, "W", w);
      if (W.is_object()) {  // a K-matrix projection (contract: "K-matrix projections"), expanded exactly
        auto k = std::make_shared<const KMatrix<Rat>>(kmatrix_from_json(W, m.inner_d, m.ring, w + ".W"));
        m.layers.emplace_back(BaseConvLayer{kmatrix_dense(*k, m.inner_d), mat("b1"), mat("h"), mat("b2"), k});
      } else {
        m.layers.emplace_back(BaseConvLayer{mat("W"), mat("b1"), mat("h"), mat("b2")});
      }
    } else if (kind == "mlp") {
      if (L.contains("activation") && L["activation"] != "relu")
        throw InputError("unknown activation " + json_brief(L["activation"]) + " (want relu)", w + ".activation");
      m.layers.emplace_back(MlpLayer{mat("W1"), mat("B1"), mat("W2"), mat("B2")});
    } else if (kind == "linear_attention") {
      m.layers.emplace_back(LinearAttentionLayer{mat("Wq"), mat("Wk"), mat("Wv")});
    } else if (kind.is_string() && is_arch_kind(kind.get<std::string>())) {  // contract: "Architecture layers"
      append_arch(m, arch_from_json(L, m.inner_N, w), w);
    } else {
      throw InputError("unknown layer kind " + json_brief(kind) + " (want baseconv, mlp, linear_attention, hyena, h3, retnet or rwkv)", w + ".kind");
    }
  }
  validate(m, where);
  return m;
}

void write_model_file(const Model& m, const std::string& path) { write_file_atomic(path, model_to_json(m).dump(1) + "\n"); }

Model read_model_file(const std::string& path) {
  try {
    JsonLimits limits;
    limits.max_values = kModelMaxValues;
    const json j = read_json_file(path, kModelMaxBytes, "a model-json file", limits);
    return model_from_json(j, path);
  } catch (const json::exception& e) {  // a value of an unexpected JSON type that slipped past a check
    throw InputError("malformed model-json: " + printable(e.what(), 200), path);
  } catch (const std::bad_alloc&) {
    throw InputError("out of memory while reading this model", path);
  }
}

}  // namespace cz
