#include "app/engine/byo/verify_npy.h"

#include <chrono>
#include <utility>

#include "util/error.h"
#include "verify/mqar_check.h"
#include "verify/mqar_task.h"

namespace cz {

Report run_verify_npy(const Construction& c, std::map<std::string, std::string> given, const DomainOptions& opts,
                      const std::string& inputs_path, const std::string& labels_path) {
  auto t0 = std::chrono::steady_clock::now();
  NpyCheck npy = npy_check(c, std::move(given), inputs_path, labels_path);
  Report r = run_check(c, npy.params, npy.built, npy.check, opts);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();  // incl. reading
  return r;
}

Report run_task_npy_check(const Task& task, std::map<std::string, std::string> given, const ByoArtifact& a,
                          const DomainOptions& opts, const std::string& inputs_path, const std::string& labels_path) {
  if (task.name != "mqar") throw InputError("zoology batches are MQAR's: --from-npy checks a file against --task mqar", "--task " + task.name);
  auto t0 = std::chrono::steady_clock::now();
  // A one-hot model states c (its width d = c); the batch's largest token must fit under it.
  const auto enc = given.find("encoding");
  if (!given.count("c") && a.fn.d > 0 && (enc == given.end() || enc->second == "onehot")) given["c"] = std::to_string(a.fn.d);
  const std::map<std::string, std::string> filled = npy_given(task.params, given, inputs_path, labels_path);
  Report r = run_task_check(task, filled, a, opts, [&](const Params&, const TaskArtifact& fn) {
    NpyCheck npy = npy_batch_check(task.params, given, inputs_path, labels_path, [&](const Params& p) {
      MqarSolver s;
      s.codec = mqar::task_codec(p, mqar::task_shape(p));
      s.run = [codec = s.codec, eval = fn.eval](const mqar::Instance& x) {
        MqarRun run;
        run.output = eval(mqar::encode(codec, x));
        return run;
      };
      return s;
    });
    npy.check.preconditions.push_back(
        std::to_string(npy.built.metrics.value("batch_labelled_positions", std::uint64_t{0})) + " labelled positions; the reference disagrees with " +
        std::to_string(npy.built.metrics.value("batch_reference_label_disagreements", std::uint64_t{0})) + " of their labels");
    return npy.check;
  });
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();  // incl. reading
  return r;
}

}  // namespace cz
