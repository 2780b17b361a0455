#include "circuits/sat/int_miter.h"

#include <unordered_map>

#include "circuits/sat/miter_circuit.h"

namespace cz::circuits::sat {

namespace g = gadgets;

namespace {
std::string cell(char l, std::size_t i, std::size_t j) {
  return std::string(1, l) + "[" + std::to_string(i) + "][" + std::to_string(j) + "]";
}
std::string out_bit(std::size_t i, std::size_t j, std::size_t k) { return cell('y', i, j) + "#" + std::to_string(k); }

Int pow2(std::size_t k) {
  Int r(1);
  for (std::size_t t = 0; t < k; ++t) r *= Int(2);
  return r;
}

std::vector<Wire> inputs_of(Builder& b, const std::vector<std::string>& names) {
  std::vector<Wire> w;
  for (const auto& n : names) w.push_back(b.input(n, Type::Bit));
  return w;
}

// The artifact's output words as read by the checker: any bit pattern of the word's width.
Matrix<Word> got_words(Builder& b, WordBuilder& wb, const IntArtifact& a) {
  Matrix<Word> got(a.width.rows(), a.width.cols());
  for (std::size_t i = 0; i < got.rows(); ++i)
    for (std::size_t j = 0; j < got.cols(); ++j) {
      const std::size_t w = a.width(i, j);
      g::Bits bits;
      for (std::size_t k = 0; k < w; ++k) bits.push_back(b.input("got:" + out_bit(i, j, k), Type::Bit));
      got(i, j) = wb.from_bits(bits, -pow2(w - 1), pow2(w - 1) - Int(1));
    }
  return got;
}
}  // namespace

IntInputs IntInputs::box(std::size_t N, std::size_t d, const Int& lo, const Int& hi) {
  IntInputs in;
  in.N = N, in.d = d;
  in.entries = Matrix<Entry>(N, d);
  const std::size_t w = width_for(lo, hi);
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t j = 0; j < d; ++j) {
      in.entries(i, j) = {Kind::Box, in.names.size(), w, lo, hi};
      for (std::size_t k = 0; k < w; ++k) in.names.push_back(cell('u', i, j) + "#" + std::to_string(k));
    }
  return in;
}

IntInputs IntInputs::bits(std::size_t N, std::size_t d, const std::function<bool(std::size_t, std::size_t)>& bit) {
  IntInputs in;
  in.N = N, in.d = d;
  in.entries = Matrix<Entry>(N, d);
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t j = 0; j < d; ++j)
      if (bit(i, j)) {
        in.entries(i, j) = {Kind::Bit, in.names.size(), 1, Int(0), Int(1)};
        in.names.push_back(cell('u', i, j));
      }
  return in;
}

Matrix<Word> IntInputs::words(WordBuilder& wb, const std::vector<Wire>& t) const {
  Matrix<Word> u(N, d);
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t j = 0; j < d; ++j) {
      const Entry& e = entries(i, j);
      if (e.kind == Kind::Zero) u(i, j) = wb.constant(Int(0));
      else if (e.kind == Kind::Bit) u(i, j) = wb.from_bit(t[e.first]);
      else u(i, j) = wb.from_bits(g::Bits(t.begin() + static_cast<long>(e.first), t.begin() + static_cast<long>(e.first + e.width)), e.lo, e.hi);
    }
  return u;
}

Wire IntInputs::domain(WordBuilder& wb, const std::vector<Wire>& t) const {
  std::vector<Wire> ok;
  for (const Entry& e : entries.data())
    if (e.kind == Kind::Box)
      ok.push_back(wb.raw_in_range(g::Bits(t.begin() + static_cast<long>(e.first), t.begin() + static_cast<long>(e.first + e.width)), e.lo, e.hi));
  return g::and_all(wb.builder(), ok);
}

Matrix<std::int64_t> IntInputs::decode(const std::vector<int>& bits) const {
  Matrix<std::int64_t> u(N, d, 0);
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t j = 0; j < d; ++j) {
      const Entry& e = entries(i, j);
      if (e.kind == Kind::Zero) continue;
      std::int64_t v = 0;
      for (std::size_t k = 0; k < e.width; ++k)
        if (bits.at(e.first + k)) v |= std::int64_t{1} << k;
      if (e.kind == Kind::Box && e.width < 64 && ((v >> (e.width - 1)) & 1)) v -= std::int64_t{1} << e.width;  // sign
      u(i, j) = v;
    }
  return u;
}

