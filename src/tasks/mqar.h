// MQAR task types (spec §6; Zoology H.7, JRT G.1.2): one instance = a token sequence plus the
// position sets that say which rows hold keys, values and queries, and which keys each query may
// see. Constructions read the position sets; the reference solver (tasks/mqar_reference.h) reads
// only the layout and the tokens. Two layouts:
//   - Triples (theory, spec §6.1): n triples, key at row 3i, value at 3i+1, query at 3i+2. Query i
//     may match key j only for j < i STRICTLY (spec E5: the key of its own triple does not count).
//   - Zoology (experiments, zoology/data/multiquery_ar.py, spec §6.1): K pairs first (key 2j,
//     value 2j+1), then queries at later rows; every query may see all K pairs. Other rows hold a
//     filler token (0 in zoology; 0 is never a key there).
// Tokens are integers in [0, c). Keys should be distinct within a sequence: with duplicate keys
// MQAR is undefined (spec E5); the enumerators and samplers here only produce distinct keys.
// Encodings (spec §6.2) turn an instance into the N×d input matrix u of a model; see Codec.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "tensor/matrix.h"

namespace cz::mqar {

enum class Layout { Triples, Zoology };
std::string to_string(Layout l);

struct Instance {
  Layout layout = Layout::Triples;
  std::size_t c = 0;                    // vocabulary size: every token lies in [0, c)
  std::vector<std::int64_t> tokens;     // the sequence; row p of u encodes tokens[p]
  std::vector<std::size_t> key_rows;    // key of pair j (ascending rows)
  std::vector<std::size_t> value_rows;  // value of pair j (key_rows[j] + 1 in both layouts)
  std::vector<std::size_t> query_rows;  // ascending rows
  std::vector<std::size_t> visible;     // query i may match pairs [0, visible[i]) only

  std::size_t N() const { return tokens.size(); }
  std::size_t pairs() const { return key_rows.size(); }
  std::int64_t key(std::size_t j) const { return tokens[key_rows[j]]; }
  std::int64_t value(std::size_t j) const { return tokens[value_rows[j]]; }
  std::int64_t query(std::size_t i) const { return tokens[query_rows[i]]; }
  // 0/1 masks over the N rows (M_K, M_V, M_Q of Zoology eq 20).
  std::vector<int> key_mask() const;
  std::vector<int> value_mask() const;
  std::vector<int> query_mask() const;
};

// n = keys.size() triples (k_i, v_i, q_i); N = 3n. Throws InputError on a token outside [0, c).
Instance make_triples(std::size_t c, const std::vector<std::int64_t>& keys, const std::vector<std::int64_t>& values,
                      const std::vector<std::int64_t>& queries);
// Zoology layout of length N: pairs (keys[j], values[j]) at rows 2j, 2j+1; query tokens at the
// given rows (each >= 2K, ascending, distinct); `filler` everywhere else.
Instance make_zoology(std::size_t c, std::size_t N, const std::vector<std::int64_t>& keys,
                      const std::vector<std::int64_t>& values, const std::vector<std::size_t>& query_rows,
                      const std::vector<std::int64_t>& query_tokens, std::int64_t filler = 0);

// Consistency of tokens and position sets with the layout; throws InputError(what, where).
void validate(const Instance& x, const std::string& where = "mqar instance");
bool distinct_keys(const Instance& x);
nlohmann::json to_json(const Instance& x);  // {layout, c, tokens, keys, values, queries (rows)}

// ---- Encodings (spec §6.2) ----
enum class Encoding { OneHot, Binary, PHot };
std::string to_string(Encoding e);

struct Codec {
  Encoding enc = Encoding::OneHot;
  std::size_t c = 0;     // vocabulary
  std::size_t p = 1;     // p-hot: number of digits
  std::size_t base = 0;  // p-hot: c^(1/p); binary: 2
  std::size_t d = 0;     // row width
};
// one-hot: d = c, token t -> e_t.
// binary: d = ceil(log2 c) (c >= 2), column b holds bit b of t, i.e. column 0 is the LEAST
//   significant bit (Zoology's dec(x) reads x[0] as the LSB; spec §6.2 and E6). Prefixes for the
//   dyadic construction are read MSB-first: see msb_prefix().
// p-hot (JRT Def G.10): c = base^p exactly; t = sum_k t_k base^k (t_0 least significant), and
//   columns [k*base, (k+1)*base) one-hot encode digit t_k; d = p*base.
// Throws InputError when c (and p) do not fit the encoding.
Codec make_codec(Encoding e, std::size_t c, std::size_t p = 1);
std::vector<std::int64_t> encode_token(const Codec& k, std::int64_t t);
Matrix<std::int64_t> encode(const Codec& k, const Instance& x);  // N×d

// Decoding one output row. One-hot and p-hot: the zero row is Null. Binary: every 0/1 row is a
// token, so the zero row reads as token 0 (binary outputs cannot tell null from token 0; compare
// whole matrices there). Anything that is not a codeword is Invalid.
struct Decoded {
  enum Kind { Null, Token, Invalid } kind = Null;
  std::int64_t token = 0;
  bool operator==(const Decoded&) const = default;
};
Decoded decode_bits(const Codec& k, const std::vector<int>& bits);  // a 0/1 row of width d
template <class E>
Decoded decode_row(const Codec& k, const Matrix<E>& m, std::size_t row) {
  std::vector<int> bits(k.d);
  for (std::size_t j = 0; j < k.d; ++j) {
    const E& e = m(row, j);
    if (e == E(0)) bits[j] = 0;
    else if (e == E(1)) bits[j] = 1;
    else return {Decoded::Invalid, 0};
  }
  return decode_bits(k, bits);
}

// MQAR's answer, every cell, defined here once (issue 46 item 1): at each query row the encoded
// answer in columns [0, d) (the zero row for null) and, in the optional column d, the FOUND bit
// ([some visible key equals the query]); every other cell is 0. Column d is judged exactly when the
// artifact has it: a model's output is N×d (no found column); a circuit that outputs any cell
// y[r][d] has an N×(d+1) output, its cells of column d that it leaves out read as 0 (binary rows
// cannot tell null from token 0, so mqar/dyadic outputs found there). The bit-level SAT reference
// (circuits/reference/mqar_ref.h) judges the same cells.
inline constexpr const char* kFoundColumnText = "column d (optional): the found bit, 1 at a query row whose query matches a visible key";
// The N×d (with_found: N×(d+1)) matrix for `answers` (one per query, nullopt = null).
Matrix<std::int64_t> expected_answer(const Codec& k, const Instance& x, const std::vector<std::optional<std::int64_t>>& answers,
                                     bool with_found);
// The MQAR output for `answers`: expected_answer without the found column (what a construction's
// whole N×d output must equal).
Matrix<std::int64_t> expected_output(const Codec& k, const Instance& x,
                                     const std::vector<std::optional<std::int64_t>>& answers);

// Binary helpers for the dyadic construction (spec §7.4, E6).
// The `len` most significant of `bits` bits of x, as an integer (len <= bits).
std::uint64_t msb_prefix(std::uint64_t x, std::size_t bits, std::size_t len);
// bin(i) MSB-first as a 0/1 vector of length `bits`.
std::vector<int> bin_msb_first(std::uint64_t i, std::size_t bits);

}  // namespace cz::mqar
