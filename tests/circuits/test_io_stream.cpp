// Streaming export (issue 9): the stream writers produce the same bytes as before (circuit-json:
// the nlohmann tree dumped whole), the atomic streaming write leaves nothing behind on failure,
// and the builder refuses to grow past the memory budget.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <sstream>

#include <nlohmann/json.hpp>

#include "circuits/builder.h"
#include "circuits/gadgets_sort.h"
#include "circuits/io.h"
#include "tests/circuits/random_circuit.h"
#include "tests/seed.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/memory_budget.h"

using namespace cz;
using namespace cz::circuits;
namespace g = cz::circuits::gadgets;

namespace {

Circuit bit_sort_circuit() {
  Builder b;
  std::vector<g::Item> items;
  for (int i = 0; i < 4; ++i) items.push_back({g::input_bits(b, "k\"" + std::to_string(i), 3), {}});
  auto out = g::odd_even_merge_sort(b, items);
  for (std::size_t i = 0; i < out.size(); ++i)
    for (std::size_t k = 0; k < 3; ++k) b.output("o" + std::to_string(i) + "[" + std::to_string(k) + "]", out[i].key[k]);
  b.output("const1", b.one());
  return std::move(b).finish();
}

// The pre-streaming writer: the whole JSON tree, dumped at once.
std::string tree_json(const Circuit& c) { return circuit_to_json(c).dump(1) + "\n"; }

std::string streamed(const Circuit& c, const std::string& fmt) {
  std::ostringstream os;
  write_circuit(c, fmt, os);
  return os.str();
}

}  // namespace

TEST_CASE("streamed circuit-json is byte-identical to the dumped JSON tree") {
  SUBCASE("all-Bit sort circuit with Bit inputs and a constant output") {
    Circuit c = bit_sort_circuit();
    CHECK(streamed(c, "circuit-json") == tree_json(c));
  }
  SUBCASE("random Field circuits with rational constants") {
    auto rng = test::rng(43);
    INFO("seed " << test::seed());
    for (int t = 0; t < 8; ++t) {
      Circuit c = test::random_circuit(rng, 1 + t % 4, 30, 1 + t % 3, t % 2 == 0);
      CHECK(streamed(c, "circuit-json") == tree_json(c));
    }
  }
  SUBCASE("degenerate circuits: no gates, no inputs, no outputs") {
    Builder a;
    Wire x = a.input("x");
    a.output("y", x);
    Circuit only_inputs = std::move(a).finish();
    CHECK(streamed(only_inputs, "circuit-json") == tree_json(only_inputs));
    Builder b;
    b.output("seven", b.constant(7));
    Circuit no_inputs = std::move(b).finish();
    CHECK(streamed(no_inputs, "circuit-json") == tree_json(no_inputs));
    Builder e;
    e.input("unused");
    Circuit no_outputs = std::move(e).finish();
    CHECK(streamed(no_outputs, "circuit-json") == tree_json(no_outputs));
  }
}

TEST_CASE("every format's stream writer equals its string writer") {
  Circuit c = bit_sort_circuit();
  for (const auto& f : circuit_formats()) {
    INFO("format " << f);
    CHECK(streamed(c, f) == write_circuit(c, f));
  }
  auto rng = test::rng(44);
  Circuit r = test::random_circuit(rng, 4, 30, 2, false);
  for (const char* f : {"circuit-json", "dot", "bristol"}) CHECK(streamed(r, f) == write_circuit(r, f));
  std::ostringstream os;
  CHECK_THROWS_AS(write_circuit(r, "aiger", os), InputError);  // Field outputs: refused before writing
  CHECK(os.str().empty());
}

TEST_CASE("circuit-json refuses a name that is not UTF-8 as an input error") {
  Builder b;
  Wire x = b.input(std::string("bad\xff") + "name");
  b.output("y", x);
  Circuit c = std::move(b).finish();
  std::ostringstream os;
  CHECK_THROWS_AS(write_circuit(c, "circuit-json", os), InputError);
}

TEST_CASE("write_file_atomic_stream writes whole files and leaves nothing on failure") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("cz_stream_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string path = (dir / "out.txt").string();
  write_file_atomic_stream(path, [](std::ostream& os) {
    for (int i = 0; i < 1000; ++i) os << i << "\n";
  });
  std::string text = read_file(path);
  CHECK(text.size() == 3890);
  CHECK(text.substr(0, 4) == "0\n1\n");
  // A producer that fails half-way: the old file stays, no temporary file is left.
  CHECK_THROWS_AS(write_file_atomic_stream(path,
                                           [](std::ostream& os) {
                                             os << "partial";
                                             throw InputError("stop", "test");
                                           }),
                  InputError);
  CHECK(read_file(path) == text);
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir)) files += e.is_regular_file();
  CHECK(files == 1);
  fs::remove_all(dir);
}

TEST_CASE("the builder refuses to grow past the memory budget") {
  const std::uint64_t saved = memory_budget();
  set_memory_budget(1 << 20);  // 1 MB: about 20000 gates at 48 bytes a gate
  bool refused = false;
  try {
    Builder b;
    Wire x = b.input("x");
    for (int i = 0; i < 1000000; ++i) x = b.add(x, b.input("y" + std::to_string(i)));
  } catch (const InputError& e) {
    refused = true;
    CHECK(std::string(e.what()).find("memory budget") != std::string::npos);
  }
  set_memory_budget(saved);
  CHECK(refused);
  Builder ok;  // the restored budget lets builds through again
  ok.output("z", ok.add(ok.input("a"), ok.input("b")));
  CHECK(std::move(ok).finish().size() >= 3);
}
