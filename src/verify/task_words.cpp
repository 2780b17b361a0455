// Tasks compare and sort (spec §7.5; issue 47 item 1): words of bits, the tasks of circuit/compare
// and circuit/sort, checked for any circuit file by enumeration (or seeded samples) against the
// plain meaning of src/tasks/words.h, and by --method sat against the reference checkers
// circuits/reference/compare_ref.h and sort_ref.h (app/engine/sat/sat_words.cpp). Their ports have
// their own names (TaskShapeNeed::in_names, out_names), as circuit/compare and circuit/sort name
// theirs; the task reads every port, and each port exactly once.
#include <algorithm>
#include <string>

#include "tasks/words.h"
#include "util/error.h"
#include "util/seeded.h"
#include "verify/model_check.h"
#include "verify/task.h"

namespace cz {
namespace {

// Exhaustive when the input bits are at most this many (2^21 instances), unless --samples.
constexpr std::size_t kExhaustiveBits = 21;
// Seeded instances of a sampled domain when --samples does not say.
constexpr std::uint64_t kDefaultSamples = 10000;

std::string num(std::size_t v) { return std::to_string(v); }

// "<prefix><i>[<b>]" (prefix "k") or "<prefix>[<b>]" (i absent: has_i false) -> (i, b).
bool parse_port(const std::string& name, const std::string& prefix, bool has_i, std::size_t& i, std::size_t& b) {
  if (name.rfind(prefix, 0) != 0) return false;
  std::size_t pos = prefix.size();
  auto number = [&](std::size_t& out) {
    const std::size_t start = pos;
    out = 0;
    while (pos < name.size() && pos - start < 9 && name[pos] >= '0' && name[pos] <= '9') out = out * 10 + (name[pos++] - '0');
    return pos > start;
  };
  if (has_i && !number(i)) return false;
  if (pos >= name.size() || name[pos++] != '[' || !number(b)) return false;
  return pos + 1 == name.size() && name[pos] == ']';
}

// The domain of every 0/1 vector of `bits` input bits (instance k: input bit t = bit t of k), or
// seeded random vectors; `bits_of(k)` gives instance k's bits.
struct BitsDomain {
  bool exhaustive = false;
  std::uint64_t instances = 0, seed = 1;
  std::size_t bits = 0;
  std::vector<int> bits_of(std::uint64_t k) const {
    std::vector<int> v(bits);
    InstanceRng rng(seed, k);
    std::uint64_t word = k;
    for (std::size_t t = 0; t < bits; ++t) {
      if (!exhaustive && t % 64 == 0) word = rng.next();
      v[t] = static_cast<int>((word >> (t % 64)) & 1);
    }
    return v;
  }
};

BitsDomain bits_domain(std::size_t bits, const DomainOptions& o) {
  const bool fits = bits <= kExhaustiveBits || (o.force_exhaustive && bits <= 32);
  if (o.force_exhaustive && !fits)
    throw InputError("an exhaustive domain of 2^" + num(bits) + " instances is over 2^32", "--exhaustive");
  BitsDomain d;
  d.bits = bits;
  d.seed = o.seed;
  d.exhaustive = fits && !o.samples;
  d.instances = d.exhaustive ? (std::uint64_t{1} << bits) : o.samples.value_or(kDefaultSamples);
  return d;
}

// A check over the bits domain: instance k -> u (rows × cols of its bits, row-major) -> the
// artifact's answer -> the task's judge.
using Judge = std::function<std::optional<Failure>(const Params&, const Matrix<std::int64_t>&, const Matrix<Int>&)>;
Check bits_check(const Judge& judge, const Params& p, const TaskArtifact& a, const DomainOptions& o, const std::string& what) {
  const std::size_t rows = a.N, cols = a.d;
  const BitsDomain dom = bits_domain(rows * cols, o);
  Check k;
  k.domain = dom.exhaustive ? "exhaustive" : "sampled";
  k.instances = dom.instances;
  k.description = (dom.exhaustive ? "all " : "seeded random ") + std::string("0/1 vectors of ") + num(dom.bits) + " input bits (" +
                  what + ")";
  k.run = [dom, rows, cols, p, eval = a.eval, judge](std::uint64_t idx) -> std::optional<Failure> {
    const std::vector<int> bits = dom.bits_of(idx);
    Matrix<std::int64_t> u(rows, cols, 0);
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t c = 0; c < cols; ++c) u(r, c) = bits[r * cols + c];
    std::optional<Failure> f = judge(p, u, eval(u));
    if (f) f->instance["index"] = idx;
    return f;
  };
  return k;
}

// The bits of u row-major (the task inputs in the order the reference checkers read them).
nlohmann::json input_bits(const Matrix<std::int64_t>& u) {
  nlohmann::json b = nlohmann::json::array();
  for (auto v : u.data()) b.push_back(v);
  return b;
}

// A word of bits (LSB first) as a number when it fits, else its bits (most significant first).
nlohmann::json word_json(const std::vector<int>& w) {
  if (w.size() <= 64) {
    std::uint64_t v = 0;
    for (std::size_t b = 0; b < w.size(); ++b) v |= static_cast<std::uint64_t>(w[b] & 1) << b;
    return v;
  }
  std::string s;
  for (std::size_t b = w.size(); b-- > 0;) s += w[b] ? '1' : '0';
  return s;
}

// The first cell of y that is not 0 or 1, with its port name; "" when every cell is a bit.
std::string not_a_bit(const Matrix<Int>& y, const std::vector<std::string>& names) {
  for (std::size_t k = 0; k < y.data().size(); ++k)
    if (!(y.data()[k] == Int(0) || y.data()[k] == Int(1)))
      return "output " + names[k] + " = " + y.data()[k].str() + " is not a bit (0 or 1)";
  return "";
}

nlohmann::json cells_json(const Matrix<Int>& y, const std::vector<std::string>& names) {
  nlohmann::json g = nlohmann::json::object();
  for (std::size_t k = 0; k < y.data().size(); ++k) {
    const Int& v = y.data()[k];
    if (v.fits_int64()) g[names[k]] = v.to_int64();
    else g[names[k]] = v.str();
  }
  return g;
}

// ---- compare: u is 2×d (row 0 = x, row 1 = y); y is 1×(2+2d): lt, eq, min[0..d), max[0..d) ----

std::vector<std::string> compare_outputs(std::size_t d) {
  std::vector<std::string> v = {"lt", "eq"};
  for (const char* w : {"min", "max"})
    for (std::size_t k = 0; k < d; ++k) v.push_back(std::string(w) + "[" + num(k) + "]");
  return v;
}

std::optional<Failure> compare_judge(const Params& p, const Matrix<std::int64_t>& u, const Matrix<Int>& y) {
  const std::size_t d = p.u("d");
  std::vector<int> x(d), z(d);
  for (std::size_t k = 0; k < d; ++k) x[k] = static_cast<int>(u(0, k)), z[k] = static_cast<int>(u(1, k));
  const words::CompareAnswer want = words::compare(x, z);
  std::vector<int> w = {want.lt, want.eq};
  w.insert(w.end(), want.min.begin(), want.min.end());
  w.insert(w.end(), want.max.begin(), want.max.end());
  const std::vector<std::string> names = compare_outputs(d);
  std::string wrong;
  std::size_t count = 0;
  for (std::size_t k = 0; k < w.size(); ++k)
    if (!(y.data()[k] == Int(w[k]))) {
      if (!count++) wrong = names[k] + " = " + y.data()[k].str() + ", want " + num(static_cast<std::size_t>(w[k]));
    }
  if (!count) return std::nullopt;
  Failure f;
  f.instance = {{"x", word_json(x)}, {"y", word_json(z)}, {"input_bits", input_bits(u)}};
  f.input = input_bits(u);
  f.expected = {{"lt", want.lt ? 1 : 0}, {"eq", want.eq ? 1 : 0}, {"min", word_json(want.min)}, {"max", word_json(want.max)}};
  if (not_a_bit(y, names).empty()) {
    std::vector<int> lo(d), hi(d);
    for (std::size_t k = 0; k < d; ++k) lo[k] = y.data()[2 + k] == Int(1), hi[k] = y.data()[2 + d + k] == Int(1);
    f.got = {{"lt", y.data()[0] == Int(1) ? 1 : 0}, {"eq", y.data()[1] == Int(1) ? 1 : 0}, {"min", word_json(lo)}, {"max", word_json(hi)}};
  } else {
    f.got = cells_json(y, names);
  }
  f.message = "compare x = " + word_json(x).dump() + ", y = " + word_json(z).dump() + ": " + wrong +
              (count > 1 ? " (and " + num(count - 1) + " more output(s) wrong)" : "");
  return f;
}

// ---- sort: u is n×d (row i = key i); y is n×(d+w) (row i: key<i>[0..d), idx<i>[0..w)) ----

std::optional<Failure> sort_judge(const Params& p, const Matrix<std::int64_t>& u, const Matrix<Int>& y) {
  const std::size_t n = p.u("n"), d = p.u("d"), w = words::index_bits(n);
  std::vector<std::uint64_t> keys(n, 0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t b = 0; b < d; ++b) keys[i] |= static_cast<std::uint64_t>(u(i, b) & 1) << b;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t b = 0; b < d; ++b) names.push_back("key" + num(i) + "[" + num(b) + "]");
    for (std::size_t b = 0; b < w; ++b) names.push_back("idx" + num(i) + "[" + num(b) + "]");
  }
  std::string why = not_a_bit(y, names);
  words::SortAnswer got;
  if (why.empty()) {
    got.keys.assign(n, 0);
    got.idx.assign(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t b = 0; b < d; ++b) got.keys[i] |= static_cast<std::uint64_t>(y(i, b) == Int(1)) << b;
      for (std::size_t b = 0; b < w; ++b) got.idx[i] |= static_cast<std::uint64_t>(y(i, d + b) == Int(1)) << b;
    }
    why = words::sort_wrong(keys, got);
  }
  if (why.empty()) return std::nullopt;
  const words::SortAnswer want = words::stable_sorted(keys);
  Failure f;
  f.instance = {{"keys", keys}, {"input_bits", input_bits(u)}};
  f.input = input_bits(u);
  f.expected = {{"keys", want.keys}, {"idx", want.idx}, {"note", "ties may come in any order"}};
  if (!got.keys.empty()) f.got = {{"keys", got.keys}, {"idx", got.idx}};
  else f.got = cells_json(y, names);
  f.message = "sort " + nlohmann::json(keys).dump() + ": " + why;
  return f;
}

}  // namespace

