#include "app/engine/verify_npy.h"

#include <chrono>
#include <utility>

#include "verify/mqar_check.h"

namespace cz {

Report run_verify_npy(const Construction& c, std::map<std::string, std::string> given, const DomainOptions& opts,
                      const std::string& inputs_path, const std::string& labels_path) {
  auto t0 = std::chrono::steady_clock::now();
  NpyCheck npy = npy_check(c, std::move(given), inputs_path, labels_path);
  Report r = run_check(c, npy.params, npy.built, npy.check, opts);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();  // incl. reading
  return r;
}

}  // namespace cz
