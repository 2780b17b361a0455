#include "constructions/sd/alg3.h"

#include <set>

#include "tasks/sd.h"

namespace cz::sdc {
namespace {
constexpr std::size_t kIsep = 0, kSmall = 1, kAfter = 0, kZ = 0;

std::uint64_t element(const std::vector<std::int64_t>& row, unsigned n) { return sd::row_element(row.data(), n); }

// Lines 28-29: echo the row with its flag set iff its element is stored.
std::vector<std::int64_t> compare(const RecurrentState& z, const std::vector<std::int64_t>& row, unsigned n) {
  std::vector<std::int64_t> out(row.begin(), row.begin() + n);
  out.push_back(z.contains(kZ, element(row, n)) ? 1 : 0);
  return out;
}
}  // namespace

bool flag_separator(const std::vector<std::int64_t>& row, unsigned n) { return row.at(n) == 1; }

bool alg3_small_first(Alg3Threshold t, std::size_t i, std::size_t N) {
  return t == Alg3Threshold::Paper ? i <= N / 2 : 2 * i <= N - 1;  // line 8 (Errata E8)
}

Alg3Rules alg3_rules(Alg3Threshold t) {
  Alg3Rules r;
  r.threshold = t;
  r.store_a = [](std::size_t i, std::size_t N, std::size_t isep) { return i >= N && i < N + isep; };
  r.compare_b = [](std::size_t i, std::size_t N, std::size_t isep) { return i > N + isep; };
  r.store_b = [](std::size_t i, std::size_t N, std::size_t isep) { return i > isep && i < N; };
  r.compare_a = [](std::size_t i, std::size_t N, std::size_t isep) { return i >= N && i < N + isep; };
  return r;
}

RecurrentProgram alg3_program(unsigned n, Alg3Threshold t, SeparatorTest is_sep) { return alg3_program(n, alg3_rules(t), is_sep); }

RecurrentProgram alg3_program(unsigned n, const Alg3Rules& rules, SeparatorTest is_sep) {
  RecurrentProgram p;
  p.name = rules.threshold == Alg3Threshold::Paper ? "JRT Alg. 3 (paper threshold)" : "JRT Alg. 3 (fixed threshold)";
  p.init = [n](std::size_t rows, std::size_t) {
    const std::size_t N = rows / 2;
    RecurrentState z;
    z.add_register("isep", bits_for(N + 1), N);  // the value N means "no separator seen yet"
    z.add_register("smallFirst", 1, 0);
    z.add_bag("Z", n);
    return z;
  };
  p.step = [n, rules, is_sep](RecurrentState& z, std::size_t i, std::size_t rows, const std::vector<std::int64_t>& row) {
    const std::size_t N = rows / 2;
    std::vector<std::int64_t> out(n + 1, 0);
    if (z.get(kIsep) == N) {  // lines 5-9: the first separator fixes isep = |A| and the order
      if (i < N && is_sep(row, n)) {
        z.set(kIsep, i);
        z.set(kSmall, alg3_small_first(rules.threshold, i, N) ? 1 : 0);  // line 8 (Errata E8)
      }
      return out;
    }
    const std::size_t isep = z.get(kIsep);
    if (z.get(kSmall)) {                                                    // line 14: A is the smaller set
      if (rules.store_a(i, N, isep)) z.insert(kZ, element(row, n));         // lines 16-17: A from copy 2
      else if (rules.compare_b(i, N, isep)) out = compare(z, row, n);       // lines 19-20: B from copy 2
    } else {                                                                // lines 21-27: B is smaller
      if (rules.store_b(i, N, isep)) z.insert(kZ, element(row, n));         // lines 23-24: B from copy 1
      else if (rules.compare_a(i, N, isep)) out = compare(z, row, n);       // lines 25-27: A from copy 2
    }
    return out;
  };
  return p;
}

RecurrentProgram store_first_program(unsigned n, SeparatorTest is_sep) {
  RecurrentProgram p;
  p.name = "store the first set (no repetition)";
  p.init = [n](std::size_t, std::size_t) {
    RecurrentState z;
    z.add_register("afterSeparator", 1, 0);
    z.add_bag("Z", n);
    return z;
  };
  p.step = [n, is_sep](RecurrentState& z, std::size_t, std::size_t, const std::vector<std::int64_t>& row) {
    std::vector<std::int64_t> out(n + 1, 0);
    if (z.get(kAfter)) return compare(z, row, n);
    if (is_sep(row, n)) z.set(kAfter, 1);
    else z.insert(kZ, element(row, n));
    return out;
  };
  return p;
}

FlagAnswer decode_flags(const Matrix<std::int64_t>& out, unsigned n) {
  FlagAnswer a;
  std::set<std::uint32_t> common;
  for (std::size_t i = 0; i < out.rows(); ++i)
    if (out(i, n) != 0) common.insert(sd::row_element(out.row(i), n));
  a.common.assign(common.begin(), common.end());
  a.intersects = !a.common.empty();
  return a;
}

}  // namespace cz::sdc
