// Differential test of every engine path a user's model can take (issue 24, D1): random user
// models (tests/verify/random_user_model.h: every conv mode, rings Z, Q and Fp, wider inner
// dimensions, sparse and dense weights, BaseConv, LinearAttention and MLP layers) on default and
// sampled domains, each checked by
//   scalar   --scalar: run(k), the exact evaluator, one instance at a time (the reference path)
//   block    the default: the check's block path (MQAR: the int64 lane program of the model)
//   block'   the same with 2 threads and 7 instances per block
//   twin     --device twin: the device path's kernel bodies on the CPU, where the check has one
// All must give the same verdict: the same refusal, or the same counts and the same first
// counterexample (same JSON). D1 (anticausal models read as cyclic by the lane program) made
// `block` pass models that `scalar` fails.
#include <doctest/doctest.h>

#include <cstdlib>
#include <optional>

#include "app/engine/byo/byo.h"
#include "tests/seed.h"
#include "tests/verify/random_user_model.h"
#include "util/error.h"
#include "verify/task.h"

using namespace cz;

namespace {

Model builtin_model(const std::string& name, const std::map<std::string, std::string>& given) {
  const Construction& k = find_construction(name);
  std::map<std::string, std::string> kp;
  for (const auto& spec : k.params)
    if (given.count(spec.name)) kp[spec.name] = given.at(spec.name);
  Built b = k.build(Params::parse(k.params, kp));
  REQUIRE(b.model.has_value());
  return *b.model;
}

struct Outcome {
  bool ran = false;            // false: refused (InputError)
  std::string refusal;         // the refusal's text
  std::uint64_t instances = 0, passed = 0, failed = 0;
  std::string domain, engine_kind;
  nlohmann::json counterexample;
};

Outcome run_path(const test::DrawnCase& c, const std::string& path) {
  DomainOptions o = c.opts;
  o.threads = 1;
  if (path == "scalar") o.scalar = true;
  if (path == "block'") {
    o.threads = 2;
    o.block = 7;
  }
  if (path == "twin") o.device = "twin";
  Outcome out;
  try {
    const Task& t = find_task(c.task);
    const Report r = run_task_check(t, c.given, model_artifact(c.model, "drawn.json"), o);
    out.ran = true;
    out.instances = r.instances;
    out.passed = r.passed;
    out.failed = r.failed;
    out.domain = r.domain;
    out.engine_kind = r.engine.is_object() ? r.engine.value("kind", std::string("scalar")) : "";
    if (r.counterexample)
      out.counterexample = {{"instance", r.counterexample->instance}, {"input", r.counterexample->input},
                            {"expected", r.counterexample->expected}, {"got", r.counterexample->got},
                            {"message", r.counterexample->message}};
  } catch (const InputError& e) {
    out.refusal = std::string(e.what()) + " (" + e.where + ")";
  }
  return out;
}

bool no_device_path(const Outcome& o) { return !o.ran && o.refusal.find("has no device path") != std::string::npos; }

struct Tally {
  std::uint64_t models = 0, refused = 0, path_runs = 0, instances = 0, lane = 0, twin = 0, failing = 0, partial = 0;
};

// Runs every path on one drawn case and CHECKs that they agree with the scalar path.
void same_verdict(const test::DrawnCase& c, Tally& tally) {
  INFO(c.what);
  const Outcome ref = run_path(c, "scalar");
  ++tally.models;
  if (!ref.ran) ++tally.refused;
  if (ref.ran && ref.failed) ++tally.failing;
  if (ref.ran && ref.failed && ref.passed) ++tally.partial;
  for (const char* path : {"block", "block'", "twin"}) {
    INFO("path " << path);
    const Outcome got = run_path(c, path);
    if (std::string(path) == "twin" && no_device_path(got)) continue;  // the check has no device path
    ++tally.path_runs;
    tally.instances += got.instances;
    if (got.engine_kind.find("lane program") != std::string::npos) ++tally.lane;
    if (std::string(path) == "twin") ++tally.twin;
    REQUIRE(got.ran == ref.ran);
    if (!ref.ran) {
      CHECK(got.refusal == ref.refusal);
      continue;
    }
    CHECK(got.domain == ref.domain);
    CHECK(got.instances == ref.instances);
    CHECK(got.failed == ref.failed);
    CHECK(got.passed == ref.passed);
    CHECK(got.counterexample == ref.counterexample);
  }
}

}  // namespace

