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
#include "util/memory_budget.h"
#include "util/text.h"

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
  bad("aiger", "aag 2 1 0 1 1\n2\n4\n", "truncated");  // the header promises more than the file holds
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

// ---- issue 9: hostile and unusual files -------------------------------------------------------

namespace {

// An InputError's text must be safe to print: no control bytes, valid UTF-8.
bool printable_text(const std::string& s) {
  for (char ch : s)
    if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) return false;
  return is_utf8(s);
}

InputError read_error(const std::string& text, const std::string& fmt) {
  try {
    read_circuit(text, fmt, "f");
  } catch (const InputError& e) {
    return e;
  }
  FAIL("no InputError for a " << fmt << " file");
  return InputError("", "");
}

// y = x0 XOR x1 XOR x0 XOR ... : a chain `depth` gadgets deep.
Circuit xor_chain(int depth) {
  Builder b;
  Wire x0 = b.input("x0", Type::Bit), x1 = b.input("x1", Type::Bit), t = x0;
  for (int k = 0; k < depth; ++k) t = g::xor_(b, t, k % 2 ? x0 : x1);
  b.output("y", t);
  return std::move(b).finish();
}

}  // namespace

TEST_CASE("BLIF reader walks a 200000-deep buffer chain without recursion") {
  const int depth = 200000;
  std::string t = ".model chain\n.inputs a\n.outputs y\n.names s" + std::to_string(depth - 1) + " y\n1 1\n";
  for (int k = depth - 1; k > 0; --k) t += ".names s" + std::to_string(k - 1) + " s" + std::to_string(k) + "\n1 1\n";
  t += ".names a s0\n0 1\n.end\n";  // s0 = NOT a, then buffers
  Circuit c = read_blif(t, "chain.blif");
  REQUIRE(c.num_inputs() == 1);
  CHECK(eval_integer(c, {0})[0] == Int(1));
  CHECK(eval_integer(c, {1})[0] == Int(0));
  // A loop at the far end of the chain is still found.
  std::string loop = t;
  loop.replace(loop.find(".names a s0"), 11, ".names y s0");
  CHECK(std::string(read_error(loop, "blif").what()).find("loop") != std::string::npos);
}

TEST_CASE("a 60000-deep circuit round-trips through every format and its stats") {
  Circuit c = xor_chain(60000);
  auto s = compute_stats(c);
  CHECK(s.depth >= 60000);
  for (const auto& f : circuit_formats()) {
    INFO("format " << f);
    Circuit back = read_circuit(write_circuit(c, f), f, "deep." + f);
    CHECK(compute_stats(back).depth >= 60000);
    CHECK(equivalent_on_01(c, back, 1).equivalent);
  }
}

TEST_CASE("a garbage or truncated DOT file is an InputError with its line") {
  const std::string good = write_dot(sort_circuit());
  CHECK_NOTHROW(read_dot(good, "f"));
  for (std::size_t cut : {good.size() / 3, good.size() / 2, good.size() - 3}) {
    InputError e = read_error(good.substr(0, cut), "dot");
    INFO(e.what() << " @ " << e.where);
    CHECK(e.where.rfind("f:", 0) == 0);
  }
  InputError e = read_error("hello world\n", "dot");
  CHECK(std::string(e.what()).find("not a DOT digraph") != std::string::npos);
  CHECK(e.where == "f:1");
  e = read_error("digraph c {\n  rankdir=BT;\n  this is not DOT\n}\n", "dot");
  CHECK(std::string(e.what()).find("unrecognised line") != std::string::npos);
  CHECK(e.where == "f:3");
  e = read_error("digraph c {\n  g0 [op=input, name=\"a\", type=bit];\n", "dot");
  CHECK(std::string(e.what()).find("no closing") != std::string::npos);
  e = read_error("digraph c {\n}\ng0 [op=input];\n", "dot");
  CHECK(e.where == "f:3");
  e = read_error("", "dot");
  CHECK(std::string(e.what()).find("not a DOT digraph") != std::string::npos);
}

