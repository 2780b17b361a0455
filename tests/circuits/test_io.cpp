// Every writer: write → read (ours) → equal on all 0/1 inputs; readers reject malformed input.
#include <doctest/doctest.h>

#include "circuits/aig.h"
#include "circuits/equiv.h"
#include "circuits/eval.h"
#include "circuits/gadgets_sort.h"
#include "circuits/io.h"
#include "circuits/stats.h"
#include "tests/circuits/random_circuit.h"
#include "tests/seed.h"
#include "util/error.h"

using namespace cz;
using namespace cz::circuits;
namespace g = cz::circuits::gadgets;

namespace {

Circuit sort_circuit() {
  Builder b;
  std::vector<g::Item> items;
  for (int i = 0; i < 4; ++i) items.push_back({g::input_bits(b, "k" + std::to_string(i), 3), {}});
  auto out = g::bitonic_sort(b, items);
  for (std::size_t i = 0; i < out.size(); ++i)
    for (std::size_t k = 0; k < 3; ++k) b.output("o" + std::to_string(i) + "[" + std::to_string(k) + "]", out[i].key[k]);
  b.output("const1", b.one());
  b.output("passthru", b.peek().input_gate(0) == 0 ? Wire{b.peek().input_gate(0)} : Wire{b.peek().input_gate(0)});
  return std::move(b).finish();
}

void round_trip(const Circuit& c, const std::string& fmt) {
  INFO("format " << fmt);
  std::string text = write_circuit(c, fmt);
  Circuit back = read_circuit(text, fmt, "test." + fmt);
  CHECK(back.num_inputs() == c.num_inputs());
  CHECK(back.outputs().size() == c.outputs().size());
  auto r = equivalent_on_01(c, back, 2);
  CHECK(r.equivalent);
  if (fmt == "aiger" || fmt == "blif" || fmt == "circuit-json" || fmt == "dot") CHECK(back.all_outputs_bit() == c.all_outputs_bit());
  // A second round trip is textually stable for the AIG formats.
  if (fmt == "aiger") CHECK(write_circuit(back, fmt).substr(0, 40) == text.substr(0, 40));
}

}  // namespace

TEST_CASE("all formats round-trip an all-Bit sort circuit") {
  Circuit c = sort_circuit();
  for (const auto& f : circuit_formats()) round_trip(c, f);
}

TEST_CASE("circuit-json, dot and bristol round-trip random Field circuits with rational constants") {
  auto rng = test::rng(41);
  INFO("seed " << test::seed());
  for (int t = 0; t < 5; ++t) {
    Circuit c = test::random_circuit(rng, 5, 40, 3, t % 2 == 0);
    for (const char* f : {"circuit-json", "dot", "bristol"}) round_trip(c, f);
    CHECK_THROWS_AS(write_circuit(c, "aiger"), InputError);  // Field outputs
    CHECK_THROWS_AS(write_circuit(c, "blif"), InputError);
  }
}

TEST_CASE("AIGER header and counts match the stats") {
  Circuit c = sort_circuit();
  std::string t = write_aiger(c);
  auto s = compute_stats(c);
  std::istringstream in(t);
  std::string magic;
  std::size_t M, I, L, O, A;
  in >> magic >> M >> I >> L >> O >> A;
  CHECK(magic == "aag");
  CHECK(I == c.num_inputs());
  CHECK(O == c.outputs().size());
  CHECK(L == 0);
  CHECK(A == *s.aig_ands);
  Circuit back = read_aiger(t, "x");
  CHECK(to_aig(back).levels() == *s.aig_levels);
  CHECK(back.input_name(1) == c.input_name(1));
}

TEST_CASE("circuit-json keeps names, ring and Bit typing, and embeds stats") {
  Circuit c = sort_circuit();
  auto j = circuit_to_json(c);
  CHECK(j["format"] == "circuitzoo.circuit/1");
  CHECK(j["inputs"][0] == "k0[0]");
  CHECK(j["stats"]["size"] == compute_stats(c).size);
  Circuit back = circuit_from_json(j, "j");
  CHECK(back.all_outputs_bit());
  CHECK(back.outputs()[0].name == "o0[0]");
}