IntArtifact artifact_circuit(const IntInputs& in, const WordMap& f, std::size_t max_width) {
  Builder b;
  WordBuilder wb(b, max_width);
  const std::vector<Wire> t = inputs_of(b, in.names);
  const Matrix<Word> y = f(wb, in.words(wb, t));
  IntArtifact a;
  a.width = Matrix<std::size_t>(y.rows(), y.cols(), 0);
  for (std::size_t i = 0; i < y.rows(); ++i)
    for (std::size_t j = 0; j < y.cols(); ++j) {
      const Word& w = y(i, j);
      a.width(i, j) = w.bits.size();
      for (std::size_t k = 0; k < w.bits.size(); ++k) b.output(out_bit(i, j, k), w.bits[k]);
    }
  a.widest = wb.widest();
  a.circuit = std::move(b).finish();
  return a;
}

reference::Checker words_checker(const IntInputs& in, const IntArtifact& a, const WordMap& ref,
                                 const std::vector<std::pair<std::size_t, std::size_t>>& cells, std::size_t max_width) {
  Builder b;
  WordBuilder wb(b, max_width);
  const std::vector<Wire> t = inputs_of(b, in.names);
  const Matrix<Word> got = got_words(b, wb, a);
  reference::Checker ch;
  ch.task_inputs = in.names.size();
  b.output("domain", in.domain(wb, t));
  const Matrix<Word> want = ref(wb, in.words(wb, t));
  std::vector<std::pair<std::size_t, std::size_t>> all = cells;
  if (all.empty())
    for (std::size_t i = 0; i < got.rows(); ++i)
      for (std::size_t j = 0; j < got.cols(); ++j) all.push_back({i, j});
  for (auto [i, j] : all) {
    ch.groups.push_back("row " + std::to_string(i) + " col " + std::to_string(j));
    ch.family.push_back("row " + std::to_string(i));
    b.output("ok:" + ch.groups.back(), wb.equal(got(i, j), want(i, j)));
  }
  ch.circuit = std::move(b).finish();
  return ch;
}

reference::Checker mqar_words_checker(const IntInputs& in, const IntArtifact& a, const reference::MqarSpec& spec) {
  std::vector<std::string> outs;
  for (std::size_t r = 0; r < a.width.rows(); ++r)
    for (std::size_t j = 0; j < a.width.cols(); ++j) outs.push_back(cell('y', r, j));
  const reference::Checker bitwise = reference::mqar_checker(spec, outs, "--method sat");
  Builder b;
  WordBuilder wb(b);
  const std::vector<Wire> t = inputs_of(b, in.names);
  std::unordered_map<std::string, std::size_t> at;
  for (std::size_t k = 0; k < in.names.size(); ++k) at.emplace(in.names[k], k);
  const Matrix<Word> got = got_words(b, wb, a);
  const Word one = wb.constant(Int(1));
  std::unordered_map<std::string, std::pair<Wire, Wire>> cellbits;  // y[r][j] -> ([word == 1], [word in {0,1}])
  for (std::size_t r = 0; r < got.rows(); ++r)
    for (std::size_t j = 0; j < got.cols(); ++j)
      cellbits[cell('y', r, j)] = {wb.equal(got(r, j), one), wb.raw_in_range(got(r, j).bits, Int(0), Int(1))};
  const std::vector<Wire> outw = replay(b, bitwise.circuit, [&](std::size_t k) -> Wire {
    const std::string& name = bitwise.circuit.input_name(k);
    if (k < bitwise.task_inputs) return t.at(at.at(name));
    return cellbits.at(name.substr(4)).first;
  });
  reference::Checker ch;
  ch.task_inputs = in.names.size();
  ch.groups = bitwise.groups;
  ch.family = bitwise.family;
  b.output("domain", outw[0]);
  for (std::size_t gi = 0; gi < bitwise.groups.size(); ++gi) {
    // Group names end in the cell "y[r][j]" (mqar_ref.h): its word must be 0 or 1 as well.
    const std::string& gname = bitwise.groups[gi];
    const Wire in01 = cellbits.at(gname.substr(gname.rfind(' ') + 1)).second;
    b.output("ok:" + gname, g::and_(b, in01, outw[1 + gi]));
  }
  for (const auto& c : bitwise.cases) {
    b.output(bitwise.circuit.outputs()[c.output].name, outw[c.output]);
    ch.cases.push_back({c.family, 1 + bitwise.groups.size() + (ch.cases.size())});
  }
  ch.circuit = std::move(b).finish();
  return ch;
}

}  // namespace cz::circuits::sat
