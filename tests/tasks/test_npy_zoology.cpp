// .npy int64 reader/writer and the reproduction of zoology's multiquery_ar. The golden rows were
// produced by numpy 1.24.2's legacy RandomState following zoology's generator steps
// (random_non_queries=False): an independent implementation of the same draws.
#include <doctest/doctest.h>

#include <set>

#include "tasks/mqar_reference.h"
#include "tasks/npy.h"
#include "tasks/zoology.h"
#include "util/error.h"

using namespace cz;

TEST_CASE("npy: round trip, numpy's header bytes, and malformed files") {
  npy::Int64Array a{{2, 3}, {1, -2, 3, -100, 1LL << 40, 0}};
  std::string b = npy::to_bytes(a);
  const std::string dict = "{'descr': '<i8', 'fortran_order': False, 'shape': (2, 3), }";
  CHECK(b.substr(10, dict.size()) == dict);
  CHECK((b.size() - 48) % 64 == 0);  // header padded to 64 bytes, then 6*8 data bytes
  npy::Int64Array r = npy::parse_int64(b, "mem");
  CHECK(r.shape == a.shape);
  CHECK(r.data == a.data);
  CHECK(npy::parse_int64(npy::to_bytes({{4}, {1, 2, 3, 4}}), "m").shape == std::vector<std::size_t>{4});
  CHECK_THROWS_AS(npy::parse_int64("hello", "m"), InputError);
  std::string f32 = b;
  f32.replace(f32.find("<i8"), 3, "<f4");
  CHECK_THROWS_AS(npy::parse_int64(f32, "m"), InputError);
  CHECK_THROWS_AS(npy::parse_int64(b.substr(0, b.size() - 1), "m"), InputError);  // truncated data
  std::string fort = b;
  fort.replace(fort.find("False"), 5, "True ");
  CHECK_THROWS_AS(npy::parse_int64(fort, "m"), InputError);
  CHECK_THROWS_AS(npy::read_int64("/nonexistent/x.npy"), InputError);
}

TEST_CASE("numpy legacy RNG pieces") {
  zoology::NumpyLegacyRng rng(5489);
  CHECK(rng.next32() == 3499211612u);  // MT19937 reference output for init_genrand(5489)
  auto p = zoology::NumpyLegacyRng(1).permutation(10);
  std::set<std::int64_t> s(p.begin(), p.end());
  CHECK(s.size() == 10);
  double x = zoology::NumpyLegacyRng(3).next_double();
  CHECK(x >= 0.0);
  CHECK(x < 1.0);
  std::vector<double> v(300);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = 1.0 / static_cast<double>(i + 1);
  double seq = 0;
  for (double e : v) seq += e;
  CHECK(zoology::numpy_pairwise_sum(v.data(), v.size()) == doctest::Approx(seq));
}

