// `circuitzoo eval --model FILE --input FILE`: exact evaluation of a saved model in its ring.
#include <iostream>
#include <optional>

#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "model/eval.h"
#include "model/model_json.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace cz::cli {
namespace {

template <Ring R>
nlohmann::json run(const R& ring, const Model& m, const RatMatrix& u, const std::string& where, const std::string& model_where) {
  Matrix<typename R::Elem> x(u.rows(), u.cols());
  for (std::size_t k = 0; k < u.data().size(); ++k) {
    try {
      x.data()[k] = ring.from_rat(u.data()[k]);
    } catch (const std::domain_error& e) {
      throw InputError(e.what(), where + ".input");
    }
  }
  // A weight outside the ring is the model's fault, not the input's (the reader refuses those:
  // issue 36 item 20; this keeps the blame right for any that slips past it).
  std::optional<decltype(prepare(ring, m))> prepared;
  try {
    prepared.emplace(prepare(ring, m));
  } catch (const std::domain_error& e) {
    throw InputError(e.what(), model_where);
  }
  Matrix<typename R::Elem> y;
  try {
    y = eval(*prepared, x);
  } catch (const std::domain_error& e) {
    throw InputError(e.what(), where);
  }
  return matrix_to_json(map_matrix(y, [&](const auto& e) { return ring.to_rat(e); }));
}

}  // namespace

int cmd_eval(const EvalOptions& o) {
  check_outputs({{"--json", o.json_path}}, {{"--model", o.model}, {"--input", o.input}});
  Model m = read_model_file(o.model);
  const nlohmann::json in = read_json_file(o.input, kModelMaxBytes, "an input file", JsonLimits{kJsonMaxDepth, 0, {}, kModelMaxValues});  // bounded (model_json.h)
  if (!in.is_object() || !in.contains("input")) throw InputError("missing field 'input'", o.input);
  RatMatrix u = matrix_from_json(in["input"], o.input + ".input");
  if (u.rows() != m.N || u.cols() != m.d)
    throw InputError("input is " + std::to_string(u.rows()) + "x" + std::to_string(u.cols()) + ", the model wants " +
                         std::to_string(m.N) + "x" + std::to_string(m.d), o.input + ".input");
  nlohmann::json out;
  if (m.ring == "Z") {
    out = run(RingZ{}, m, u, o.input, o.model);
  } else if (m.ring == "Q") {
    out = run(RingQ{}, m, u, o.input, o.model);
  } else {
    const std::string digits = m.ring.substr(3);  // validate() checked the "Fp:" prefix
    if (digits.empty() || digits.size() > 19 || digits.find_first_not_of("0123456789") != std::string::npos)
      throw InputError("ring '" + m.ring + "': want Fp:<prime below 2^62>", o.model + ".ring");
    const std::uint64_t p = std::stoull(digits);  // at most 19 digits: below 2^64, cannot throw
    try {
      RingFp ring(p);
      out = run(ring, m, u, o.input, o.model);
    } catch (const std::invalid_argument& e) {
      throw InputError(e.what(), o.model + ".ring");
    }
  }
  nlohmann::json j = {{"output", out}};
  emit_json(j, o.json_path.empty() ? "-" : o.json_path);
  return 0;
}

}  // namespace cz::cli