TEST_CASE("readers reject malformed files with a location") {
  auto bad = [](const std::string& fmt, const std::string& text, const std::string& what) {
    INFO(fmt << ": " << text);
    try {
      read_circuit(text, fmt, "f");
      FAIL("no error");
    } catch (const InputError& e) {
      CHECK(std::string(e.what()).find(what) != std::string::npos);
      CHECK(e.where.rfind("f", 0) == 0);
    }
  };
  bad("circuit-json", "{", "malformed JSON");
  bad("circuit-json", R"({"format":"x"})", "unknown format");
  bad("circuit-json", R"({"format":"circuitzoo.circuit/1","inputs":["a"],"gates":[{"op":"add","a":0,"b":1}],"outputs":[]})", "does not precede");
  bad("circuit-json", R"({"format":"circuitzoo.circuit/1","inputs":["a","b"],"input_types":["bit","bit"],"gates":[{"op":"add","a":0,"b":1,"bit":{"op":"or","x":0,"y":1}}],"outputs":[]})", "false Bit claim");
  bad("circuit-json", R"({"format":"circuitzoo.circuit/1","inputs":["a"],"gates":[{"op":"const","value":0.5}],"outputs":[]})", "floating-point");
  bad("circuit-json", R"({"format":"circuitzoo.circuit/1","inputs":["a"],"gates":[],"outputs":[{"name":"o","gate":3}]})", "does not precede");
  bad("aiger", "aog 1 1 0 1 0\n2\n2\n", "AIGER header");
  bad("aiger-binary", "aig 2 1 0 1 1\n4\n", "truncated");
  bad("aiger-binary", std::string("aig 2 1 0 1 1\n4\n") + char(5) + char(0), "bad AND deltas");
  bad("aiger", "aag 3 1 0 1 1\n2\n4\n4 6 2\n", "inconsistent");
  bad("aiger", "aag 2 1 0 1 1\n2\n4\n4 4 2\n", "not defined before");
  bad("aiger", "aag 2 1 0 1 1\n2\n4\n", "unexpected end");
  bad("blif", ".model m\n.inputs a\n.outputs y\n.names a b y\n11 1\n.end\n", "never defined");
  bad("blif", ".model m\n.inputs a\n.outputs y\n.names a z y\n11 1\n.names y z\n1 1\n.end\n", "loop");
  bad("blif", ".model m\n.inputs a\n.outputs y\n.latch a y\n.end\n", "unsupported");
  bad("bristol", "1 3\n1 1\n1 1\n\n2 1 0 1 2 AAdd\n", "used before");
  bad("bristol", "2 3\n1 1\n1 1\n\n1 1 7 1 EQ\n", "header says");
  bad("bristol", "1 2\n1 1\n1 1\n\n2 1 0 0 1 AXor\n", "unsupported gate");
  bad("dot", "graph { }\n", "not a DOT digraph");
  bad("dot", "digraph c {\n  g0 [op=add, a=0, b=0];\n}\n", "does not precede");
}

TEST_CASE("a BLIF from another tool (off-set cover, don't-cares, out of order) reads correctly") {
  const char* text =
      ".model other\n.inputs a b c\n.outputs y z\n"
      ".names t c y\n1- 1\n-1 1\n"       // y = t OR c
      ".names a b t\n11 0\n"             // t = NAND(a, b) via the off-set
      ".names z\n1\n.end\n";             // z = 1
  Circuit c = read_blif(text, "other.blif");
  REQUIRE(c.num_inputs() == 3);
  for (unsigned m = 0; m < 8; ++m) {
    std::vector<std::int64_t> x = {m & 1, (m >> 1) & 1, (m >> 2) & 1};
    auto out = eval_integer(c, x);
    CHECK(out[0] == Int((!(x[0] && x[1])) || x[2]));
    CHECK(out[1] == Int(1));
  }
}
