// The C++ side of the Python module `circuitzoo` (python/circuitzoo/__init__.py wraps it): the CLI's
// commands run through `command` (python/command_calls.h, issue 39); reports travel as JSON text,
// matrices as int64 numpy buffers (python/arrays.h). Every long call runs on a thread of its own
// while the caller's thread watches it for Ctrl-C and reports progress (python/watched_call.h),
// the GIL released in between. cz::InputError (and the invalid_argument / domain_error of bad
// inputs) become Python ValueError with the message "<what> (<where>)".
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cli/arg_checks.h"
#include "app/cli/circuit_artifact.h"
#include "app/cli/commands.h"
#include "model/eval.h"
#include "model/model_json.h"
#include "app/report/report_json.h"
#include "tasks/zoology.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/progress.h"
#include "app/engine/engine.h"
#include "python/arrays.h"
#include "python/command_calls.h"
#include "python/watched_call.h"

namespace py = pybind11;
using cz::py_module::Buffer;
using cz::py_module::watched_call;
using json = nlohmann::json;
using Given = std::map<std::string, std::string>;

namespace {

std::string list_json() { return cz::cli::registry_json().dump(); }

// A model-json text read as `eval --model` reads it (every check, the same messages).
cz::Model read_model_text(const std::string& text, const std::string& where) {
  cz::JsonLimits limits;
  limits.max_values = cz::kModelMaxValues;
  return cz::model_from_json(cz::parse_json_input(text, where, limits), where);
}

// The model as BaseConv layers only (architecture layers expanded; circuitzoo.torch loads those).
std::string expanded_model_json(const std::string& text) {
  cz::Model m = read_model_text(text, "model");
  m.arch.clear();
  return cz::model_to_json(m).dump();
}

// save_model_json: checked as the CLI would read it, then written atomically (util/atomic_file.h:
// nothing half-written, a failed check leaves an old file as it was).
void save_model_text(const std::string& text, const std::string& path) {
  (void)read_model_text(text, path);
  cz::write_file_atomic(path, text);
}

// What `circuitzoo stats --json` prints, plus the model itself (model-json) under "model_json".
std::string build_json(const std::string& name, const Given& given, bool with_model) {
  const cz::Construction& k = cz::find_construction(name);
  cz::Params params = cz::Params::parse(k.params, given);
  cz::Built b = k.build(params);
  json claims = json::array();
  for (const auto& c : b.claims) claims.push_back(cz::to_json(c));
  json j = {{"tool", "circuitzoo"}, {"version", cz::kVersion}, {"construction", k.name},
            {"params", params.to_json()}, {"claims", claims}, {"notes", b.notes}};
  if (b.model) j["model"] = cz::model_summary(*b.model);
  if (!b.circuit.is_null()) j["circuit"] = b.circuit;
  else if (auto cs = cz::cli::circuit_stats_json(b); !cs.is_null()) j["circuit"] = cs;
  if (!b.metrics.empty()) j["metrics"] = b.metrics;
  if (with_model) j["model_json"] = b.model ? cz::model_to_json(*b.model) : json(nullptr);
  return j.dump();
}

// build(): the stats JSON with the model's int64 matrices moved into buffers ({"$buffer": i}).
struct BuiltArrays {
  std::string json_text;
  std::vector<Buffer> buffers;
};
BuiltArrays build_arrays(const std::string& name, const Given& given) {
  json j = json::parse(build_json(name, given, true));
  BuiltArrays out;
  cz::py_module::extract_buffers(j["model_json"], out.buffers);
  out.json_text = j.dump();
  return out;
}

std::string sweep_json(const std::string& name, const std::string& key, const std::vector<std::string>& values,
                       const Given& given) {
  return cz::cli::sweep_json(cz::find_construction(name), key, values, given).dump();
}

template <cz::Ring R>
cz::RatMatrix eval_in(const R& ring, const cz::Model& m, const cz::RatMatrix& u) {
  cz::Matrix<typename R::Elem> x(u.rows(), u.cols());
  for (std::size_t k = 0; k < u.data().size(); ++k) x.data()[k] = ring.from_rat(u.data()[k]);
  auto y = cz::eval(cz::prepare(ring, m), x);
  return cz::map_matrix(y, [&](const auto& e) { return ring.to_rat(e); });
}

// The model's exact output on u: an int64 buffer when every entry fits (int64_out true), else
// model-json matrix text. The model arrives as model-json with {"$buffer": i} matrices, u as a
// buffer (u_text empty) or as JSON text (entries beyond int64, fractions).
struct EvalOut {
  bool int64_out = false;
  Buffer y;
  std::string y_json;
};
EvalOut eval_arrays(const std::string& model_text, const std::vector<Buffer>& model_bufs, const Buffer& u_buf,
                    const std::string& u_text) {
  json mj = cz::parse_json_input(model_text, "model");
  cz::py_module::substitute_buffers(mj, model_bufs);
  cz::Model m = cz::model_from_json(mj, "model");
  cz::RatMatrix u = u_text.empty() ? cz::py_module::rat_matrix(u_buf) : cz::matrix_from_json(cz::parse_json_input(u_text, "u"), "u");
  if (u.rows() != m.N || u.cols() != m.d)
    throw cz::InputError("input is " + std::to_string(u.rows()) + "x" + std::to_string(u.cols()) + ", the model wants " +
                             std::to_string(m.N) + "x" + std::to_string(m.d), "u");
  cz::RatMatrix y;
  if (m.ring == "Z") y = eval_in(cz::RingZ{}, m, u);
  else if (m.ring == "Q") y = eval_in(cz::RingQ{}, m, u);
  else {
    const std::string digits = m.ring.substr(3);
    if (digits.empty() || digits.size() > 19 || digits.find_first_not_of("0123456789") != std::string::npos)
      throw cz::InputError("ring '" + m.ring + "': want Fp:<prime below 2^62>", "model.ring");
    y = eval_in(cz::RingFp(std::stoull(digits)), m, u);
  }
  EvalOut out;
  out.int64_out = cz::py_module::int64_buffer(y, out.y);
  if (!out.int64_out) out.y_json = cz::matrix_to_json(y).dump();
  return out;
}

struct MqarArrays {
  std::string inputs, labels;  // int64 little-endian, row-major
  std::size_t rows = 0, cols = 0;
};

MqarArrays mqar_data(const std::string& vocab, const std::string& seq_len, const std::string& kv, const std::string& examples,
                     const std::string& seed, const std::string& power_a, bool random_non_queries) {
  using cz::cli::ArgNames;
  cz::zoology::MqarConfig cfg;
  cfg.vocab_size = cz::cli::parse_uint_arg(vocab, cz::cli::kVocabArg, ArgNames::Python);
  cfg.input_seq_len = cz::cli::parse_uint_arg(seq_len, cz::cli::kSeqLenArg, ArgNames::Python);
  cfg.num_kv_pairs = cz::cli::parse_uint_arg(kv, cz::cli::kKvArg, ArgNames::Python);
  cfg.num_examples = cz::cli::parse_uint_arg(examples, cz::cli::kExamplesArg, ArgNames::Python);
  cfg.seed = static_cast<std::uint32_t>(cz::cli::parse_uint_arg(seed, cz::cli::kDataSeedArg, ArgNames::Python));
  cfg.power_a = cz::cli::parse_power_a(power_a, ArgNames::Python);
  cfg.random_non_queries = random_non_queries;
  cz::zoology::Batch b = cz::cli::mqar_batch(cfg, power_a, ArgNames::Python);
  MqarArrays out{std::string(reinterpret_cast<const char*>(b.inputs.data()), b.inputs.size() * 8),
                 std::string(reinterpret_cast<const char*>(b.labels.data()), b.labels.size() * 8), b.rows, b.cols};
  return out;
}

// Under the GIL: a buffer as a (rows, cols) int64 numpy array, and back (any integer array that
// numpy converts to int64 without loss; the wrapper checks the dtype).
py::array_t<std::int64_t> to_numpy(const Buffer& b) {
  py::array_t<std::int64_t> a({static_cast<py::ssize_t>(b.rows), static_cast<py::ssize_t>(b.cols)});
  if (!b.data.empty()) std::memcpy(a.mutable_data(), b.data.data(), b.data.size() * sizeof(std::int64_t));
  return a;
}
Buffer from_numpy(const py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>& a, const char* what) {
  if (a.ndim() != 2) throw cz::InputError("expected a 2-D matrix, got " + std::to_string(a.ndim()) + " dimensions", what);
  Buffer b;
  b.rows = static_cast<std::size_t>(a.shape(0));
  b.cols = static_cast<std::size_t>(a.shape(1));
  b.data.assign(a.data(), a.data() + a.size());
  return b;
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "circuitzoo C++ core (use the circuitzoo package, not this module)";
  m.attr("version") = cz::kVersion;
  m.attr("python_executable") = CZ_PYTHON_EXECUTABLE;  // the interpreter the build found (item 2)
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const cz::InputError& e) {
      PyErr_SetString(PyExc_ValueError, (std::string(e.what()) + " (" + e.where + ")").c_str());
    } catch (const json::exception& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const std::invalid_argument& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const std::domain_error& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
  // Every long call: watched_call (Ctrl-C -> KeyboardInterrupt within ~0.1 s of the engine's next
  // block; `progress(done, total, stage)` every ~50 ms when given, None otherwise).
  m.def("list_json", &list_json);
  // The CLI's commands for their JSON (python/command_calls.h): verify, stats, prove, claims,
  // export, circuit, merge, tasks.
  m.def(
      "command",
      [](const std::string& command, const std::string& options, const py::object& progress) {
        return watched_call(progress, [&] { return cz::py_module::run_command(command, options); });
      },
      py::arg("command"), py::arg("options"), py::arg("progress") = py::none());
  m.def(
      "build_json",
      [](const std::string& name, const Given& params, bool with_model, const py::object& progress) {
        return watched_call(progress, [&] { return build_json(name, params, with_model); });
      },
      py::arg("name"), py::arg("params"), py::arg("with_model"), py::arg("progress") = py::none());
  m.def(
      "build_arrays",
      [](const std::string& name, const Given& params, const py::object& progress) {
        BuiltArrays b = watched_call(progress, [&] { return build_arrays(name, params); });
        py::list bufs;
        for (const Buffer& x : b.buffers) bufs.append(to_numpy(x));
        return py::make_tuple(b.json_text, bufs);
      },
      py::arg("name"), py::arg("params"), py::arg("progress") = py::none());
  m.def(
      "sweep_json",
      [](const std::string& name, const std::string& key, const std::vector<std::string>& values, const Given& params,
         const py::object& progress) { return watched_call(progress, [&] { return sweep_json(name, key, values, params); }); },
      py::arg("name"), py::arg("key"), py::arg("values"), py::arg("params"), py::arg("progress") = py::none());
  m.def(
      "eval_arrays",
      [](const std::string& model, const std::vector<py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>>& bufs,
         const py::object& u, const std::string& u_text) -> py::object {
        std::vector<Buffer> model_bufs;
        for (const auto& a : bufs) model_bufs.push_back(from_numpy(a, "model"));
        Buffer ub;
        if (u_text.empty()) ub = from_numpy(u.cast<py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>>(), "u");
        EvalOut y = watched_call(py::none(), [&] { return eval_arrays(model, model_bufs, ub, u_text); });
        if (y.int64_out) return to_numpy(y.y);
        return py::str(y.y_json);
      },
      py::arg("model"), py::arg("buffers"), py::arg("u"), py::arg("u_text"));
  m.def(
      "expanded_model_json", [](const std::string& text) { return watched_call(py::none(), [&] { return expanded_model_json(text); }); },
      py::arg("text"));
  m.def(
      "save_model_json", [](const std::string& text, const std::string& path) { watched_call(py::none(), [&] { save_model_text(text, path); return 0; }); },
      py::arg("text"), py::arg("path"));
  m.def(
      "mqar_data",
      [](const std::string& vocab, const std::string& seq_len, const std::string& kv, const std::string& examples,
         const std::string& seed, const std::string& power_a, bool random_non_queries) {
        MqarArrays a = watched_call(py::none(), [&] {
          return mqar_data(vocab, seq_len, kv, examples, seed, power_a, random_non_queries);
        });
        Buffer in{a.rows, a.cols, {}}, lab{a.rows, a.cols, {}};
        in.data.resize(a.rows * a.cols);
        lab.data.resize(a.rows * a.cols);
        std::memcpy(in.data.data(), a.inputs.data(), a.inputs.size());
        std::memcpy(lab.data.data(), a.labels.data(), a.labels.size());
        return py::make_tuple(to_numpy(in), to_numpy(lab));
      },
      py::arg("vocab"), py::arg("seq_len"), py::arg("kv"), py::arg("examples"), py::arg("seed"), py::arg("power_a"),
      py::arg("random_non_queries") = false);
}
