// `circuitzoo circuit FILE [--from F] [--to F -o PATH] [--equiv FILE2] [--json PATH|-]`: the
// circuit half of the CLI for files (exports of ours, or AIGER/BLIF written by ABC or Yosys).
#include <iostream>

#include <nlohmann/json.hpp>

#include "app/engine/sat/sat_certificates.h"
#include "app/engine/sat/sat_equiv.h"
#include "app/engine/sat/sat_stages.h"
#include "circuits/equiv.h"
#include "circuits/io.h"
#include "circuits/port_match.h"
#include "circuits/stats.h"
#include "app/cli/cmd_circuit_eval.h"
#include "app/cli/commands.h"
#include "app/report/human_format.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/text.h"

namespace cz::cli {

std::string circuit_format_of(const std::string& path, const std::string& given, const std::string& flag) {
  if (!given.empty()) {
    const auto& f = circuits::circuit_formats();
    if (std::find(f.begin(), f.end(), given) == f.end())
      throw InputError("unknown circuit format '" + quoted_value(given) + "' (want circuit-json, dot, aiger, aiger-binary, blif or bristol)", flag);
    return given;
  }
  auto ends = [&](const char* e) {
    const std::string s(e);
    return path.size() >= s.size() && path.compare(path.size() - s.size(), s.size(), s) == 0;
  };
  if (ends(".json")) return "circuit-json";
  if (ends(".dot") || ends(".gv")) return "dot";
  if (ends(".aag")) return "aiger";
  if (ends(".aig")) return "aiger-binary";
  if (ends(".blif")) return "blif";
  if (ends(".bristol") || ends(".txt")) return "bristol";
  throw InputError("cannot tell the circuit format from the file name (use " + flag + ")", path);
}

namespace {
// --method auto enumerates up to this many inputs (equivalent_on_01's cap), and proves by SAT beyond.
constexpr std::size_t kEnumerateInputs = 32;

std::string format_of(const std::string& path, const std::string& given, const std::string& flag) {
  return circuit_format_of(path, given, flag);
}

// id: --proof DIR records the file (path, format, size and SHA-256 of the bytes read) for check-proof.
circuits::Circuit load(const std::string& path, const std::string& fmt, EquivFile* id = nullptr) {
  if (!id) return circuits::read_circuit(read_file(path), fmt, path);
  auto [f, text] = read_equiv_file(path, fmt);
  *id = std::move(f);
  return circuits::read_circuit(text, fmt, path);
}

}  // namespace

int cmd_circuit(const CircuitOptions& o) {
  const std::string fmt = format_of(o.file, o.from, "--from");
  if (!o.to.empty() && o.out.empty()) throw InputError("--to needs an output path", "-o");
  if (o.to.empty() && !o.out.empty()) throw InputError("-o needs --to FORMAT", "--to");
  check_outputs({{"-o", o.out}, {"--json", o.json_path}},
                {{"file", o.file}, {"--equiv", o.equiv}, {"--eval", o.eval_input}, {"--equiv-model", o.equiv_model}});
  if (!o.proof.empty()) {  // --proof DIR (issue 47): certificates of an equivalence proved by SAT
    if (o.equiv.empty() || o.samples || o.method == "enumerate")
      throw InputError("--proof DIR keeps the certificates of --equiv FILE by SAT (--method sat, or auto)", "--proof");
    if (o.proof == "-") throw InputError("a certificate directory is written whole and renamed into place, not to standard output", "--proof -");
    check_certificate_dir(o.proof);  // refuses any existing path
    for (const std::string& out : {o.out, o.json_path})
      if (!out.empty() && !to_stdout(out) && file_identity(out) == file_identity(o.proof))
        throw InputError("two outputs name the same file (--proof " + o.proof + ")", out == o.out ? "-o " + out : "--json " + out);
  }
  if (o.samples && o.equiv.empty()) throw InputError("--samples needs --equiv FILE", "--samples");
  if (o.method != "auto" && o.equiv.empty()) throw InputError("--method needs --equiv FILE", "--method");
  if (o.samples && o.method == "sat") throw InputError("--samples is random simulation; --method sat proves (give one)", "--samples");
  if ((o.certify || o.timeout_s != 300) && (o.equiv.empty() || o.samples || o.method == "enumerate"))
    throw InputError("--certify and --timeout are for --equiv FILE by SAT (--method sat, or auto)", o.certify ? "--certify" : "--timeout");
  EquivFile first_id, second_id;  // --proof DIR: the files as read
  const auto cptr = std::make_shared<const circuits::Circuit>(load(o.file, fmt, o.proof.empty() ? nullptr : &first_id));  // shared: the SAT route keeps it
  const circuits::Circuit& c = *cptr;
  nlohmann::json j = {{"file", o.file}, {"format", fmt}, {"circuit", circuits::to_json(circuits::compute_stats(c))}};
  int rc = 0;
  if (!o.eval_input.empty() || o.eval_value) j["eval"] = circuit_eval_json(c, o.eval_input, o.eval_value);
  if (!o.equiv_model.empty()) {
    j["equiv_model"] = circuit_equiv_model_json(c, o.equiv_model, o.threads);
    if (!j["equiv_model"]["equivalent"].get<bool>()) rc = 1;
  }
  if (!o.equiv.empty()) {
    circuits::Circuit other = load(o.equiv, format_of(o.equiv, o.equiv_from, "--equiv-from"), o.proof.empty() ? nullptr : &second_id);
    // Ports by name where both sides name them (a round trip through Yosys may reorder them),
    // else by position; the report says which (circuits/port_match.h).
    circuits::PortMatch how;
    other = circuits::match_ports(c, std::move(other), how);
    // Beyond enumeration (issue 47 item 4): SAT sweeping over one strashed AIG of both files.
    if (!o.samples && (o.method == "sat" || (o.method == "auto" && (o.certify || !o.proof.empty() || c.num_inputs() > kEnumerateInputs)))) {
      if (how.inputs == "by position" || how.outputs == "by position")
        other = circuits::rename_ports(c, other, "--equiv " + o.equiv);  // the SAT route matches names
      SatOptions so;
      so.certify = o.certify;
      so.timeout_s = o.timeout_s;
      so.threads = o.threads;
      so.proof_dir = o.proof;
      const SatEquiv r = sat_equivalent(cptr, std::make_shared<const circuits::Circuit>(std::move(other)), so, "--equiv " + o.equiv,
                                        o.proof.empty() ? nlohmann::json() : sat_equiv_identity(first_id, second_id));
      nlohmann::json ej = r.report;
      ej["file"] = o.equiv;
      ej["verdict"] = r.verdict;
      ej["equivalent"] = r.verdict == "proved" ? nlohmann::json(true) : r.verdict == "refuted" ? nlohmann::json(false) : nlohmann::json();
      ej["ports"] = {{"inputs", how.inputs}, {"outputs", how.outputs}};
      if (r.counterexample)
        ej["counterexample"] = {{"inputs", r.counterexample->inputs}, {"output", r.counterexample->output},
                                {"first", r.counterexample->want}, {"second", r.counterexample->got}};
      rc = r.verdict == "proved" ? rc : r.verdict == "refuted" ? 1 : 4;
      j["equiv"] = ej;
    } else {
    circuits::EquivResult r;
    try {
      r = o.samples ? circuits::sample_equivalent(c, other, o.samples, o.seed, o.threads)
                    : circuits::equivalent_on_01(c, other, o.threads);
    } catch (const std::invalid_argument& e) {
      throw InputError(e.what(), "--equiv " + o.equiv);
    }
    nlohmann::json ej = {{"file", o.equiv}, {"equivalent", r.equivalent}, {"instances", r.instances}, {"method", r.method},
                         {"ports", {{"inputs", how.inputs}, {"outputs", how.outputs}}}};
    auto cx_json = [](const circuits::Counterexample& cx) {
      nlohmann::json j = {{"instance", cx.instance}, {"output", cx.output}, {"first", cx.want}, {"second", cx.got}};
      if (cx.field_inputs.empty()) j["inputs"] = cx.inputs;
      else j["field_inputs"] = cx.field_inputs;
      return j;
    };
    if (o.samples) {
      ej["samples"] = r.samples;
      ej["seed"] = r.seed;
      if (r.prime) {
        ej["prime"] = r.prime;
        ej["formal_degree"] = r.degree;
        ej["error_per_sample"] = r.error_per_sample;
        ej["log10_error_bound"] = r.log10_error_bound;
      }
      if (r.agree_on_01) ej["agree_on_01"] = *r.agree_on_01;
      if (r.counterexample_01) ej["counterexample_01"] = cx_json(*r.counterexample_01);
      ej["note"] = r.note;
    }
    if (r.counterexample) {
      ej["counterexample"] = cx_json(*r.counterexample);
      rc = 1;
    }
    ej["verdict"] = r.equivalent ? "proved" : "refuted";
    if (o.samples) ej["verdict"] = r.equivalent ? "passed" : "refuted";
    j["equiv"] = ej;
    }
  }
  if (!o.to.empty()) {
    write_file_atomic(o.out, circuits::write_circuit(c, format_of(o.out, o.to, "--to")));
    if (!to_stdout(o.out)) error_stream(o.capture) << "wrote " << o.out << "\n";
  }
  // `--eval` without --json prints the outputs (JSON) on stdout, like `eval`: human text goes to stderr then.
  std::ostream& human = o.capture.on() ? error_stream(o.capture)
                       : to_stdout(o.json_path) || to_stdout(o.out) || (!o.eval_input.empty() && o.json_path.empty()) ? std::cerr
                                                                                                                     : std::cout;
  human << o.file << " (" << fmt << ")\n";
  print_wrapped(human, "  circuit: ", fields_text(j["circuit"], {"size", "depth", "width", "inputs", "outputs"}), 11);
  if (j.contains("equiv")) {
    const auto& e = j["equiv"];
    human << "  ports matched: inputs " << e["ports"]["inputs"].get<std::string>() << ", outputs "
          << e["ports"]["outputs"].get<std::string>() << "\n";
    if (e.contains("samples"))
      human << "  equivalent to " << o.equiv << " on " << e["samples"] << " random samples, seed " << e["seed"] << " ("
            << e["method"].get<std::string>() << "): " << (e["equivalent"].get<bool>() ? "yes" : "NO") << "\n  "
            << e["note"].get<std::string>() << "\n";
    else if (e.contains("sat")) {
      const std::string v = e["verdict"].get<std::string>();
      human << "  equivalent to " << o.equiv << " on all 2^" << c.num_inputs() << " 0/1 inputs (" << e["method"].get<std::string>()
            << "): " << (v == "proved" ? "yes (proved)" : v == "refuted" ? "NO" : "undecided: " + e.value("why", std::string())) << "\n";
      if (e["sat"].contains("sweep"))
        human << "    SAT sweep: " << sweep_words(e["sat"]["sweep"]) << "; " << e["sat"]["same_node"] << " of " << e["sat"]["outputs"]
              << " outputs the same AIG node\n";
      if (e["sat"].contains("certified")) human << "    certified: " << e["sat"]["certified"] << " UNSAT answers, each DRAT proof checked (--certify)\n";
      if (e["sat"].contains("certificates") && e["sat"]["certificates"]["dir"].is_string())
        human << "    certificates: " << o.proof << "/index.json (" << e["sat"]["certificates"]["entries"]
              << " solver answers; check with `circuitzoo check-proof " << o.proof << "`)\n";
    } else
      human << "  equivalent to " << o.equiv << " on all " << e["instances"] << " 0/1 inputs (" << e["method"].get<std::string>()
            << "): " << (e["equivalent"].get<bool>() ? "yes" : "NO") << "\n";
    if (e.contains("counterexample"))
      error_stream(o.capture) << "counterexample: " << e["counterexample"].dump() << "\n";
  }
  if (j.contains("eval")) {  // (captured: nothing printed)
    if (o.json_path.empty() && !o.capture.on()) std::cout << json_text(j["eval"].contains("output") ? nlohmann::json{{"output", j["eval"]["output"]}}
                                                                                    : nlohmann::json{{"outputs", j["eval"]["outputs"]}});
    else human << "  evaluated on " << o.eval_input << "\n";
  }
  if (j.contains("equiv_model")) {
    const auto& e = j["equiv_model"];
    human << "  equivalent to the model " << o.equiv_model << " on all " << e["instances"] << " 0/1 inputs ("
          << e["method"].get<std::string>() << "): " << (e["equivalent"].get<bool>() ? "yes" : "NO") << "\n";
    if (e.contains("counterexample")) error_stream(o.capture) << "counterexample: " << e["counterexample"].dump() << "\n";
  }
  if (json_wanted(o.json_path, o.capture)) deliver_json(j, o.json_path, o.capture);
  return rc;
}

}  // namespace cz::cli
