// The C++ side of the Python module `circuitzoo` (python/circuitzoo/__init__.py wraps it): every
// call takes and returns JSON text or bytes, and releases the GIL while it works. cz::InputError
// (and the invalid_argument / domain_error of bad inputs) become Python ValueError with the message
// "<what> (<where>)".
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

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
#include "app/report/sat_report.h"
#include "tasks/zoology.h"
#include "util/error.h"
#include "app/engine/engine.h"

namespace py = pybind11;
using json = nlohmann::json;
using Given = std::map<std::string, std::string>;

namespace {

std::string list_json() {
  json arr = json::array();
  for (const auto& k : cz::registry()) {
    json params = json::array();
    for (const auto& p : k.params) {
      json pj = {{"name", p.name}, {"default", p.default_value}, {"help", p.help}};
      if (p.kind == cz::ParamSpec::Integer) { pj["kind"] = "int"; pj["min"] = p.min; pj["max"] = p.max; }
      else { pj["kind"] = "choice"; pj["choices"] = p.choices; }
      params.push_back(pj);
    }
    arr.push_back({{"name", k.name}, {"task", k.task}, {"summary", k.summary}, {"params", params}});
  }
  return arr.dump();
}

// Numbers arrive as decimal text (the wrapper checks that they are Python ints) and are checked by
// the CLI's own code (app/cli/arg_checks.h): same bounds, same messages, Python's names.
std::string verify_json(const std::string& name, const Given& given, const std::string& samples, const std::string& seed,
                        bool exhaustive, const std::string& threads, const std::string& device) {
  using cz::cli::ArgNames;
  cz::DomainOptions dom;
  if (!samples.empty()) dom.samples = cz::cli::parse_uint_arg(samples, cz::cli::kSamplesArg, ArgNames::Python);
  dom.seed = cz::cli::parse_uint_arg(seed, cz::cli::kSeedArg, ArgNames::Python);
  dom.threads = static_cast<unsigned>(cz::cli::parse_uint_arg(threads, cz::cli::kThreadsArg, ArgNames::Python));
  cz::cli::check_verify_domain(exhaustive, !samples.empty(), device, ArgNames::Python);
  dom.force_exhaustive = exhaustive;
  dom.device = device;  // cpu | cuda | auto | twin (app/engine/device_path.h)
  return cz::to_json(cz::run_verify(cz::find_construction(name), given, dom)).dump();
}

// verify(..., method="sat"): the `verify NAME --method sat --json` report (app/engine/sat_path.h),
// with the CLI's defaults (300 s, one miter per query / place / word, all cores).
std::string verify_sat_json(const std::string& name, const Given& given, const std::string& threads) {
  cz::SatOptions o;
  o.threads = static_cast<unsigned>(cz::cli::parse_uint_arg(threads, cz::cli::kThreadsArg, cz::cli::ArgNames::Python));
  return cz::sat_report_json(cz::run_verify_sat(cz::find_construction(name), given, o)).dump();
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

std::string sweep_json(const std::string& name, const std::string& key, const std::vector<std::string>& values,
                       const Given& given) {
  return cz::cli::sweep_json(cz::find_construction(name), key, values, given).dump();
}

template <cz::Ring R>
json eval_in(const R& ring, const cz::Model& m, const cz::RatMatrix& u) {
  cz::Matrix<typename R::Elem> x(u.rows(), u.cols());
  for (std::size_t k = 0; k < u.data().size(); ++k) x.data()[k] = ring.from_rat(u.data()[k]);
  auto y = cz::eval(cz::prepare(ring, m), x);
  return cz::matrix_to_json(cz::map_matrix(y, [&](const auto& e) { return ring.to_rat(e); }));
}

std::string eval_json(const std::string& model_text, const std::string& input_text) {
  cz::Model m = cz::model_from_json(cz::parse_json_input(model_text, "model"), "model");
  cz::RatMatrix u = cz::matrix_from_json(cz::parse_json_input(input_text, "u"), "u");
  if (u.rows() != m.N || u.cols() != m.d)
    throw cz::InputError("input is " + std::to_string(u.rows()) + "x" + std::to_string(u.cols()) + ", the model wants " +
                             std::to_string(m.N) + "x" + std::to_string(m.d), "u");
  if (m.ring == "Z") return eval_in(cz::RingZ{}, m, u).dump();
  if (m.ring == "Q") return eval_in(cz::RingQ{}, m, u).dump();
  const std::string digits = m.ring.substr(3);
  if (digits.empty() || digits.size() > 19 || digits.find_first_not_of("0123456789") != std::string::npos)
    throw cz::InputError("ring '" + m.ring + "': want Fp:<prime below 2^62>", "model.ring");
  return eval_in(cz::RingFp(std::stoull(digits)), m, u).dump();
}

struct MqarArrays {
  std::string inputs, labels;  // int64 little-endian, row-major
  std::size_t rows = 0, cols = 0;
};

MqarArrays mqar_data(const std::string& vocab, const std::string& seq_len, const std::string& kv, const std::string& examples,
                     const std::string& seed, const std::string& power_a) {
  using cz::cli::ArgNames;
  cz::zoology::MqarConfig cfg;
  cfg.vocab_size = cz::cli::parse_uint_arg(vocab, cz::cli::kVocabArg, ArgNames::Python);
  cfg.input_seq_len = cz::cli::parse_uint_arg(seq_len, cz::cli::kSeqLenArg, ArgNames::Python);
  cfg.num_kv_pairs = cz::cli::parse_uint_arg(kv, cz::cli::kKvArg, ArgNames::Python);
  cfg.num_examples = cz::cli::parse_uint_arg(examples, cz::cli::kExamplesArg, ArgNames::Python);
  cfg.seed = static_cast<std::uint32_t>(cz::cli::parse_uint_arg(seed, cz::cli::kDataSeedArg, ArgNames::Python));
  cfg.power_a = cz::cli::parse_power_a(power_a, ArgNames::Python);
  cz::zoology::Batch b = cz::cli::mqar_batch(cfg, power_a, ArgNames::Python);
  MqarArrays out{std::string(reinterpret_cast<const char*>(b.inputs.data()), b.inputs.size() * 8),
                 std::string(reinterpret_cast<const char*>(b.labels.data()), b.labels.size() * 8), b.rows, b.cols};
  return out;
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "circuitzoo C++ core (use the circuitzoo package, not this module)";
  m.attr("version") = cz::kVersion;
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
  using release = py::call_guard<py::gil_scoped_release>;
  m.def("list_json", &list_json);
  m.def("verify_json", &verify_json, py::arg("name"), py::arg("params"), py::arg("samples"), py::arg("seed"),
        py::arg("exhaustive"), py::arg("threads"), py::arg("device") = "cpu", release());
  m.def("verify_sat_json", &verify_sat_json, py::arg("name"), py::arg("params"), py::arg("threads"), release());
  m.def("build_json", &build_json, py::arg("name"), py::arg("params"), py::arg("with_model"), release());
  m.def("sweep_json", &sweep_json, py::arg("name"), py::arg("key"), py::arg("values"), py::arg("params"), release());
  m.def("eval_json", &eval_json, py::arg("model"), py::arg("u"), release());
  m.def(
      "mqar_data",
      [](const std::string& vocab, const std::string& seq_len, const std::string& kv, const std::string& examples,
         const std::string& seed, const std::string& power_a) {
        MqarArrays a;
        {
          py::gil_scoped_release nogil;
          a = mqar_data(vocab, seq_len, kv, examples, seed, power_a);
        }
        return py::make_tuple(py::bytes(a.inputs), py::bytes(a.labels), a.rows, a.cols);
      },
      py::arg("vocab"), py::arg("seq_len"), py::arg("kv"), py::arg("examples"), py::arg("seed"), py::arg("power_a"));
}