TEST_CASE("an anticausal copy of mqar/attention fails on every engine path (issue 24 D1)") {
  test::DrawnCase c;
  c.task = "mqar";
  c.model = builtin_model("mqar/attention", {});
  c.model.conv = ConvMode::Anticausal;
  c.what = "mqar/attention, conv anticausal (the issue's repro)";
  Tally t;
  same_verdict(c, t);
  const Outcome block = run_path(c, "block");
  CHECK(block.engine_kind.find("lane program") != std::string::npos);  // the fast path did run
  CHECK(block.failed == block.instances);                               // scalar: failed 4374/4374
  CHECK(block.instances == 4374);
  c.opts.samples = 500;
  c.opts.seed = 3;
  c.given = {{"n", "4"}, {"c", "5"}};
  c.model = builtin_model("mqar/attention", c.given);
  c.model.conv = ConvMode::Anticausal;
  same_verdict(c, t);
  CHECK(run_path(c, "block").failed > 0);
}

TEST_CASE("a cyclic copy of mqar/attention gets the same verdict on every engine path") {
  test::DrawnCase c;
  c.task = "mqar";
  c.model = builtin_model("mqar/attention", {});
  c.model.conv = ConvMode::Cyclic;
  c.what = "mqar/attention, conv cyclic";
  Tally t;
  same_verdict(c, t);
}

TEST_CASE("the lane program refuses what it does not model: Fp rings and MLP layers go to the exact path") {
  // Over Fp the model computes mod p: model_artifact refuses it for every path alike.
  test::DrawnCase c;
  c.task = "mqar";
  c.model = builtin_model("mqar/attention", {});
  c.model.ring = "Fp:7";
  Tally t;
  same_verdict(c, t);
  CHECK_FALSE(run_path(c, "block").ran);
  // An MLP layer (ReLU is no ring map): the block path must not be the lane program.
  c.model.ring = "Z";
  const std::size_t n = c.model.inner_N, d = c.model.inner_d;
  RatMatrix I(d, d);
  for (std::size_t i = 0; i < d; ++i) I(i, i) = Rat(1);
  c.model.layers.push_back(MlpLayer{I, RatMatrix(n, d), I, RatMatrix(n, d)});
  same_verdict(c, t);
  const Outcome o = run_path(c, "block");
  CHECK(o.engine_kind.find("lane program") == std::string::npos);
  CHECK(o.failed == 0);  // relu(u)·I on nonnegative outputs: still correct
  // Q with integral weights is Z: the lane program may take it, and the verdict is the same.
  c.model.layers.pop_back();
  c.model.ring = "Q";
  same_verdict(c, t);
  CHECK(run_path(c, "block").engine_kind.find("lane program") != std::string::npos);
  // Weights whose products leave the lane program's int64 bound (2^62): every instance exact.
  c.model.ring = "Z";
  auto& first = std::get<BaseConvLayer>(c.model.layers.at(0));
  for (auto& e : first.W.data())
    if (!e.is_zero()) e = e * Rat(std::int64_t{1} << 61);
  same_verdict(c, t);
  const Outcome big = run_path(c, "block");
  CHECK(big.engine_kind.find("exceeds the lane program") != std::string::npos);
  CHECK(big.failed > 0);
}

TEST_CASE("random user models get the same verdict on the scalar, block and twin paths") {
  const std::uint64_t base = test::seed();
  INFO("CZ_TEST_SEED " << base);
  Tally t;
  const char* env = std::getenv("CZ_DIFFERENTIAL_MODELS");  // more for a long run (the note's figures)
  const std::uint64_t models = env ? std::strtoull(env, nullptr, 10) : 60;
  for (std::uint64_t k = 0; k < models; ++k) {
    test::DrawnCase c;
    try {
      c = test::draw_user_model(base * 1000 + k, builtin_model);
    } catch (const InputError&) {
      continue;  // the drawn file itself is malformed (every path refuses it at read time)
    }
    same_verdict(c, t);
  }
  MESSAGE("differential: " << t.models << " models (" << t.refused << " refused by every path, " << t.failing
                           << " failing, " << t.partial << " partly), " << t.path_runs << " path runs beside scalar ("
                           << t.lane << " lane program, " << t.twin << " twin), " << t.instances << " instances");
  CHECK(t.lane > 5);     // the fast path was exercised
  CHECK(t.twin > 5);     // and the twin
  CHECK(t.partial > 3);  // models that pass some instances and fail others
}
