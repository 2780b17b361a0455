// The bytecode's arithmetic is program_json.cpp's, value for value: a program on n = 20 (so an
// output row has 21 columns) outputs 21 expressions (floor division of negatives, bits_for,
// comparisons, and/or/not, word, col, checked mul, a register that accumulates) and the device's
// output rows equal run_recurrent's on sampled SD prompts.
#include <doctest/doctest.h>

#include <memory>

#include "constructions/sd/domain.h"
#include "gpu/program_code.h"
#include "gpu/program_kernel.h"
#include "gpu/sd_pairs_shape.h"
#include "model/program_json.h"
#include "tasks/sd.h"

using namespace cz;
using json = nlohmann::json;

namespace {
json bin(const char* op, json a, json b) { return {{op, json::array({std::move(a), std::move(b)})}}; }
json un(const char* op, json a) { return {{op, std::move(a)}}; }
}  // namespace

TEST_CASE("bytecode expressions evaluate as program_json's") {
  const json col20 = {{"col", 20}}, r = {{"reg", "r"}};
  const json outs = json::array({
      bin("div", bin("sub", "i", 7), 3), bin("div", 7, -2), bin("div", bin("sub", 0, "i"), -2), bin("div", -6, 3),
      un("bits_for", "i"), un("bits_for", "rows"), un("bits_for", bin("sub", 0, "i")), un("not", bin("sub", "i", 2)),
      bin("and", "i", col20), bin("or", 0, col20), bin("eq", "i", 3), bin("ne", "i", 3), bin("lt", bin("sub", "i", 5), 0),
      bin("le", "i", 5), bin("gt", "i", 5), bin("ge", "i", 5), json{{"word", json::array({0, 20})}},
      json{{"word", json::array({3, 5})}}, bin("mul", bin("sub", 0, "i"), 1000000007), bin("add", r, "d"),
      bin("mul", un("in", json::array({"Z", json{{"word", json::array({0, 3})}}})), 0)});
  json step = json::array();
  step.push_back({{"set", "r"}, {"value", bin("add", r, bin("mul", "i", "i"))}});
  step.push_back({{"insert", "Z"}, {"value", json{{"word", json::array({0, 3})}}}});
  step.push_back({{"if", bin("ge", "i", 4)}, {"then", json::array({json{{"output", outs}}})}});
  const json j = {{"format", "circuitzoo.program/1"}, {"task", "sd"}, {"n", 20}, {"prompt", "jrt"},
                  {"registers", json::array({json{{"name", "r"}, {"width", 64}, {"init", bin("mul", "rows", 3)}}})},
                  {"bags", json::array({json{{"name", "Z"}, {"width", 3}}})}, {"out_width", 21}, {"step", step}};
  const ProgramFile pf = program_from_json(j, "test");
  const auto code = gpu::compile_program(j, "test");
  REQUIRE(code);
  sdc::SdDomain d;
  d.kind = sdc::SdDomain::Sized;
  d.n = 20;
  d.a = 5;
  d.b = 6;
  d.exhaustive = false;
  const gpu::SdShape shape = *gpu::sd_shape(gpu::SdShape::Sized, 20, 0, 5, 6, false, 1);
  auto s = std::make_unique<gpu::ProgramScratch>();
  for (std::uint64_t k = 0; k < 200; ++k) {
    const sd::Instance x = d.instance(k);
    const RecurrentRun cpu = run_recurrent(pf.program, sd::repeat_prompt(sd::encode(x), 2));
    gpu::sd_pair(shape, k, s->x);
    const std::int64_t rows = static_cast<std::int64_t>(gpu::sd_prompt_rows(s->x, 2));
    REQUIRE(rows == static_cast<std::int64_t>(cpu.output.rows()));
    REQUIRE(gpu::prog_init(code->info, code->code.data(), rows, *s));
    for (std::int64_t i = 0; i < rows; ++i) {
      gpu::sd_prompt_row(s->x, static_cast<std::uint64_t>(i), s->row);
      REQUIRE(gpu::prog_exec(code->code.data(), code->info.step_begin, i, rows, 21, 20, *s));
      for (std::size_t c = 0; c < 21; ++c) REQUIRE_MESSAGE(s->out[c] == cpu.output(i, c), "row " << i << " column " << c);
    }
    CHECK(s->bagn[0] * s->bagw[0] == cpu.bag_bits_max[0]);
  }
}
