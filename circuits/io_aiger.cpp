// AIGER 1.9 ASCII (the format ABC and Yosys read; spec quoted in ABC's ioWriteAiger.c):
//   aag M I L O A        M = I + L + A, L = 0 here (combinational)
//   I lines "2k", O lines with output literals, A lines "lhs rhs0 rhs1" (rhs0 >= rhs1),
//   symbols "i<k> name" / "o<k> name", then "c" and a comment.
// Binary AIGER ("aig M I L O A"): inputs implicit, outputs as ASCII lines, each AND as two
// 7-bit varint deltas lhs−rhs0, rhs0−rhs1 (rhs0 >= rhs1). ABC's read_aiger reads only this form
// (its ASCII reader crashes in the Debian 2022 build), Yosys reads both.
// Our AIG (circuits/aig.h) is already topological and strashed.
#include <algorithm>
#include <sstream>

#include "circuits/aig.h"
#include "circuits/io.h"
#include "util/error.h"
#include "util/memory_budget.h"

namespace cz::circuits {

namespace {
void aiger_text(const Circuit& c, bool binary, std::ostream& os) {
  Aig a = to_aig(c);
  const std::size_t I = a.num_inputs, A = a.ands.size(), M = I + A;
  os << (binary ? "aig " : "aag ") << M << " " << I << " 0 " << a.outputs.size() << " " << A << "\n";
  if (!binary)
    for (std::size_t i = 0; i < I; ++i) os << 2 * (i + 1) << "\n";
  for (auto o : a.outputs) os << o << "\n";
  auto varint = [&](std::uint32_t x) {
    while (x & ~0x7fu) {
      os.put(static_cast<char>((x & 0x7f) | 0x80));
      x >>= 7;
    }
    os.put(static_cast<char>(x));
  };
  for (std::size_t k = 0; k < A; ++k) {
    const std::uint32_t lhs = static_cast<std::uint32_t>(2 * (1 + I + k));
    if (binary) {
      varint(lhs - a.ands[k].first);
      varint(a.ands[k].first - a.ands[k].second);
    } else {
      os << lhs << " " << a.ands[k].first << " " << a.ands[k].second << "\n";
    }
  }
  auto clean = [](std::string s) {
    for (char& ch : s)
      if (ch == '\n' || ch == '\r') ch = '_';
    return s;
  };
  for (std::size_t i = 0; i < I; ++i) os << "i" << i << " " << clean(a.input_names[i]) << "\n";
  for (std::size_t o = 0; o < a.outputs.size(); ++o) os << "o" << o << " " << clean(a.output_names[o]) << "\n";
  os << "c\ncircuitzoo: bit-blasted from the certified Bit gadgets of an arithmetic circuit\n";
}
}  // namespace

void write_aiger(const Circuit& c, std::ostream& os) { aiger_text(c, false, os); }
void write_aiger_binary(const Circuit& c, std::ostream& os) { aiger_text(c, true, os); }
std::string write_aiger(const Circuit& c) {
  std::ostringstream os;
  write_aiger(c, os);
  return os.str();
}
std::string write_aiger_binary(const Circuit& c) {
  std::ostringstream os;
  write_aiger_binary(c, os);
  return os.str();
}

Circuit read_aiger(const std::string& text, const std::string& source) {
  std::istringstream in(text);
  std::string line;
  std::size_t ln = 0;
  auto next = [&](const char* what) -> std::string {
    if (!std::getline(in, line)) throw InputError(std::string("unexpected end of file: expected ") + what, source + ":" + std::to_string(ln + 1));
    ++ln;
    return line;
  };
  auto where = [&] { return source + ":" + std::to_string(ln); };
  std::istringstream hs(next("the header"));
  std::string magic;
  long long M, I, L, O, A;
  if (!(hs >> magic >> M >> I >> L >> O >> A) || (magic != "aag" && magic != "aig"))
    throw InputError("expected an AIGER header 'aag M I L O A' or 'aig M I L O A'", where());
  const bool binary = magic == "aig";
  if (L != 0) throw InputError("latches are not supported (combinational circuits only)", where());
  if (M < 0 || I < 0 || O < 0 || A < 0 || M != I + A) throw InputError("inconsistent header (M != I + L + A)", where());
  if (M > (1LL << 30) || O > (1LL << 30)) throw InputError("header too large (at most 2^30 variables and 2^30 outputs)", where());
  // Refuse what the rest of the file cannot hold before allocating anything (issue 9: a header
  // with 2e8 ANDs took 11.8 GB): ASCII needs a line per input ("2\n"), per output and per AND
  // ("x y z\n", 6 bytes at least); binary has implicit inputs and 2 bytes at least per AND.
  {
    const auto rest = static_cast<std::uint64_t>(text.size() - std::min<std::size_t>(text.size(), static_cast<std::size_t>(in.tellg())));
    const std::uint64_t least = binary ? 2 * static_cast<std::uint64_t>(O) + 2 * static_cast<std::uint64_t>(A)
                                       : 2 * static_cast<std::uint64_t>(I + O) + 6 * static_cast<std::uint64_t>(A);
    if (least > rest)
      throw InputError("header promises " + std::to_string(I) + " inputs, " + std::to_string(O) + " outputs and " + std::to_string(A) +
                           " ANDs, which need at least " + std::to_string(least) + " more bytes; the file has " + std::to_string(rest) +
                           " (truncated file?)",
                       where());
    // Reading builds the AIG and then the circuit: names, gates, hash table, Bit definitions.
    require_memory(sat_add(sat_mul(static_cast<std::uint64_t>(I), 160), sat_add(sat_mul(static_cast<std::uint64_t>(A), 192),
                                                                                 sat_mul(static_cast<std::uint64_t>(O), 64))),
                   "an AIGER circuit with " + std::to_string(I) + " inputs and " + std::to_string(A) + " ANDs", where());
  }
  Aig a;
  a.num_inputs = static_cast<std::uint32_t>(I);
  auto lit = [&](std::istream& s, long long limit) -> std::uint32_t {
    long long v;
    if (!(s >> v) || v < 0 || v > 2 * limit + 1) throw InputError("bad literal", where());
    return static_cast<std::uint32_t>(v);
  };
  for (long long i = 0; i < I && !binary; ++i) {
    std::istringstream ls(next("an input"));
    if (lit(ls, M) != 2 * (i + 1)) throw InputError("inputs must be the literals 2, 4, ..., 2I in order", where());
  }
  for (long long o = 0; o < O; ++o) {
    std::istringstream ls(next("an output"));
    a.outputs.push_back(lit(ls, M));
  }
  for (long long k = 0; k < A && binary; ++k) {
    auto get = [&]() -> std::uint32_t {
      std::uint32_t x = 0;
      for (unsigned sh = 0;; sh += 7) {
        int ch = in.get();
        if (ch == EOF || sh > 28) throw InputError("truncated binary AND section", source + ": AND " + std::to_string(k));
        x |= static_cast<std::uint32_t>(ch & 0x7f) << sh;
        if (!(ch & 0x80)) return x;
      }
    };
    const std::uint32_t lhs = static_cast<std::uint32_t>(2 * (1 + I + k)), d0 = get(), d1 = get();
    if (d0 == 0 || d0 > lhs || d1 > lhs - d0) throw InputError("bad AND deltas", source + ": AND " + std::to_string(k));
    a.ands.emplace_back(lhs - d0, lhs - d0 - d1);
  }
  for (long long k = 0; k < A && !binary; ++k) {
    std::istringstream ls(next("an AND"));
    std::uint32_t lhs = lit(ls, M), r0 = lit(ls, M), r1 = lit(ls, M);
    if (lhs != 2 * (1 + I + k)) throw InputError("AND gates must define variables I+1 .. M in order", where());
    if (r0 >= lhs || r1 >= lhs) throw InputError("an AND uses a variable that is not defined before it", where());
    a.ands.emplace_back(r0, r1);
  }
  a.input_names.resize(static_cast<std::size_t>(I));
  a.output_names.resize(static_cast<std::size_t>(O));
  for (long long i = 0; i < I; ++i) a.input_names[static_cast<std::size_t>(i)] = "i" + std::to_string(i);
  for (long long o = 0; o < O; ++o) a.output_names[static_cast<std::size_t>(o)] = "o" + std::to_string(o);
  while (std::getline(in, line)) {
    ++ln;
    if (line == "c") break;
    if (line.size() < 2 || (line[0] != 'i' && line[0] != 'o')) throw InputError("bad symbol line", where());
    std::size_t sp = line.find(' ');
    if (sp == std::string::npos) throw InputError("bad symbol line", where());
    long long k = -1;
    const std::string num = line.substr(1, sp - 1);
    if (!num.empty() && num.size() <= 12 && num.find_first_not_of("0123456789") == std::string::npos) k = std::stoll(num);
    auto& names = line[0] == 'i' ? a.input_names : a.output_names;
    if (k < 0 || static_cast<std::size_t>(k) >= names.size()) throw InputError("symbol index out of range", where());
    names[static_cast<std::size_t>(k)] = line.substr(sp + 1);
  }
  try {
    return from_aig(a);
  } catch (const std::invalid_argument& e) {
    throw InputError(e.what(), source);
  }
}

}  // namespace cz::circuits