std::vector<Task> word_tasks() {
  std::vector<Task> ts;
  const std::string sat_line = "circuit files: --method sat proves the whole domain against the reference checker ";
  {
    Task t;
    t.name = "sort";
    t.summary = "sort n keys of d bits, each carrying its original position";
    t.semantics = "keys k_0..k_{n-1} of d bits; the answer lists them in non-decreasing order, place i holding a key "
                  "key_i and its original position idx_i: key_i = k_{idx_i}, the idx_i a permutation of [0, n), "
                  "key_i <= key_{i+1}; equal keys in any order of their positions (Zoology Lemma H.35)";
    t.params = {int_param("n", 4, 1, 1 << 16, "number of keys; default: from the file's inputs k<i>[b]"),
                int_param("d", 3, 1, 64, "key bits; default: from the file's inputs k<i>[b]")};
    t.input_encoding = "a circuit with inputs k<i>[b] (i < n, b < d): bit b of key i, b = 0 the least significant (as "
                       "circuit/sort names them); as a matrix, u is n×d with u[i][b] = k<i>[b]";
    t.output_decoding = "outputs key<i>[b] (b < d) and idx<i>[b] (b < w = max(1, ceil(log2 n))): place i's key and its "
                        "original position, least significant bit first; every output is read and must be 0 or 1. "
                        "Every port of the task once: a file without one of these outputs, or with another output, "
                        "is refused (exit 2) by every method";
    t.domains = {"exhaustive: every 0/1 input, all 2^(n·d) key vectors (instance k: input bit t = bit t of k, the bits "
                 "k0[0..d), k1[0..d), ...); the default when n·d <= 21, or --exhaustive up to n·d <= 32",
                 "sampled: --samples K seeded 0/1 inputs (default 10000 when n·d > 21), --seed S",
                 sat_line + "(circuits/reference/sort_ref.h)"};
    t.reference = "src/tasks/words.h words::sort_wrong (sorted, a permutation, each key its own), words::stable_sorted "
                  "(the expected answer shown)";
    t.constructions = {"circuit/sort"};
    t.methods = {{"circuit", {"enumerate", "sat"}}};
    t.fill_from_inputs = [](std::map<std::string, std::string>& given, const std::vector<std::string>& names) {
      std::size_t n = 0, d = 0;
      for (const auto& nm : names) {
        std::size_t i = 0, b = 0;
        if (parse_port(nm, "k", true, i, b)) n = std::max(n, i + 1), d = std::max(d, b + 1);
      }
      if (n) given.emplace("n", num(n));
      if (d) given.emplace("d", num(d));
    };
    t.shape = [](const Params& p) {
      const std::size_t n = p.u("n"), d = p.u("d"), w = words::index_bits(n);
      TaskShapeNeed s;
      s.N = s.out_N = n;
      s.d = d;
      s.out_d = d + w;
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t b = 0; b < d; ++b) s.in_names.push_back("k" + num(i) + "[" + num(b) + "]");
      for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t b = 0; b < d; ++b) s.out_names.push_back("key" + num(i) + "[" + num(b) + "]");
        for (std::size_t b = 0; b < w; ++b) s.out_names.push_back("idx" + num(i) + "[" + num(b) + "]");
      }
      s.text = num(n * d) + " inputs k<i>[b] (i < n = " + num(n) + ", b < d = " + num(d) + ") and the outputs key<i>[b], idx<i>[b] (" +
               num(n * (d + w)) + ": b < d, b < w = " + num(w) + ")";
      return s;
    };
    t.judge = sort_judge;
    t.check = [](const Params& p, const TaskArtifact& a, const DomainOptions& o) {
      return bits_check(sort_judge, p, a, o, "n keys of d bits, index payload; ties in any index order");
    };
    ts.push_back(std::move(t));
  }
  {
    Task t;
    t.name = "compare";
    t.summary = "compare two d-bit words: lt, eq, min, max";
    t.semantics = "words x, y of d bits: lt = [x < y], eq = [x = y], min = lt ? x : y, max = lt ? y : x "
                  "(Zoology Def H.31)";
    t.params = {int_param("d", 4, 1, 1 << 12, "word bits; default: from the file's inputs x[k]")};
    t.input_encoding = "a circuit with inputs x[k], y[k] (k < d): bit k of each word, k = 0 the least significant (as "
                       "circuit/compare names them); as a matrix, u is 2×d with row 0 = x, row 1 = y";
    t.output_decoding = "outputs lt, eq, min[k], max[k] (k < d); every output is read and must equal the reference bit. "
                        "Every port of the task once: a file without one of these outputs, or with another output, is "
                        "refused (exit 2) by every method";
    t.domains = {"exhaustive: every pair (x, y), all 2^(2d) inputs (instance k: input bit t = bit t of k, the bits "
                 "x[0..d), y[0..d)); the default when 2d <= 21, or --exhaustive up to 2d <= 32",
                 "sampled: --samples K seeded pairs (default 10000 when 2d > 21), --seed S",
                 sat_line + "(circuits/reference/compare_ref.h)"};
    t.reference = "src/tasks/words.h words::compare (the most significant differing bit decides)";
    t.constructions = {"circuit/compare"};
    t.methods = {{"circuit", {"enumerate", "sat"}}};
    t.fill_from_inputs = [](std::map<std::string, std::string>& given, const std::vector<std::string>& names) {
      std::size_t d = 0;
      for (const auto& nm : names) {
        std::size_t i = 0, k = 0;
        if (parse_port(nm, "x", false, i, k) || parse_port(nm, "y", false, i, k)) d = std::max(d, k + 1);
      }
      if (d) given.emplace("d", num(d));
    };
    t.shape = [](const Params& p) {
      const std::size_t d = p.u("d");
      TaskShapeNeed s;
      s.N = 2;
      s.d = d;
      s.out_N = 1;
      s.out_d = 2 + 2 * d;
      for (const char* w : {"x", "y"})
        for (std::size_t k = 0; k < d; ++k) s.in_names.push_back(std::string(w) + "[" + num(k) + "]");
      s.out_names = compare_outputs(d);
      s.text = num(2 * d) + " inputs x[k], y[k] (k < d = " + num(d) + ") and the outputs lt, eq, min[k], max[k] (" +
               num(2 + 2 * d) + ")";
      return s;
    };
    t.judge = compare_judge;
    t.check = [](const Params& p, const TaskArtifact& a, const DomainOptions& o) {
      return bits_check(compare_judge, p, a, o, "pairs of d-bit words");
    };
    ts.push_back(std::move(t));
  }
  return ts;
}

}  // namespace cz
