#include "constructions/eq/via_mqar_circuit.h"

#include "circuits/builder.h"
#include "circuits/gadgets_compare.h"
#include "circuits/reference/eq_ref.h"
#include "circuits/sat/model_bits.h"
#include "util/error.h"

namespace cz::eqc {

namespace g = circuits::gadgets;
namespace sat = circuits::sat;
using circuits::Wire;

EqCircuit eq_via_mqar_circuit(std::uint32_t c, const Model& m, bool any, std::size_t max_width) {
  if (m.N != 12 || m.d != c)
    throw InputError("the MQAR model is " + std::to_string(m.N) + "×" + std::to_string(m.d) + "; the JRT prompt is 12×" +
                         std::to_string(c), "eq/via-mqar");
  sat::require_integral(m, "eq/via-mqar");
  circuits::Builder b;
  const unsigned w = circuits::reference::token_width(c);
  g::Bits u1, u2;
  for (unsigned k = 0; k < w; ++k) u1.push_back(b.input("u1[" + std::to_string(k) + "]", circuits::Type::Bit));
  for (unsigned k = 0; k < w; ++k) u2.push_back(b.input("u2[" + std::to_string(k) + "]", circuits::Type::Bit));
  sat::WordBuilder wb(b, max_width);
  // One-hot codes: column t is [token = t] (a token >= c, outside the domain, is the zero row).
  std::vector<sat::Word> oh1, oh2;
  for (std::uint32_t t = 0; t < c; ++t) {
    oh1.push_back(wb.from_bit(g::equal(b, u1, g::const_bits(b, t, w))));
    oh2.push_back(wb.from_bit(g::equal(b, u2, g::const_bits(b, t, w))));
  }
  Matrix<sat::Word> u(12, c, wb.constant(Int(0)));
  for (std::size_t p = 0; p < 12; ++p)
    for (std::uint32_t t = 0; t < c; ++t) {
      if (p % 3 == 1) u(p, t) = wb.constant(Int(t == 1 ? 1 : 0));  // the value token 1
      else u(p, t) = (p / 3) % 2 == 0 ? oh1[t] : oh2[t];            // key and query: u1 in triples 0, 2; u2 in 1, 3
    }
  const Matrix<sat::Word> y = sat::model_words(wb, m, u);
  Wire eq;
  if (!any) {
    std::vector<Wire> row;
    for (std::uint32_t t = 0; t < c; ++t) row.push_back(wb.equal(y(5, t), wb.constant(Int(t == 1 ? 1 : 0))));
    eq = g::and_all(b, row);
  } else {
    std::vector<Wire> nonzero;
    for (std::size_t r : {5, 8, 11})
      for (std::uint32_t t = 0; t < c; ++t) nonzero.push_back(g::not_(b, wb.equal(y(r, t), wb.constant(Int(0)))));
    eq = g::or_all(b, nonzero);
  }
  b.output("eq", eq);
  EqCircuit out;
  out.widest = wb.widest();
  out.circuit = std::move(b).finish();
  return out;
}

}  // namespace cz::eqc
