// Example: use the public API to build a model of your own (shift_down by 2, then cumsum,
// stacked), check it exhaustively against an exact reference, and save it as model-json.
//   ./build/examples/example_custom_construction out.json
#include <iostream>

#include "constructions/primitives/builders.h"
#include "model/model_json.h"
#include "tasks/primitive_semantics.h"
#include "app/engine/engine.h"
#include "verify/model_check.h"

int main(int argc, char** argv) {
  using namespace cz;
  const std::size_t N = 6, d = 2;
  Model m = stack(build::shift_down(N, d, 2), build::cumsum(N, d));
  auto reference = [](const auto& ring, const auto& u) { return sem::cumsum(ring, sem::shift_down(ring, u, 2)); };
  Check check = model_vs_semantics(m, reference, make_matrix_domain(N, d, DomainOptions{}, 3));
  RunResult r = run_domain(check, 0, "example");
  std::cout << check.description << ": " << check.instances - r.failed << "/" << check.instances << " passed\n";
  if (argc > 1) write_model_file(m, argv[1]);
  return r.failed ? 1 : 0;
}
