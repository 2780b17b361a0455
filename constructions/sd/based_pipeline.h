// The Based SD pipeline of JRT Thm G.22 run on one instance, stage by stage (spec §10.3):
//   v = [u; u] --G.20--> kernel --+
//   v --G.21 insert--> w ---------+--G.21 shift--> z --G.18 (mask, mark, MLP, attn, MLP)--> flags
// Every stage is an exact model evaluated by the project's evaluator; the only data dependence
// is the G.21 filter (read off G.20's output) and, for the data-dependent kernel, the G.18 MLP
// built from the first set of z's window (read off z, not from the instance).
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <mutex>

#include "constructions/sd/based_stages.h"
#include "constructions/sd/g18.h"
#include "model/eval.h"
#include "tasks/sd.h"

namespace cz::sdc {

struct PipelineConfig {
  unsigned n = 2;
  Layout layout = Layout::Top;
  KernelSpec kernel;
  bool g18_alone = false;  // G.18 on u itself (N rows) instead of the pipeline's 2N rows
  StageMutator mutate;     // tests: edits "g20", "g21-insert", "g21-shift", "g18-pre", "g18-post"
};

// Stage models that depend only on N (and the random kernel's G.18), built once per N.
class Pipeline {
 public:
  explicit Pipeline(PipelineConfig c) : cfg_(c) {}
  const PipelineConfig& config() const { return cfg_; }

  struct PerN {
    Model g20, insert;
    std::shared_ptr<const IntegerEvaluator> g20_eval, insert_eval;
    std::shared_ptr<const G18Model> g18;  // random / exponential kernels (data-independent)
  };
  const PerN& models(std::size_t N) const;  // thread-safe

  std::size_t window_lo(std::size_t N) const { return cfg_.layout == Layout::Top ? 0 : N; }

 private:
  PipelineConfig cfg_;
  mutable std::mutex mu_;
  mutable std::map<std::size_t, std::shared_ptr<const PerN>> cache_;
};

struct PipelineOutcome {
  Matrix<std::int64_t> v;                 // the JRT prompt
  std::vector<std::int64_t> kernel;       // read off G.20's output (top-layout reading)
  bool g20_clean = true;                  // G.20's output is zero outside the kernel's column
  Matrix<std::int64_t> window;            // z rows [lo, lo+N): the rearranged copy
  std::vector<std::uint32_t> S;           // first set of the window (kernel built from it)
  G18Run run;
  std::vector<std::uint32_t> common;      // elements of the flagged window rows
  std::size_t f = 0;
};

// Caches of the data-dependent stage models for the block path (issue 10): the G.21 shift
// depends on the instance only through (N, kernel h), the data-dependent G.18 model only through
// (N, first set S); both are built (and prepared) once per key instead of per instance. One cache
// is shared by the threads of a check (thread-safe; each model is built once, outside the map's
// lock, by the first thread that needs it, while a second thread needing it waits). The same
// builders run, so a cached model is the model the scalar path builds for that instance.
template <class V>
struct CacheSlot {
  std::once_flag once;
  V value;
};

class PipelineCache {
 public:
  using ShiftKey = std::pair<std::size_t, std::vector<std::int64_t>>;
  using G18Key = std::pair<std::size_t, std::vector<std::uint32_t>>;
  std::shared_ptr<const IntegerEvaluator> shift(const ShiftKey& key,
                                                const std::function<std::shared_ptr<const IntegerEvaluator>()>& build);
  // Keeps the prepared evaluators of the built model (its Rat layers are dropped).
  std::shared_ptr<const G18Model> g18(const G18Key& key, const std::function<G18Model()>& build);

 private:
  std::mutex mu_;
  std::map<ShiftKey, std::shared_ptr<CacheSlot<std::shared_ptr<const IntegerEvaluator>>>> shift_;
  std::map<G18Key, std::shared_ptr<CacheSlot<std::shared_ptr<const G18Model>>>> g18_;
};

// Runs the stages up to `through`: 1 = Lemma G.20, 2 = Prop G.21, 3 = Prop G.18 (all).
// `cache` (optional, shared by the threads of a check) keeps the data-dependent models across instances.
PipelineOutcome run_pipeline(const Pipeline& P, const sd::Instance& x, int through = 3, PipelineCache* cache = nullptr);

// The first set of a Remark G.14 layout (rows before the first flag), and the flagged elements.
std::vector<std::uint32_t> first_set(const Matrix<std::int64_t>& u, unsigned n);

// The G.18 stage alone on u = encode(x) (A first, no repetition): the data-dependent kernel is
// built from A's rows; the random/exponential models are cached by N.
struct G18Outcome {
  Matrix<std::int64_t> u;
  G18Run run;
  std::vector<std::uint32_t> common;
  std::size_t f = 0;
};
G18Outcome run_g18_alone(const Pipeline& P, const sd::Instance& x, PipelineCache* cache = nullptr);

}  // namespace cz::sdc
