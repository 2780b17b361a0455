// doctest main shared by every test binary. It differs from DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN in one
// way: a run (not a query such as --list-test-cases) that executes no test case fails. ctest runs
// each case as `binary --test-case=NAME`; a name that no longer matches anything (a renamed case, a
// name that CMake split at a ';') would otherwise pass while testing nothing. tests/check_discovery.py
// checks the same statically for the whole suite.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <string_view>

#ifdef CZ_TEST_NEEDS_CUDA
#include "gpu/device.h"  // test_gpu_device (issue 12): its cases need a CUDA device
#endif

namespace {

struct RunCounter {
  bool ran = false;       // a run (not a query) reached its end
  unsigned started = 0;   // test cases executed
};
RunCounter g_counter;

struct ZeroCaseListener : doctest::IReporter {
  explicit ZeroCaseListener(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats&) override { g_counter.ran = true; }
  void test_case_start(const doctest::TestCaseData&) override { ++g_counter.started; }
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};
REGISTER_LISTENER("cz_zero_cases", 1, ZeroCaseListener);

}  // namespace

int main(int argc, char** argv) {
  doctest::Context ctx;
  ctx.applyCommandLine(argc, argv);
#ifdef CZ_TEST_NEEDS_CUDA
  // Skipped (ctest SKIP_RETURN_CODE 77) on a machine without a device, but never for a query
  // (--list-test-cases must list the cases so that ctest discovers them).
  bool query = false;
  for (int i = 1; i < argc; ++i) query |= std::string_view(argv[i]).rfind("--list", 0) == 0;
  if (!query && !cz::gpu::cuda_device().present) {
    std::fprintf(stderr, "skipped: %s\n", cz::gpu::cuda_device().why_not.c_str());
    return 77;
  }
#endif
  const int rc = ctx.run();
  if (ctx.shouldExit() || rc != 0) return rc;
  if (g_counter.ran && g_counter.started == 0) {
    std::fprintf(stderr, "error: no test case ran (the --test-case filter matched nothing)\n");
    return EXIT_FAILURE;
  }
  return rc;
}
