#include <algorithm>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "app/cli/arg_checks.h"
#include "app/cli/commands.h"
#include "app/report/human_format.h"
#include "app/report/report_json.h"
#include "util/error.h"
#include "app/engine/run/checkpoint.h"
#include "app/engine/run/read_back.h"
#include "app/engine/sat/sat_stages.h"
#include "util/atomic_file.h"
#include "app/engine/run/cluster.h"
#include "app/engine/byo/verify_npy.h"
#include "app/engine/run/device_path.h"
#include "app/engine/sat/sat_certificates.h"
#include "app/engine/sat/sat_path.h"
#include "app/engine/sat/sat_parts.h"
#include "app/engine/sat/sat_schedule.h"
#include "app/engine/run/shard.h"
#include "app/report/sat_report.h"

namespace cz::cli {

DomainOptions domain_options(const VerifyOptions& o) {
  DomainOptions dom;
  dom.force_exhaustive = o.exhaustive;
  if (o.samples > 0) dom.samples = static_cast<std::uint64_t>(o.samples);
  dom.seed = o.seed;
  dom.threads = o.threads;
  dom.block = o.block_size;
  dom.scalar = o.scalar;
  dom.device = o.device;
  return dom;
}

int cmd_verify(const VerifyOptions& o) {
  // Flags that only mean something with --checkpoint are refused without it, never ignored
  // (issue 25), whatever is verified: --model/--circuit/--program take no checkpoint either.
  if (o.resume && o.checkpoint.empty()) throw InputError("--resume needs --checkpoint FILE", "--resume");
  if (o.checkpoint_seconds && o.checkpoint.empty()) throw InputError("--checkpoint-every needs --checkpoint FILE", "--checkpoint-every");
  if (!o.port_names.empty() && o.circuit_file.empty()) throw InputError("--port-names needs --circuit FILE", "--port-names");
  if (!o.operator_file.empty() && (o.task.empty() || o.model_file.empty()))  // issue 47 item 3: verify_byo.cpp, cmd_verify_algebra.cpp
    throw InputError("--operator needs --model FILE and --task, the operator's kind (see `circuitzoo tasks`)", "--operator");
  if (o.method != "sat" && !o.sat_flags_given.empty())  // issue 36 item 15: they used to be ignored
    throw InputError(o.sat_flags_given.front() + " needs --method sat", o.sat_flags_given.front());
  if (!o.equiv_model_file.empty() && o.method != "algebra")  // issue 47 item 2: model against model (cmd_verify_algebra.cpp)
    throw InputError("--equiv-model proves two models' maps equal on every input: it needs --model FILE and --method algebra", "--equiv-model");
  if (o.method != "algebra" && !o.algebra_flags_given.empty())  // issue 46 item 15: they used to be ignored
    throw InputError(o.algebra_flags_given.front() + " needs --method algebra", o.algebra_flags_given.front());
  if (o.method == "algebra") return cmd_verify_algebra(o);  // --method algebra (issue 37): cmd_verify_algebra.cpp
  if (o.method == "sat" && o.model_file.empty() && o.circuit_file.empty() && o.program_file.empty() && o.task.empty())
    return cmd_verify_sat(o);  // below
  if (!o.model_file.empty() || !o.circuit_file.empty() || !o.program_file.empty() || !o.task.empty()) {
    // A shard or checkpoint names its run by construction, parameters and build, not by a user's
    // file: refused rather than resumed or merged into another file's run.
    if (!o.shard.empty() || !o.checkpoint.empty())
      throw InputError("shards and checkpoints are for built-in constructions (not --model/--circuit/--program)",
                       o.shard.empty() ? "--checkpoint" : "--shard");
    return cmd_verify_byo(o);  // verify_byo.cpp
  }
  // --device is decided per check (app/engine/run/device_path.h); the flag's value is checked here,
  // before anything is built.
  check_device_flag(o.device);
  if (o.device != "cpu" && o.device != "auto" && !o.from_npy.empty())
    throw InputError("--from-npy batches are checked on the CPU (use --device cpu or auto)", "--device");
  if (o.all && !o.name.empty()) throw InputError("give one construction NAME or --all", "verify");
  if (!o.all && o.name.empty()) throw_missing_name("give one construction NAME or --all", "verify", o.json_path);
  if (o.all && !o.params.empty()) throw InputError("-p cannot be combined with --all", "-p");
  check_verify_domain(o.exhaustive, o.samples >= 0, o.device, ArgNames::Cli);  // as the Python module does (arg_checks.h)
  if (!o.from_npy.empty())
    check_outputs({{"--json", o.json_path}}, {{"--from-npy", o.from_npy[0]}, {"--from-npy", o.from_npy[1]}});
  else
    check_outputs({{"--json", o.json_path}});
  const DomainOptions dom = domain_options(o);

  RunControl ctl;
  if (!o.shard.empty()) ctl.shard = parse_shard(o.shard);
  ctl.checkpoint = o.checkpoint;
  ctl.resume = o.resume;
  ctl.checkpoint_seconds = static_cast<double>(o.checkpoint_seconds ? o.checkpoint_seconds : kCheckpointSecondsDefault);
  if ((ctl.shard || !ctl.checkpoint.empty()) && (o.all || !o.from_npy.empty()))
    throw InputError("shards and checkpoints are for one construction's domain (not --all or --from-npy)",
                     ctl.shard ? "--shard" : "--checkpoint");
  if (!ctl.checkpoint.empty()) {
    check_checkpoint_path(ctl.checkpoint);  // a FIFO or a device: refused first (issue 25)
    check_outputs({{"--checkpoint", ctl.checkpoint}, {"--json", o.json_path}});
  }

  std::vector<Report> reports;
  if (!o.from_npy.empty()) {  // contract.md: verify NAME --from-npy INPUTS.npy LABELS.npy [-p ...]
    if (o.all) throw InputError("--from-npy needs one construction NAME", "--from-npy");
    if (o.exhaustive || o.samples >= 0) throw InputError("--from-npy checks the batch; drop --exhaustive/--samples", "--from-npy");
    reports.push_back(run_verify_npy(find_construction(o.name), parse_params(o.params), dom, o.from_npy[0], o.from_npy[1]));
  } else if (o.all) {
    for (const auto& c : registry()) reports.push_back(run_verify(c, {}, dom));
  } else {
    reports.push_back(run_verify(find_construction(o.name), parse_params(o.params), dom, ctl));
  }
  if (Cluster::rank() != 0) {  // under mpirun rank 0 prints and writes; every rank exits alike
    int rc = 0;
    for (const auto& r : reports) rc = std::max(rc, r.exit_code());
    return rc;
  }
  std::ostream& human = human_stream(o.json_path, o.capture);
  print_table(human, reports, o.wide);
  int rc = 0;
  for (const auto& r : reports) {
    print_notes(human, r, o.wide, true);
    if (r.exit_code()) {
      print_counterexample(error_stream(o.capture), r);
      for (const auto& c : r.claims)
        if (c.binding && c.holds && !*c.holds)
          error_stream(o.capture) << "claim FAILED for " << r.construction << ": " << c.quantity << " claimed " << c.claimed
                    << ", achieved " << c.achieved.dump() << " (" << c.source << ")\n";
    }
    rc = std::max(rc, r.exit_code());
  }
  if (json_wanted(o.json_path, o.capture)) {
    nlohmann::json j;
    if (o.all) {
      j = nlohmann::json::array();
      for (const auto& r : reports) j.push_back(to_json(r));
    } else {
      j = to_json(reports[0]);
    }
    deliver_json(j, o.json_path, o.capture);
  }
  // The checkpoint of a finished run is kept on purpose (contract.md "--resume"): the same command
  // with --resume gives this report again at once (a requeued Slurm task, a lost report file).
  if (!ctl.checkpoint.empty())
    print_wrapped(human, "  note: ", "checkpoint " + ctl.checkpoint + " kept, complete: the same command with --resume gives this report "
                  "again without rechecking (a requeued job, a lost report); delete it when the run is done.", 4);
  return rc;
}

namespace {
// --proof FILE (issue 36 items 6, 9): proofs are written to a temporary file beside FILE and
// renamed into place when the run proves (app/engine/sat/sat_solve.cpp), so FILE must be a regular
// file or a new one. Refused before any work: "-" (stdout cannot be renamed into), and an existing
// FIFO or device (a FIFO blocked the run until its time limit; /dev/full gave "proved" with no proof).
// --proof DIR (issue 38, the default form since 2026-12-03): certificates, app/engine/sat/sat_certificates.h;
// a name ending in .drat keeps the old single-file form (unambiguous: no directory is asked for).
bool old_proof_form(const std::string& path) { return path.size() > 5 && path.compare(path.size() - 5, 5, ".drat") == 0; }
void check_proof_path(const std::string& path) {
  if (path == "-") throw InputError("a proof is written to a file and renamed into place when the run proves, not to standard output", "--proof -");
  if (!old_proof_form(path)) {
    std::error_code ec;
    if (!std::filesystem::is_directory(path, ec)) refuse_non_regular(path, "--proof DIR: a new directory, written whole and renamed into place");
    check_certificate_dir(path);  // refuses any existing path, a directory too
    return;
  }
  refuse_non_regular(path, "--proof: it is written whole and renamed into place");
  if (!is_replaced_output(path))
    throw InputError("not a regular file or a new one (--proof: it is written whole and renamed into place)", "--proof " + path);
}
}  // namespace

SatOptions sat_options(const VerifyOptions& o) {
  const bool enumerating = o.exhaustive || o.samples >= 0 || !o.checkpoint.empty() || !o.from_npy.empty() ||
                           o.device != "cpu" || o.scalar;
  if (enumerating)
    throw InputError("--method sat proves the whole domain; drop --exhaustive/--samples/--checkpoint/--from-npy/--device/--scalar",
                     "--method sat");
  // `--proof ''` was taken as no --proof: exit 0 and nothing written, silently (issue 46 row 12).
  if (o.sat_proof.empty() && std::find(o.sat_flags_given.begin(), o.sat_flags_given.end(), "--proof") != o.sat_flags_given.end())
    throw InputError("an empty name: --proof wants a new directory (or FILE.drat)", "--proof ''");
  if (!o.sat_proof.empty()) check_proof_path(o.sat_proof);
  SatOptions s;
  s.timeout_s = o.sat_timeout;
  s.confirm = o.sat_confirm;
  if (old_proof_form(o.sat_proof)) s.proof = o.sat_proof;
  else s.proof_dir = o.sat_proof;
  s.certify = o.sat_certify;
  s.split = o.sat_split;
  s.lemmas = o.sat_lemmas;
  s.cubes = o.sat_cubes;
  s.threads = o.threads;
  s.cnf_dir = o.sat_cnf;
  s.order = o.sat_order;
  s.strategy = o.sat_strategy;
  s.zero_one = o.sat_zero_one;
  s.blocks = o.sat_blocks;
  s.progress = !o.capture.on();  // drawn only when stderr is a terminal (app/engine/sat/sat_progress.h); Python has progress=
  // Issue 38 (app/engine/sat/sat_schedule.h): ranks, cubes, shards.
  s.cube_after = o.sat_cube_after;
  s.cube_bits = o.sat_cube_bits;
  s.log = std::make_shared<SatScheduleLog>();
  if (!o.shard.empty()) {
    if (Cluster::active() && Cluster::size() > 1)
      throw InputError("a shard runs in one process (give mpirun one shard's command per job, or no --shard)", "--shard");
    s.parts = std::make_shared<SatParts>();
    s.parts->shard = parse_shard(o.shard);
    if (s.parts->shard->count > 4096) throw InputError("--method sat takes at most 4096 shards", "--shard");
  }
  // Issue 38: --certify and --proof DIR go through the scheduler (each answer checked where it was
  // solved; cubes and shards recorded in the index; under mpirun the other ranks send their proofs
  // to rank 0, which writes DIR); what stays refused says why.
  if (sat_scheduled(s)) {
    if (o.sat_lemmas)
      throw InputError("--sat-lemmas runs in one process without cubes: each miter assumes the ones proved before it, in order "
                       "(not under mpirun, --shard or --sat-cube-after)", "--sat-lemmas");
    if (!o.sat_cnf.empty())
      throw InputError("--sat-cnf writes the miters of a one-process run (not under mpirun, --shard or --sat-cube-after)", "--sat-cnf");
    if (!o.sat_proof.empty() && old_proof_form(o.sat_proof))
      throw InputError("--proof FILE.drat (the old form) runs in one process without cubes; use --proof DIR", "--proof");
  }
  return s;
}

SatOutcome with_schedule(SatOutcome r, const SatOptions& s) {
  if (sat_scheduled(s)) r.schedule = sat_schedule_json(s);
  return r;
}

int finish_sat(const VerifyOptions& o, const SatOutcome& r) {
  if (Cluster::rank() != 0) return r.exit_code;  // under mpirun rank 0 prints and writes
  std::ostream& human = human_stream(o.json_path, o.capture);
  nlohmann::json j = sat_report_json(r);
  if (r.schedule.is_object()) j["sat"]["schedule"] = r.schedule;
  const auto& st = j["sat"];
  // Human lines (issue 39): the parameters the construction uses, the count as 6.4e85 (exact in the JSON).
  const std::string name = j["construction"].get<std::string>();
  std::ostringstream head;
  head << name << "  " << params_text(name, j["params"], false) << "  " << r.verdict << "  on " << short_count_json(j["instances"])
       << " instances  (" << st["miters_run"] << "/" << st["miters"] << " miters, " << st["cnf"]["vars"] << " vars, "
       << st["cnf"]["clauses"] << " clauses, cadical"
       << (st["confirm_solver"].is_null() ? "" : " + " + st["confirm_solver"].get<std::string>()) << ")";
  print_wrapped(human, "", head.str(), 4);
  print_wrapped(human, "  domain: ", shorten_numbers(j["domain_description"].get<std::string>()), 4);
  if (st.contains("method") && st["method"] == "dyadic stages") {  // app/engine/sat/sat_dyadic_stages.cpp
    const auto& sg = st["stages"];
    human << "  by stages: " << sg["mergers"] << " merges (" << sg["route_steps"] << " comparators), " << sg["blocks"] << " blocks";
    if (sg.value("pbs_blocks", 0) > 0) human << " (" << sg["pbs_blocks"] << " call by call: " << sg["pbs_miters"] << " miters)";
    human << ", " << sg["unroute_steps"] << " routing-back steps, " << sg["or_words"] << " OR words\n";
  } else if (st.contains("method") && st.contains("stages")) {  // --sat-strategy stages (app/engine/sat/sat_stages.h)
    const auto& sg = st["stages"];
    human << "  by the 0-1 principle: " << sg["comparators"] << " comparators (" << sg["local_distinct"] << " distinct local miters solved, "
          << sg["local_folded"] << " folded)";
    if (sg.contains("zero_one"))
      human << ", 0-1 check " << sg["zero_one"]["method"].get<std::string>() << " on " << sg["zero_one"]["vectors"].get<std::string>() << " vectors";
    human << "\n";
  }
  if (st.contains("reference")) {  // a user's file proved as a construction's circuit (app/engine/sat/sat_stages.h)
    const auto& rf = st["reference"];
    std::ostringstream t;
    t << rf["construction"].get<std::string>() << "'s circuit: " << rf["same"] << " of " << rf["outputs"] << " outputs its very AIG nodes";
    if (rf.contains("sweep")) {
      const auto& sw = rf["sweep"];
      t << ", the rest proved equal by SAT sweeping (" << sweep_words(sw) << ")";
    }
    t << "; its stages prove the file";
    print_wrapped(human, "  the file is ", t.str(), 4);
  }
  if (st.contains("certified"))
    human << "  certified: " << st["certified"] << " UNSAT answers, each DRAT proof checked by circuitzoo's checker (--certify)\n";
  if (st.contains("not_certified")) human << "  not certified: " << st["not_certified"].get<std::string>() << "\n";
  if (st.contains("certificates") && !st["certificates"]["dir"].is_null())
    human << "  certificates: " << st["certificates"]["dir"].get<std::string>() << "/index.json (" << st["certificates"]["entries"]
          << " solver answers; check with `circuitzoo check-proof`)\n";
  if (st.contains("schedule")) {  // issue 38: ranks, shards, cubes
    const auto& sc = st["schedule"];
    human << "  schedule: " << sc["ranks"] << " rank(s)" << (sc.contains("shards") ? ", " + sc["shards"].dump() + " shards merged" : "")
          << ", " << sc["tasks"] << " solver runs";
    if (!sc["split"].empty()) {
      human << ", split into cubes:";
      for (const auto& x : sc["split"]) human << " " << x["miter"].get<std::string>() << " (" << x["cubes"] << ")";
    }
    human << "\n";
  }
  if (st.contains("undecided")) human << "  undecided: " << st["undecided"].get<std::string>() << "\n";
  if (r.counterexample) error_stream(o.capture) << "counterexample (confirmed by the enumerating engine): " << r.counterexample->message << "\n  instance: "
                                  << r.counterexample->instance.dump() << "\n";
  if (json_wanted(o.json_path, o.capture)) deliver_json(j, o.json_path, o.capture);
  return r.exit_code;
}

int cmd_verify_sat(const VerifyOptions& o) {
  if (o.all) throw InputError("--method sat proves one construction NAME", "--method sat");
  if (o.name.empty()) throw_missing_name("--method sat proves one construction NAME", "--method sat", o.json_path);
  const SatOptions s = sat_options(o);
  check_outputs({{"--json", o.json_path}});
  if (!s.proof.empty()) check_outputs({{"--proof", o.sat_proof}, {"--json", o.json_path}});
  // --proof DIR and --json naming one path (issue 46 row 7): the report would meet the directory.
  if (!s.proof_dir.empty() && !o.json_path.empty() && !to_stdout(o.json_path) && file_identity(o.json_path) == file_identity(s.proof_dir))
    throw InputError("two outputs name the same file (--proof " + s.proof_dir + ")", "--json " + o.json_path);
  const auto given = parse_params(o.params);
  const Construction& c = find_construction(o.name);
  // What check-proof needs to do this run again (sat_certificates.h): the construction, its
  // parameters as given, and the options that shape the miters (the same for every shard).
  const nlohmann::json identity = {{"construction", c.name},
                                   {"params", given},
                                   {"options",
                                    {{"split", s.split},
                                     {"lemmas", s.lemmas},
                                     {"cubes", s.cubes},
                                     {"strategy", s.strategy},
                                     {"zero_one", s.zero_one},
                                     {"blocks", s.blocks},
                                     {"pbs_facts", s.pbs_facts},
                                     {"order", s.order}}}};
  auto run = [&] {
    if (s.proof_dir.empty() && !s.certify) return run_verify_sat(c, given, s);
    return run_sat_with_certificates(s, identity, [&] { return run_verify_sat(c, given, s); });
  };
  if (s.parts) {  // --shard I/K (issue 38): this shard's miters, a part file for merge (sat_parts.h)
    if (o.json_path.empty()) throw InputError("a shard writes its part with --json FILE (join the parts with merge)", "--shard");
    const SatOutcome r = run();
    std::ostream& human = to_stdout(o.json_path) ? std::cerr : std::cout;
    human << o.name << "  shard " << o.shard << ": its miters " << (r.verdict == "proved" ? "all UNSAT" : r.verdict == "refuted" ? "include a SAT one" : "not all decided")
          << " (" << s.log->tasks << " solver runs); the verdict is merge's\n";
    if (r.report.contains("sat") && r.report["sat"].contains("certified"))
      human << "  certified: " << r.report["sat"]["certified"] << " UNSAT answers of this shard, each DRAT proof checked (--certify)\n";
    if (!s.proof_dir.empty() && r.verdict == "proved")
      human << "  certificates: " << s.proof_dir << "/index.json (shard " << o.shard << "; check every shard's together with `circuitzoo check-proof`)\n";
    emit_json(sat_part_json(o.name, given, s, r, kVersion), o.json_path);
    return r.verdict == "proved" ? 0 : r.exit_code;
  }
  return finish_sat(o, with_schedule(run(), s));
}

}  // namespace cz::cli
