#include "tasks/mqar.h"

#include <algorithm>
#include <set>

#include <nlohmann/json.hpp>

#include "util/error.h"

namespace cz::mqar {

std::string to_string(Layout l) { return l == Layout::Triples ? "triples" : "zoology"; }

std::string to_string(Encoding e) {
  switch (e) {
    case Encoding::OneHot: return "onehot";
    case Encoding::Binary: return "binary";
    case Encoding::PHot: return "phot";
  }
  return "?";
}

namespace {
std::vector<int> mask_of(std::size_t N, const std::vector<std::size_t>& rows) {
  std::vector<int> m(N, 0);
  for (std::size_t r : rows) m[r] = 1;
  return m;
}
void check_token(std::int64_t t, std::size_t c, const std::string& what) {
  if (t < 0 || static_cast<std::uint64_t>(t) >= c)
    throw InputError(what + " token " + std::to_string(t) + " lies outside [0, " + std::to_string(c) + ")", "mqar instance");
}
}  // namespace

std::vector<int> Instance::key_mask() const { return mask_of(N(), key_rows); }
std::vector<int> Instance::value_mask() const { return mask_of(N(), value_rows); }
std::vector<int> Instance::query_mask() const { return mask_of(N(), query_rows); }

Instance make_triples(std::size_t c, const std::vector<std::int64_t>& keys, const std::vector<std::int64_t>& values,
                      const std::vector<std::int64_t>& queries) {
  const std::size_t n = keys.size();
  if (values.size() != n || queries.size() != n)
    throw InputError("triples need as many values and queries as keys", "mqar instance");
  Instance x;
  x.layout = Layout::Triples;
  x.c = c;
  x.tokens.resize(3 * n);
  for (std::size_t i = 0; i < n; ++i) {
    check_token(keys[i], c, "key");
    check_token(values[i], c, "value");
    check_token(queries[i], c, "query");
    x.tokens[3 * i] = keys[i];
    x.tokens[3 * i + 1] = values[i];
    x.tokens[3 * i + 2] = queries[i];
    x.key_rows.push_back(3 * i);
    x.value_rows.push_back(3 * i + 1);
    x.query_rows.push_back(3 * i + 2);
    x.visible.push_back(i);  // strict j < i (spec §6.1, E5)
  }
  return x;
}

Instance make_zoology(std::size_t c, std::size_t N, const std::vector<std::int64_t>& keys,
                      const std::vector<std::int64_t>& values, const std::vector<std::size_t>& query_rows,
                      const std::vector<std::int64_t>& query_tokens, std::int64_t filler) {
  const std::size_t K = keys.size();
  if (values.size() != K) throw InputError("zoology layout needs one value per key", "mqar instance");
  if (query_rows.size() != query_tokens.size()) throw InputError("one token per query row", "mqar instance");
  if (2 * K > N) throw InputError("2K pairs do not fit in N rows", "mqar instance");
  check_token(filler, c, "filler");
  Instance x;
  x.layout = Layout::Zoology;
  x.c = c;
  x.tokens.assign(N, filler);
  for (std::size_t j = 0; j < K; ++j) {
    check_token(keys[j], c, "key");
    check_token(values[j], c, "value");
    x.tokens[2 * j] = keys[j];
    x.tokens[2 * j + 1] = values[j];
    x.key_rows.push_back(2 * j);
    x.value_rows.push_back(2 * j + 1);
  }
  for (std::size_t i = 0; i < query_rows.size(); ++i) {
    const std::size_t r = query_rows[i];
    if (r < 2 * K || r >= N) throw InputError("query row " + std::to_string(r) + " lies outside [2K, N)", "mqar instance");
    if (i && r <= query_rows[i - 1]) throw InputError("query rows must be strictly increasing", "mqar instance");
    check_token(query_tokens[i], c, "query");
    x.tokens[r] = query_tokens[i];
    x.query_rows.push_back(r);
    x.visible.push_back(K);  // all pairs precede every query
  }
  return x;
}

void validate(const Instance& x, const std::string& where) {
  auto fail = [&](const std::string& what) { throw InputError(what, where); };
  const std::size_t N = x.N();
  if (x.c == 0) fail("vocabulary size c must be positive");
  for (std::int64_t t : x.tokens)
    if (t < 0 || static_cast<std::uint64_t>(t) >= x.c) fail("token " + std::to_string(t) + " outside [0, c)");
  if (x.value_rows.size() != x.key_rows.size()) fail("one value row per key row");
  if (x.visible.size() != x.query_rows.size()) fail("one visibility bound per query");
  std::set<std::size_t> used;
  auto take = [&](std::size_t r) {
    if (r >= N) fail("position " + std::to_string(r) + " beyond N");
    if (!used.insert(r).second) fail("row " + std::to_string(r) + " is in two position sets");
  };
  for (std::size_t j = 0; j < x.pairs(); ++j) {
    take(x.key_rows[j]);
    take(x.value_rows[j]);
    if (x.value_rows[j] != x.key_rows[j] + 1) fail("the value of a pair must follow its key");
    if (j && x.key_rows[j] <= x.key_rows[j - 1]) fail("key rows must increase");
  }
  for (std::size_t i = 0; i < x.query_rows.size(); ++i) {
    take(x.query_rows[i]);
    if (i && x.query_rows[i] <= x.query_rows[i - 1]) fail("query rows must increase");
    if (x.visible[i] > x.pairs()) fail("a query sees more pairs than exist");
    if (i && x.visible[i] < x.visible[i - 1]) fail("visibility must not shrink along the sequence");
    if (x.visible[i] && x.value_rows[x.visible[i] - 1] >= x.query_rows[i]) fail("a query may only see earlier pairs");
  }
  if (x.layout == Layout::Triples) {
    if (N % 3) fail("triples layout needs N = 3n");
    for (std::size_t i = 0; i < N / 3; ++i)
      if (x.key_rows.size() != N / 3 || x.key_rows[i] != 3 * i || x.query_rows.size() != N / 3 ||
          x.query_rows[i] != 3 * i + 2 || x.visible[i] != i)
        fail("position sets do not match the triples layout");
  }
}

bool distinct_keys(const Instance& x) {
  std::set<std::int64_t> s;
  for (std::size_t j = 0; j < x.pairs(); ++j)
    if (!s.insert(x.key(j)).second) return false;
  return true;
}

nlohmann::json to_json(const Instance& x) {
  nlohmann::json j = {{"layout", to_string(x.layout)}, {"c", x.c}, {"tokens", x.tokens}};
  if (x.layout == Layout::Zoology) {
    j["key_rows"] = x.key_rows;
    j["query_rows"] = x.query_rows;
  }
  return j;
}

// ---- encodings ----

Codec make_codec(Encoding e, std::size_t c, std::size_t p) {
  Codec k;
  k.enc = e;
  k.c = c;
  if (c == 0) throw InputError("vocabulary size must be positive", "-p c");
  switch (e) {
    case Encoding::OneHot:
      k.d = c;
      break;
    case Encoding::Binary: {
      if (c < 2) throw InputError("binary encoding needs c >= 2", "-p c");
      std::size_t b = 0;
      while ((std::size_t{1} << b) < c) ++b;
      k.base = 2;
      k.d = b;
      break;
    }
    case Encoding::PHot: {
      if (p == 0) throw InputError("p-hot needs p >= 1", "-p p");
      std::size_t base = 1;
      for (;;) {  // smallest base with base^p >= c; must be exact (JRT Def G.10)
        unsigned __int128 pw = 1;
        for (std::size_t i = 0; i < p && pw <= c; ++i) pw *= base;
        if (pw >= c) {
          if (pw != c) throw InputError("p-hot needs c = base^p for an integer base", "-p p");
          break;
        }
        ++base;
      }
      k.p = p;
      k.base = base;
      k.d = p * base;
      break;
    }
  }
  return k;
}

std::vector<std::int64_t> encode_token(const Codec& k, std::int64_t t) {
  if (t < 0 || static_cast<std::uint64_t>(t) >= k.c) throw InputError("token outside [0, c)", "encode");
  std::vector<std::int64_t> row(k.d, 0);
  const auto ut = static_cast<std::uint64_t>(t);
  switch (k.enc) {
    case Encoding::OneHot:
      row[ut] = 1;
      break;
    case Encoding::Binary:
      for (std::size_t b = 0; b < k.d; ++b) row[b] = static_cast<std::int64_t>((ut >> b) & 1);
      break;
    case Encoding::PHot: {
      std::uint64_t r = ut;
      for (std::size_t i = 0; i < k.p; ++i) {
        row[i * k.base + r % k.base] = 1;
        r /= k.base;
      }
      break;
    }
  }
  return row;
}

Matrix<std::int64_t> encode(const Codec& k, const Instance& x) {
  Matrix<std::int64_t> u(x.N(), k.d, 0);
  for (std::size_t r = 0; r < x.N(); ++r) {
    auto row = encode_token(k, x.tokens[r]);
    std::copy(row.begin(), row.end(), u.row(r));
  }
  return u;
}

Decoded decode_bits(const Codec& k, const std::vector<int>& bits) {
  std::size_t ones = 0;
  for (int b : bits) ones += b != 0;
  switch (k.enc) {
    case Encoding::OneHot:
      if (ones == 0) return {Decoded::Null, 0};
      if (ones != 1) return {Decoded::Invalid, 0};
      for (std::size_t j = 0; j < k.d; ++j)
        if (bits[j]) return {Decoded::Token, static_cast<std::int64_t>(j)};
      break;
    case Encoding::Binary: {
      std::uint64_t t = 0;
      for (std::size_t b = 0; b < k.d; ++b) t |= static_cast<std::uint64_t>(bits[b] != 0) << b;
      if (t >= k.c) return {Decoded::Invalid, 0};
      return {Decoded::Token, static_cast<std::int64_t>(t)};
    }
    case Encoding::PHot: {
      if (ones == 0) return {Decoded::Null, 0};
      std::uint64_t t = 0, w = 1;
      for (std::size_t i = 0; i < k.p; ++i) {
        std::size_t digit = k.base, cnt = 0;
        for (std::size_t j = 0; j < k.base; ++j)
          if (bits[i * k.base + j]) digit = j, ++cnt;
        if (cnt != 1) return {Decoded::Invalid, 0};
        t += digit * w;
        w *= k.base;
      }
      return {Decoded::Token, static_cast<std::int64_t>(t)};
    }
  }
  return {Decoded::Invalid, 0};
}

Matrix<std::int64_t> expected_answer(const Codec& k, const Instance& x, const std::vector<std::optional<std::int64_t>>& answers,
                                     bool with_found) {
  if (answers.size() != x.query_rows.size()) throw std::invalid_argument("one answer per query");
  Matrix<std::int64_t> y(x.N(), k.d + (with_found ? 1 : 0), 0);
  for (std::size_t i = 0; i < answers.size(); ++i)
    if (answers[i]) {
      auto row = encode_token(k, *answers[i]);
      std::copy(row.begin(), row.end(), y.row(x.query_rows[i]));
      if (with_found) y(x.query_rows[i], k.d) = 1;
    }
  return y;
}

Matrix<std::int64_t> expected_output(const Codec& k, const Instance& x,
                                     const std::vector<std::optional<std::int64_t>>& answers) {
  return expected_answer(k, x, answers, false);
}

std::uint64_t msb_prefix(std::uint64_t x, std::size_t bits, std::size_t len) {
  if (len > bits || bits > 63) throw std::invalid_argument("msb_prefix: len <= bits <= 63");
  return len == 0 ? 0 : (x >> (bits - len)) & ((std::uint64_t{1} << len) - 1);
}

std::vector<int> bin_msb_first(std::uint64_t i, std::size_t bits) {
  std::vector<int> b(bits);
  for (std::size_t k = 0; k < bits; ++k) b[k] = static_cast<int>((i >> (bits - 1 - k)) & 1);
  return b;
}

}  // namespace cz::mqar