TEST_CASE("ring names are checked: Fp:4 and Fp:99999999999999999999999 are InputErrors") {
  Circuit c = sort_circuit();
  for (const std::string ring : {"Fp:4", "Fp:99999999999999999999999", "Fp:", "Fp:-7", "Fp:1", "R", "Fp:7x"}) {
    INFO("ring " << ring);
    auto j = circuit_to_json(c, false);
    j["ring"] = ring;
    try {
      circuit_from_json(j, "c");
      FAIL("accepted ring " << ring);
    } catch (const InputError& e) {
      CHECK(e.where == "c.ring");
    }
    std::string dot = write_dot(c);
    dot.replace(dot.find("ring=\"Z\""), 8, "ring=\"" + ring + "\"");
    CHECK(read_error(dot, "dot").where == "f:3");
  }
  auto j = circuit_to_json(c, false);
  j["ring"] = "Fp:1000003";
  CHECK(circuit_from_json(j, "c").ring() == "Fp:1000003");
}

TEST_CASE("AIGER and Bristol headers the file cannot hold are refused before allocating") {
  // ASCII: 2e8 ANDs promised, none present.
  InputError e = read_error("aag 200000000 0 0 0 200000000\n", "aiger");
  CHECK(std::string(e.what()).find("truncated") != std::string::npos);
  CHECK(e.where == "f:1");
  e = read_error("aig 200000000 0 0 1 200000000\n2\n", "aiger-binary");
  CHECK(std::string(e.what()).find("at least") != std::string::npos);
  // Binary inputs are implicit, so only the memory budget stands between a header and RAM.
  const auto budget = memory_budget();
  set_memory_budget(std::uint64_t(1) << 30);
  e = read_error("aig 200000000 200000000 0 0 0\n", "aiger-binary");
  set_memory_budget(budget);
  CHECK(std::string(e.what()).find("memory budget") != std::string::npos);
  // Bristol: nwires is not a size to allocate; a wire number near 2^31 is fine in a tiny file.
  Circuit c = read_bristol("1 2147483648\n1 1\n1 1\n\n2 1 0 0 2147483647 AAdd\n", "f");
  CHECK(c.num_inputs() == 1);
  CHECK(eval_integer(c, {3})[0] == Int(6));
  e = read_error("1000000 1000001\n1 1\n1 1\n\n2 1 0 0 1 AAdd\n", "bristol");
  CHECK(std::string(e.what()).find("lines follow") != std::string::npos);
}

TEST_CASE("DOT writer escapes names so that they read back byte for byte") {
  Builder b;
  const std::vector<std::string> names = {"new\nline", "q\"uote", "back\\slash", std::string("nul\0byte", 8), "\xff\xfe raw", "tab\there",
                                          "cr\r", "ok \xc3\xa9", "brace}];", "-> g1;"};
  Wire acc = b.zero();
  for (const auto& n : names) acc = b.add(acc, b.input(n));
  b.output("out\nput \"x\"", acc);
  b.output("\x01", b.one());
  Circuit c = std::move(b).finish();
  const std::string text = write_dot(c);
  for (char ch : text) CHECK((static_cast<unsigned char>(ch) >= 0x20 || ch == '\n'));
  CHECK(is_utf8(text));
  Circuit back = read_dot(text, "names.dot");
  REQUIRE(back.num_inputs() == names.size());
  for (std::size_t k = 0; k < names.size(); ++k) CHECK(back.input_name(k) == names[k]);
  CHECK(back.outputs()[0].name == "out\nput \"x\"");
  CHECK(back.outputs()[1].name == "\x01");
}

