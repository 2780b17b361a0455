// Runs only where a CUDA device is present (test_main.cpp exits 77 otherwise).
#include <doctest/doctest.h>

#include "gpu/device.h"

TEST_CASE("the CUDA device is described") {
  const auto& d = cz::gpu::cuda_device();
  REQUIRE(d.present);
  CHECK(cz::gpu::built_with_cuda());
  CHECK(!d.name.empty());
  CHECK(d.sm_count > 0);
  CHECK(d.label().rfind("cuda:", 0) == 0);
}
