// The registry of constructions (Yosys-style: each construction file registers itself with its
// help text). A construction declares its parameter schema, builds an artifact for given
// parameters (with the paper's claims beside what it achieved), and says how to check it: a
// domain of instances and a thread-safe per-instance check against an independent reference.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/model.h"
#include "verify/claim.h"
#include "verify/params.h"

namespace cz::circuits {
class Circuit;  // circuits/circuit.h (src/verify does not include circuits headers)
}

namespace cz {

struct Failure {
  nlohmann::json instance;  // what the instance is (index, task fields)
  nlohmann::json input;     // the input matrix
  nlohmann::json expected;  // reference answer
  nlohmann::json got;       // artifact's answer
  std::string message;      // one line: what went wrong
};

struct DomainOptions {
  bool force_exhaustive = false;
  std::optional<std::uint64_t> samples;  // force a sampled domain of this size
  std::uint64_t seed = 1;
  unsigned threads = 0;                  // 0: all cores
  std::uint64_t block = 0;               // instances per engine block (0: the check's preference)
  bool scalar = false;                   // force the per-instance run(k) path (the reference path)
  std::string device = "cpu";            // cpu | cuda | auto | twin (issue 12; app/engine/run/device_path.h)
};

// The batched path (issue 10). A check may offer per-thread block workers: each owns its scratch
// buffers (the hot path allocates nothing), checks instances [k0, k0 + count) in bulk and adds to
// a BlockResult the number that failed and the smallest failing index. No Failure (JSON) is built
// on this path: the engine rebuilds the failure of the smallest failing index through the scalar
// run(k), so the counterexample is identical to the scalar path's for every thread count and
// block size.
struct BlockResult {
  std::uint64_t failed = 0;
  std::optional<std::uint64_t> first;  // smallest failing index seen
  void fail(std::uint64_t k) {
    ++failed;
    if (!first || k < *first) first = k;
  }
  void merge(const BlockResult& o) {
    failed += o.failed;
    if (o.first && (!first || *o.first < *first)) first = o.first;
  }
};

class BlockWorker {
 public:
  virtual ~BlockWorker() = default;
  // Checks [k0, k0 + count) (any count >= 1, any k0); thread-compatible (one worker per thread).
  virtual void run(std::uint64_t k0, std::uint64_t count, BlockResult& r) = 0;
};

// Adapter: a block worker over the scalar run(k) (for checks that are cheap per instance).
std::function<std::unique_ptr<BlockWorker>()> scalar_blocks(std::function<std::optional<Failure>(std::uint64_t)> run);

// The device path (issue 12, gpu/): the same verdicts computed by kernel bodies written once
// (gpu/hd.h) that the CUDA build runs on the GPU and every build runs on the CPU, the "twin" that
// CI tests against the CPU engine. Instances are generated where they are checked (only counts and
// the smallest failing index come back); the engine rebuilds that counterexample through run(k).
class DeviceProgram {
 public:
  virtual ~DeviceProgram() = default;
  virtual std::string kind() const = 0;  // e.g. "bit-sliced LOP3, 32-bit lanes"
  // A per-thread CPU worker running the kernel bodies (thread-compatible, like any BlockWorker).
  virtual std::unique_ptr<BlockWorker> twin() const = 0;
  // A worker that launches the CUDA kernels on the current device (one host thread drives it).
  // Throws std::runtime_error when the build or the machine has no CUDA device.
  virtual std::unique_ptr<BlockWorker> cuda() const = 0;
  virtual std::uint64_t twin_block() const { return 4096; }          // instances per twin block
  virtual std::uint64_t cuda_block() const { return std::uint64_t{1} << 24; }  // instances per launch
};

struct Check {
  std::string domain;                    // "exhaustive" | "sampled" | "exhaustive+sampled" (a box, then samples)
  std::uint64_t instances = 0;
  std::string description;               // e.g. "all {0,1}^(8x2) input matrices"
  std::vector<std::string> preconditions;
  // Checks instance k in [0, instances); must be thread-safe and depend only on k (and seed).
  std::function<std::optional<Failure>(std::uint64_t k)> run;
  // Optional: a smaller failing input from a failing one (cheap greedy shrinking).
  std::function<Failure(const Failure&)> shrink;
  // Optional batched path (see BlockWorker); when set, the engine uses it unless asked for scalar.
  std::function<std::unique_ptr<BlockWorker>()> block;
  std::uint64_t block_size = 4096;       // preferred instances per engine block
  std::string block_kind;                // how the block path evaluates ("bit-sliced", "batched int64", "adapter")
  // Optional device path (see DeviceProgram); `verify --device cuda|twin|auto` uses it.
  std::shared_ptr<const DeviceProgram> device;
};

struct Built {
  std::optional<Model> model;            // when the artifact is (or compiles to) a model
  nlohmann::json circuit = nullptr;      // circuit stats, when the artifact is a circuit
  std::shared_ptr<const circuits::Circuit> circuit_ir;  // the circuit itself (for stats/export)
  nlohmann::json metrics = nlohmann::json::object();  // other measured quantities (state_bits, f, work...)
  // Wall-clock measurements (build_seconds, gates_per_second): reported under `timing` only, so
  // that everything else is byte-identical between runs (contract.md; `--no-timing` drops it).
  nlohmann::json timing = nlohmann::json::object();
  std::vector<Claim> claims;
  std::vector<std::string> notes;        // errata choices, conv mode, ...
  std::shared_ptr<const void> state;     // construction-private data for check()
};

struct Construction {
  std::string name;     // e.g. "primitive/shift_down"
  std::string task;     // e.g. "shift_down"
  std::string summary;  // one line of help
  std::vector<ParamSpec> params;
  std::function<Built(const Params&)> build;
  std::function<Check(const Params&, const Built&, const DomainOptions&)> check;
};

// Registers at static-initialisation time; returns true so it can initialise a static.
bool register_construction(Construction c);
const std::vector<Construction>& registry();
// Throws InputError (where = the name) for an unknown construction.
const Construction& find_construction(const std::string& name);

// Special proof routes (issue 47 item 2): a construction names, from its own file and beside
// register_construction, the routes its artifact takes beyond the methods every artifact kind and
// task has ("sat:dyadic-stages": mqar/dyadic's circuit proved by its stages; the ids are the
// engine's vocabulary, app/engine/sat/sat_routes.h). The engine picks methods by artifact kind, task
// and these ids; it never compares a construction's name.
bool register_routes(const std::string& construction, std::vector<std::string> routes);
// The routes a construction registered (in its order; empty when none).
const std::vector<std::string>& routes_of(const std::string& construction);
// The construction that registered `route` (nullptr when none; the first by name when several).
const Construction* construction_with_route(const std::string& route);

}  // namespace cz
