#include "model/layer_json_check.h"

#include <map>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "exact/rings.h"
#include "model/model_json.h"
#include "util/error.h"
#include "util/memory_budget.h"
#include "util/suggest.h"

namespace cz {
using json = nlohmann::json;

namespace {

// The fields of each kind (contract.md "model-json", "Architecture layers"). "form" (h3) and
// "rotation" (retnet) are read by arch_layer.cpp.
const std::map<std::string, std::vector<std::string>>& fields_of_kind() {
  static const std::map<std::string, std::vector<std::string>> f = {
      {"baseconv", {"kind", "W", "b1", "h", "b2"}},
      {"mlp", {"kind", "activation", "W1", "B1", "W2", "B2"}},
      {"linear_attention", {"kind", "Wq", "Wk", "Wv"}},
      {"hyena", {"kind", "order", "W", "h_s", "filters"}},
      {"h3", {"kind", "form", "WQ", "WK", "WV", "shift", "diag"}},
      {"retnet", {"kind", "heads", "WQ", "WK", "WV", "WO", "gamma", "rotation"}},
      {"rwkv", {"kind", "mu", "WV", "decay", "bonus"}},
  };
  return f;
}

// Weight fields of the architecture kinds (every number below them must lie in the ring).
const std::map<std::string, std::vector<std::string>>& weights_of_kind() {
  static const std::map<std::string, std::vector<std::string>> w = {
      {"hyena", {"W", "h_s", "filters"}},
      {"h3", {"WQ", "WK", "WV", "shift", "diag"}},
      {"retnet", {"WQ", "WK", "WV", "WO", "gamma", "rotation"}},
      {"rwkv", {"mu", "WV", "decay", "bonus"}},
  };
  return w;
}

void only_keys(const json& o, const std::vector<std::string>& known, const std::string& what, const std::string& where) {
  if (!o.is_object()) return;  // the reader says "expected a JSON object"
  for (auto it = o.begin(); it != o.end(); ++it) {
    bool ok = false;
    for (const auto& k : known) ok |= k == it.key();
    if (ok) continue;
    std::string all;
    for (const auto& k : known) all += (all.empty() ? "" : ", ") + k;
    throw InputError("unknown field " + json_brief(json(it.key())) + " in " + what + " (known: " + all + ")" + did_you_mean(it.key(), known),
                     where);
  }
}

const json* get(const json& o, const char* key) {
  if (!o.is_object()) return nullptr;
  auto it = o.find(key);
  return it == o.end() ? nullptr : &*it;
}

// Rows of a matrix field when it is an array (0: absent or not an array; the reader says why).
std::size_t rows_of(const json* m) { return m && m->is_array() ? m->size() : 0; }
std::size_t cols_of(const json* m) { return m && m->is_array() && !m->empty() && (*m)[0].is_array() ? (*m)[0].size() : 0; }

std::string count_text(std::size_t n, const char* unit, const std::string& why) {
  return std::to_string(n) + " " + unit + (why.empty() ? "" : " (" + why + ")");
}

// A matrix of at most rows x cols (0: not fixed by the shape); only the lengths of the arrays are
// read. Longer than the shape needs costs memory and is refused here; shorter is left to the
// reader's own messages (the operator's, e.g. "want one decay γ per head").
void want_matrix(const json& L, const char* key, std::size_t rows, std::size_t cols, const std::string& why, const std::string& where) {
  const json* m = get(L, key);
  const std::string w = where + "." + key;
  if (!m || !m->is_array()) return;
  if (rows && m->size() > rows) throw InputError("expected " + count_text(rows, "rows", why) + ", got " + std::to_string(m->size()), w);
  if (cols && !m->empty() && (*m)[0].is_array() && (*m)[0].size() > cols)
    throw InputError("expected " + count_text(cols, "columns", why) + ", got " + std::to_string((*m)[0].size()), w + "[0]");
}

void want_vector(const json* v, std::size_t n, const std::string& why, const std::string& w) {
  if (v && v->is_array() && v->size() > n) throw InputError("expected " + count_text(n, "entries", why) + ", got " + std::to_string(v->size()), w);
}

// A small positive count read the way arch_layer.cpp reads it (unchecked here when it is not one).
std::size_t count_field(const json& L, const char* key) {
  const json* v = get(L, key);
  if (!v || !v->is_number_unsigned()) return 0;
  const std::uint64_t x = v->get<std::uint64_t>();
  return x >= 1 && x <= 4096 ? static_cast<std::size_t>(x) : 0;
}

void want_width(std::uint64_t width, const std::string& kind, const LayerShape& s, const std::string& where) {
  if (width > s.inner_d)
    throw InputError("a " + kind + " layer needs inner_d >= " + std::to_string(width) + " (its BaseConv simulation's width), got " +
                         std::to_string(s.inner_d),
                     where);
}

void check_arch_shapes(const json& L, const std::string& kind, const LayerShape& s, const std::string& where) {
  const std::size_t n = s.inner_N;
  if (kind == "hyena") {
    const std::size_t k = count_field(L, "order"), d = rows_of(get(L, "W"));
    if (!k || !d) return;
    want_width(sat_mul(k + 1, d), kind, s, where);
    want_matrix(L, "W", d, (k + 1) * d, "(order+1)·d", where);
    want_matrix(L, "h_s", n, (k + 1) * d, "inner_N x (order+1)·d", where);
    const json* f = get(L, "filters");
    want_vector(f, k, "one filter per order", where + ".filters");
    if (f && f->is_array())
      for (std::size_t l = 0; l < f->size(); ++l) {
        const std::string w = where + ".filters[" + std::to_string(l) + "]";
        if (rows_of(&(*f)[l]) > n) throw InputError("expected " + count_text(n, "rows", "inner_N") + ", got " + std::to_string(rows_of(&(*f)[l])), w);
        if (cols_of(&(*f)[l]) > d) throw InputError("expected " + count_text(d, "columns", "d") + ", got " + std::to_string(cols_of(&(*f)[l])), w + "[0]");
      }
  } else if (kind == "h3") {
    const std::size_t d = rows_of(get(L, "WQ"));
    if (!d) return;
    want_width(sat_mul(3, d), kind, s, where);
    for (const char* key : {"WQ", "WK", "WV"}) want_matrix(L, key, d, d, "d x d", where);
    const json* first_B = nullptr;
    if (const json* sh = get(L, "shift"); sh && sh->is_array() && !sh->empty()) first_B = get((*sh)[0], "B");
    const std::size_t m = first_B && first_B->is_array() ? first_B->size() : 0;
    for (const char* key : {"shift", "diag"}) {
      const bool diagonal = std::string(key) == "diag";
      const json* f = get(L, key);
      const std::string wf = where + "." + key;
      want_vector(f, d, "one SSM per channel", wf);
      if (!f || !f->is_array()) continue;
      for (std::size_t c = 0; c < f->size(); ++c) {
        const std::string w = wf + "[" + std::to_string(c) + "]";
        only_keys((*f)[c], diagonal ? std::vector<std::string>{"lambda", "B", "C", "D"} : std::vector<std::string>{"B", "C", "D"},
                  "an SSM", w);
        for (const char* v : {"lambda", "B", "C"})
          if (m && (diagonal || std::string(v) != "lambda")) want_vector(get((*f)[c], v), m, "the state size, shift[0].B's", w + "." + v);
      }
    }
  } else if (kind == "retnet") {
    const std::size_t H = count_field(L, "heads"), d = rows_of(get(L, "WQ"));
    if (!H || !d) return;
    want_vector(get(L, "gamma"), H, "one per head", where + ".gamma");
    const std::size_t qk = cols_of(get(L, "WQ")), v = cols_of(get(L, "WV"));
    if (qk % H || v % H) return;  // arch_layer.cpp's message
    const std::uint64_t dk = qk / H, dv = v / H;
    want_width(sat_add(sat_mul(sat_mul(H, dk), dv), sat_mul(2 * H, dk)), kind, s, where);
    want_matrix(L, "WQ", d, qk, "d x heads·dk", where);
    want_matrix(L, "WK", d, qk, "d x heads·dk", where);
    want_matrix(L, "WV", d, v, "d x heads·dv", where);
    want_matrix(L, "WO", v, d, "heads·dv x d", where);
  } else if (kind == "rwkv") {
    const std::size_t d = rows_of(get(L, "WV"));
    if (!d) return;
    want_width(sat_mul(2, d), kind, s, where);
    want_matrix(L, "WV", d, d, "d x d", where);
    for (const char* key : {"mu", "decay", "bonus"}) want_vector(get(L, key), d, "d, one per channel", where + "." + key);
  }
}

// Every number below j lies in F_p (its denominator is not divisible by p).
void in_field(const json& j, const RingFp& fp, const std::string& ring, std::string& path) {
  if (j.is_array() || j.is_object()) {
    std::size_t i = 0;
    for (auto it = j.begin(); it != j.end(); ++it, ++i) {
      const std::size_t len = path.size();
      path += j.is_array() ? "[" + std::to_string(i) + "]" : "." + it.key();
      in_field(*it, fp, ring, path);
      path.resize(len);
    }
    return;
  }
  if (!j.is_number_integer() && !j.is_string()) return;  // the reader names other types
  const Rat q = rat_from_json(j, path);
  try {
    (void)fp.from_rat(q);
  } catch (const std::domain_error&) {
    throw InputError("entry " + json_brief(j) + " is not in the model's ring " + ring + " (its denominator is divisible by " +
                         std::to_string(fp.prime()) + ")",
                     path);
  }
}

}  // namespace

void check_layer_json(const json& L, const std::string& kind, const LayerShape& s, const std::string& where) {
  const auto& fields = fields_of_kind();
  const auto f = fields.find(kind);
  if (f == fields.end() || !L.is_object()) return;  // the reader's messages
  only_keys(L, f->second, "a " + kind + " layer", where);
  const std::size_t n = s.inner_N, d = s.inner_d;
  if (kind == "baseconv") {
    if (const json* W = get(L, "W"); W && W->is_array()) want_matrix(L, "W", d, d, "inner_d x inner_d", where);
    for (const char* k : {"b1", "h", "b2"}) want_matrix(L, k, n, d, "inner_N x inner_d", where);
  } else if (kind == "mlp") {
    for (const char* k : {"W1", "W2"}) want_matrix(L, k, d, d, "inner_d x inner_d", where);
    for (const char* k : {"B1", "B2"}) want_matrix(L, k, n, d, "inner_N x inner_d", where);
  } else if (kind == "linear_attention") {
    want_matrix(L, "Wq", d, 0, "inner_d rows", where);
    want_matrix(L, "Wk", d, cols_of(get(L, "Wq")), "inner_d x Wq's columns", where);
    want_matrix(L, "Wv", d, d, "inner_d x inner_d", where);
  } else {
    if (s.N != s.inner_N)
      throw InputError("a " + kind + " layer needs N = inner_N (an architecture layer runs on the whole sequence), got N " + std::to_string(s.N) +
                           ", inner_N " + std::to_string(s.inner_N),
                       where);
    check_arch_shapes(L, kind, s, where);
    if (const std::uint64_t p = check_ring_name(s.ring, where)) {
      const RingFp fp(p);
      for (const auto& key : weights_of_kind().at(kind))
        if (const json* w = get(L, key.c_str())) {
          std::string path = where + "." + key;
          in_field(*w, fp, s.ring, path);
        }
    }
  }
}

}  // namespace cz
