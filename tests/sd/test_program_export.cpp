// JRT Alg. 3 exported as a program file (constructions/sd/alg3_export.cpp) and read back by the
// interpreter (model/program_json.h): the file computes exactly what the C++ program computes
// (every output row and the state in bits after every row) on every small instance, in every
// variant; malformed files are input errors naming the JSON path; arithmetic never wraps.
#include <doctest/doctest.h>

#include "constructions/sd/alg3.h"
#include "model/program_json.h"
#include "tasks/sd.h"
#include "util/error.h"
#include "verify/parts.h"

using namespace cz;

namespace {
nlohmann::json exported(unsigned n, const std::string& variant, const std::string& prompt) {
  const Construction& k = find_construction("sd/recurrent-jrt");
  const ProgramFactory* f = find_program(k.name);
  REQUIRE(f != nullptr);
  return (*f)(Params::parse(k.params, {{"n", std::to_string(n)}, {"variant", variant}, {"prompt", prompt}}));
}
}  // namespace

TEST_CASE("the exported Alg. 3 program runs exactly as the built-in program on every small instance") {
  for (unsigned n : {1u, 2u})
    for (std::string variant : {"fixed", "paper"})
      for (std::string prompt : {"jrt", "plain"}) {
        INFO("n=" << n << " variant=" << variant << " prompt=" << prompt);
        const ProgramFile pf = program_from_json(exported(n, variant, prompt), "test");
        CHECK(pf.n == n);
        CHECK(pf.prompt == prompt);
        const bool jrt = prompt == "jrt";
        const RecurrentProgram ref = jrt ? sdc::alg3_program(n, variant == "paper" ? sdc::Alg3Threshold::Paper
                                                                                               : sdc::Alg3Threshold::Fixed)
                                         : sdc::store_first_program(n);
        const std::uint64_t count = *sd::count_order_pairs(n, 3);
        for (std::uint64_t k = 0; k < count; ++k) {
          const Matrix<std::int64_t> u = sd::repeat_prompt(sd::encode(sd::order_pair(n, 3, k)), jrt ? 2 : 1);
          const RecurrentRun a = run_recurrent(pf.program, u), b = run_recurrent(ref, u);
          REQUIRE(a.output == b.output);
          REQUIRE(a.bits == b.bits);
          REQUIRE(a.register_bits == b.register_bits);
        }
      }
}

TEST_CASE("a mutated program file computes something else") {
  nlohmann::json j = exported(2, "fixed", "jrt");
  // Line 8 with a strict threshold: 2·isep < N - 1 (off by one against Errata E8's fix).
  std::string text = j.dump();
  const std::string le = R"({"le":[{"mul":[2,"i"]})";
  REQUIRE(text.find(le) != std::string::npos);
  text.replace(text.find(le), le.size(), R"({"lt":[{"mul":[2,"i"]})");
  const ProgramFile mut = program_from_json(nlohmann::json::parse(text), "mutant");
  const RecurrentProgram ref = sdc::alg3_program(2, sdc::Alg3Threshold::Fixed);
  bool differs = false;
  for (std::uint64_t k = 0; k < *sd::count_order_pairs(2, 3) && !differs; ++k) {
    const Matrix<std::int64_t> u = sd::repeat_prompt(sd::encode(sd::order_pair(2, 3, k)), 2);
    const RecurrentRun a = run_recurrent(mut.program, u), b = run_recurrent(ref, u);
    differs = !(a.output == b.output) || a.bits != b.bits;
  }
  CHECK(differs);
}

TEST_CASE("malformed program files are input errors naming the JSON path") {
  auto bad = [](const char* text, const char* where) {
    INFO(text);
    try {
      program_from_json(nlohmann::json::parse(text), "f.json");
      FAIL("accepted");
    } catch (const InputError& e) {
      CHECK(e.where == std::string("f.json: ") + where);
    }
  };
  bad(R"({"format": "x"})", "format");
  bad(R"({"format": "circuitzoo.program/1", "n": 0})", "n");
  bad(R"({"format": "circuitzoo.program/1", "n": 2, "out_width": 3, "step": [{"set": "r", "value": 1}]})", "step[0]");
  bad(R"({"format": "circuitzoo.program/1", "n": 2, "registers": [{"name": "r", "width": {"reg": "r"}}], "out_width": 3, "step": []})",
      "registers[0].width.reg");
  bad(R"({"format": "circuitzoo.program/1", "n": 2, "out_width": 3, "step": [{"output": [{"in": ["Z", 1]}]}]})", "step[0].output[0].in");
  bad(R"({"format": "circuitzoo.program/1", "n": 2, "out_width": "i", "step": []})", "out_width");
}

TEST_CASE("program arithmetic is checked: an overflow is an error, never a wrap") {
  const ProgramFile pf = program_from_json(
      nlohmann::json::parse(R"({"format": "circuitzoo.program/1", "n": 1, "out_width": 1,
        "step": [{"output": [{"mul": [4611686018427387904, {"add": [2, "i"]}]}]}]})"),
      "f.json");
  Matrix<std::int64_t> u(1, 2, 0);
  CHECK_THROWS_AS(run_recurrent(pf.program, u), std::overflow_error);
}
