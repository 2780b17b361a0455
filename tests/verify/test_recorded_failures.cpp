// A first failure that the scalar path does not reproduce (issue 25): the shrinker used to get a
// Failure without an input and crash. Found by this process it is a verifier bug (logic_error,
// exit 3, both verdicts named); read from a file (a merge part, a checkpoint) it is that file's
// InputError.
#include <doctest/doctest.h>

#include <stdexcept>

#include "app/engine/engine.h"
#include "util/error.h"

using namespace cz;

namespace {
// A check whose block path fails instance 3 while run(3) passes: a block/scalar disagreement.
Check disagreeing_check() {
  Check c;
  c.domain = "exhaustive";
  c.instances = 10;
  c.run = [](std::uint64_t) { return std::optional<Failure>(); };
  c.shrink = [](const Failure& f) {
    REQUIRE(!f.input.is_null());  // the shrinker is only ever given a real failure
    return f;
  };
  struct Worker final : BlockWorker {
    void run(std::uint64_t k0, std::uint64_t n, BlockResult& r) override {
      for (std::uint64_t k = k0; k < k0 + n; ++k)
        if (k == 3) r.fail(k);
    }
  };
  c.block = [] { return std::unique_ptr<BlockWorker>(new Worker); };
  c.block_kind = "test";
  return c;
}
}  // namespace

TEST_CASE("a block-path failure the scalar path passes is an internal error naming both verdicts") {
  const Check c = disagreeing_check();
  try {
    (void)run_domain(c, 1, "");
    FAIL("no error");
  } catch (const InputError&) {
    FAIL("an InputError: this is no input's fault");
  } catch (const std::logic_error& e) {
    const std::string m = e.what();
    CHECK(m.find("verifier bug") != std::string::npos);
    CHECK(m.find("instance 3") != std::string::npos);
    CHECK(m.find("block path: test") != std::string::npos);
    CHECK(m.find("scalar check passes") != std::string::npos);
  }
  CHECK(run_domain(c, 1, "", RunPlan{true, 0}).failed == 0);  // the scalar path alone: nothing fails
}

TEST_CASE("a recorded failure the scalar path passes is the recording file's input error") {
  const Check c = disagreeing_check();
  BlockResult r;
  r.fail(3);
  try {
    (void)with_counterexample(c, r, "p1.json");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.where == "p1.json");
    CHECK(std::string(e.what()).find("instance 3") != std::string::npos);
  }
}