TEST_CASE("multiquery_ar reproduces numpy's draws (golden rows)") {
  zoology::MqarConfig cfg;
  cfg.vocab_size = 66;
  cfg.num_examples = 3;
  cfg.input_seq_len = 64;
  cfg.seed = 7;
  cfg.num_kv_pairs = 8;
  zoology::Batch b = zoology::multiquery_ar(cfg);
  const std::vector<std::int64_t> in0 = {3, 42, 27, 47, 2, 62, 10, 33, 14, 35, 6, 49, 21, 58, 17, 57, 3, 0, 14, 0, 0, 0,
                                         2, 0, 10, 0, 0, 0, 0, 0, 27, 0, 0, 0, 0, 0, 6, 0, 0, 0, 17, 0, 0, 0,
                                         0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 21, 0};
  CHECK(std::vector<std::int64_t>(b.inputs.begin(), b.inputs.begin() + 64) == in0);
  std::vector<std::pair<std::size_t, std::int64_t>> labels0;
  for (std::size_t p = 0; p < 64; ++p)
    if (b.label(0, p) != -100) labels0.emplace_back(p, b.label(0, p));
  CHECK(labels0 == std::vector<std::pair<std::size_t, std::int64_t>>{
                       {16, 42}, {18, 35}, {22, 62}, {24, 33}, {30, 47}, {36, 49}, {40, 57}, {62, 58}});
  cfg = {};
  cfg.vocab_size = 128;
  cfg.num_examples = 2;
  cfg.input_seq_len = 32;
  cfg.seed = 123;
  cfg.num_kv_pairs = 4;
  cfg.power_a = 0.1;
  b = zoology::multiquery_ar(cfg);
  const std::vector<std::int64_t> in1 = {25, 68, 40, 64, 16, 126, 32, 107, 25, 0, 40, 0, 32, 0, 0, 0,
                                         16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  CHECK(std::vector<std::int64_t>(b.inputs.begin(), b.inputs.begin() + 32) == in1);
  cfg.vocab_size = 32;  // zoology asserts vocab > N
  CHECK_THROWS_AS(zoology::multiquery_ar(cfg), InputError);
}

TEST_CASE("zoology batches <-> instances, and the reference agrees with zoology's labels") {
  zoology::MqarConfig cfg;
  cfg.vocab_size = 100;
  cfg.num_examples = 50;
  cfg.input_seq_len = 64;
  cfg.seed = 11;
  zoology::Batch b = zoology::multiquery_ar(cfg);
  std::vector<mqar::Instance> xs;
  for (std::size_t r = 0; r < b.rows; ++r) {
    mqar::Instance x = zoology::instance_from_row(b, r, 100, std::nullopt);
    mqar::validate(x);
    CHECK(mqar::distinct_keys(x));
    CHECK(x.pairs() == 8);
    auto ans = mqar::reference_answers(x);
    for (std::size_t i = 0; i < ans.size(); ++i) {
      REQUIRE(ans[i].has_value());
      CHECK(*ans[i] == b.label(r, x.query_rows[i]));
    }
    xs.push_back(x);
  }
  zoology::Batch back = zoology::batch_from_instances(xs);
  CHECK(back.inputs == b.inputs);
  CHECK(back.labels == b.labels);
  CHECK_THROWS_AS(zoology::instance_from_row(b, 0, 50, std::nullopt), InputError);  // token >= c
}

TEST_CASE("npy: a long header and odd or binary headers give InputErrors") {
  auto header_file = [](const std::string& dict) {
    std::string out("\x93NUMPY\x02\x00", 8);
    const std::uint32_t n = static_cast<std::uint32_t>(dict.size());
    for (int i = 0; i < 4; ++i) out += static_cast<char>((n >> (8 * i)) & 0xff);
    return out + dict;
  };
  // std::regex recursed per character of the header: a 1 MB header overflowed the stack.
  const std::string long_descr = "{'descr': '" + std::string(1 << 20, 'x') + "', 'fortran_order': False, 'shape': (0,), }";
  CHECK_THROWS_AS(npy::parse_int64(header_file(long_descr), "m"), InputError);
  const std::string long_pad = "{'descr': '<i8', 'fortran_order': False, 'shape': (0,), }" + std::string(1 << 20, ' ');
  CHECK(npy::parse_int64(header_file(long_pad), "m").data.empty());
  for (const std::string dict : {"{'descr': '<i8', 'fortran_order': False, 'shape': (99999999999999,), }",
                                 "{'descr': '\x01\xff', 'fortran_order': False, 'shape': (1,), }",
                                 "{'descr': '<i8', 'fortran_order': False, 'shape': (1, 2", "{'descr'", "{'descr': '<i8"}) {
    try {
      npy::parse_int64(header_file(dict), "m");
      FAIL("accepted " << dict);
    } catch (const InputError& e) {
      for (char ch : std::string(e.what())) CHECK(static_cast<unsigned char>(ch) >= 0x20);
      CHECK(e.where == "m");
    }
  }
}
