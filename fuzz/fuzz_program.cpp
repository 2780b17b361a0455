// libFuzzer harness: the recurrent program reader (model/program_json.h), then the program run
// on a few prompts (the interpreter's runtime errors are std exceptions: a failing program is a
// verdict, never a crash). The reader bounds nesting, size and output width (issue 25, items 4-7).
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "fuzz/fuzz_common.h"
#include "model/model_json.h"
#include "model/program_json.h"

void fuzz_one(const std::string& text) {
  const cz::ProgramFile f = cz::program_from_json(cz::parse_json_input(text, "fuzz.json"), "fuzz.json");
  // Prompts of the SD shape: rows of n + 1 columns (the element's bits, then the separator flag).
  for (std::size_t rows : {0, 1, 4}) {
    cz::Matrix<std::int64_t> u(rows, f.n + 1, 0);
    for (std::size_t i = 0; i < rows; ++i) {
      u(i, i % (f.n + 1)) = 1;
      if (i == rows / 2) u(i, f.n) = 1;
    }
    try {
      (void)cz::run_recurrent(f.program, u);
    } catch (const std::logic_error&) {   // a register too narrow, a wrong output width
    } catch (const std::runtime_error&) { // overflow (std::overflow_error)
    }
  }
}