TEST_CASE("circuit-json refuses names that are not UTF-8 with an InputError naming them") {
  Builder b;
  Wire x = b.input("fine");
  b.output("bad\xff", b.add(x, b.input("also fine")));
  Circuit c = std::move(b).finish();
  try {
    write_circuit(c, "circuit-json");
    FAIL("wrote a non-UTF-8 name");
  } catch (const InputError& e) {
    const std::string w = e.what();
    CHECK(w.find("output 0") != std::string::npos);
    CHECK(w.find("bad\\xff") != std::string::npos);
    CHECK(printable_text(w));
  }
  // The same names survive DOT, which escapes them.
  CHECK(read_dot(write_dot(c), "f").outputs()[0].name == "bad\xff");
}

TEST_CASE("reader messages escape raw bytes and every failure is an InputError") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"blif", ".model m\n.lat\x01\xff" "ch a y\n.end\n"},
      {"blif", ".model m\n.inputs a\n.outputs y\n.names a\xfe y\n1 1\n.end\n"},
      {"bristol", "1 2\n1 1\n1 1\n\n2 1 0 0 1 A\x02\xff\n"},
      {"bristol", "1 2\n1 1\n1 1\n\n1 1 \x7f\xc0 1 EQ\n"},
      {"bristol", "1 2\n1 1\n1 1\n\n2 1 0 99999999999999999999999 1 AAdd\n"},
      {"dot", "digraph c {\n  g0 [op=\x03\xff];\n}\n"},
      {"dot", std::string("\x00\x01garbage", 10)},
      {"dot", "digraph c {\n  g99999999999999999999 [op=input, name=a, type=bit];\n}\n"},
      {"circuit-json", "{\"format\": \"\xff\x01\"}"},
      {"circuit-json", "{\"format\":\"circuitzoo.circuit/1\",\"inputs\":[],\"gates\":[{\"op\":[[[[[[1]]]]]]}],\"outputs\":[]}"},
      {"circuit-json", "{\"format\":" + std::string(100000, '[') + std::string(100000, ']') + "}"},
      {"aiger", "aag 1 1 0 1 0\n2\n2\ni99999999999999999999999 x\n"},
      {"aiger", "aag 1 1 0 1 0\n2\n2\ni0\x01\n"},
      {"aiger", "\xff\xfe 1 1 0 1 0\n2\n2\n"},
  };
  for (const auto& [fmt, text] : cases) {
    INFO(fmt << " case " << printable(text));
    InputError e = read_error(text, fmt);
    CHECK(printable_text(e.what()));
    CHECK(printable_text(e.where));
  }
}

TEST_CASE("a file that squares a folded constant on every line is refused and not computed") {
  // c1 = 3, c_{k+1} = c_k * c_k: 3^(2^40) after 40 lines if nothing stopped it.
  const int n = 40;
  std::string bristol = std::to_string(n + 2) + " " + std::to_string(n + 3) + "\n1 1\n1 1\n\n1 1 3 1 EQ\n";
  std::string json = R"({"format":"circuitzoo.circuit/1","inputs":["x"],"gates":[{"op":"const","value":3})";
  std::string dot = "digraph c {\n  g0 [op=input, name=\"x\", type=field];\n  g1 [op=const, value=\"3\"];\n";
  for (int k = 1; k <= n; ++k) {
    bristol += "2 1 " + std::to_string(k) + " " + std::to_string(k) + " " + std::to_string(k + 1) + " AMul\n";
    json += R"(,{"op":"mul","a":)" + std::to_string(k) + R"(,"b":)" + std::to_string(k) + "}";
    dot += "  g" + std::to_string(k + 1) + " [op=mul, a=" + std::to_string(k) + ", b=" + std::to_string(k) + "];\n";
  }
  bristol += "1 1 0 " + std::to_string(n + 2) + " EQW\n";
  json += R"(],"outputs":[]})";
  dot += "}\n";
  for (const auto& [fmt, text] : std::vector<std::pair<std::string, std::string>>{{"bristol", bristol}, {"circuit-json", json}, {"dot", dot}}) {
    INFO(fmt);
    CHECK(std::string(read_error(text, fmt).what()).find("constant folding") != std::string::npos);
  }
}
