#include "app/engine/sat/sat_equiv.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "app/engine/sat/sat_certificates.h"
#include "app/engine/sat/sat_problem.h"
#include "app/engine/sat/sat_stages.h"
#include "circuits/aig_match.h"
#include "circuits/eval.h"
#include "circuits/io.h"
#include "circuits/port_match.h"
#include "app/engine/run/read_back.h"
#include "util/atomic_file.h"
#include "util/sha256.h"
#include "util/error.h"

namespace cz {

namespace {

// The input on which the sweep saw an output differ (one value per input of a: the joint AIG's
// inputs are a's, in order), checked on both files by exact evaluation.
std::optional<circuits::Counterexample> confirmed(const circuits::Circuit& a, const circuits::Circuit& b,
                                                  const std::vector<std::uint32_t>& witness) {
  std::vector<std::int64_t> in(a.num_inputs(), 0);
  for (std::size_t k = 0; k < in.size() && k < witness.size(); ++k) in[k] = witness[k] & 1;
  const std::vector<Int> ya = circuits::eval_integer(a, in), yb = circuits::eval_integer(b, in);
  for (std::size_t k = 0; k < ya.size() && k < yb.size(); ++k)
    if (ya[k] != yb[k]) {
      circuits::Counterexample cx;
      cx.inputs.assign(in.begin(), in.end());
      cx.output = a.outputs()[k].name;
      cx.want = ya[k].str();
      cx.got = yb[k].str();
      return cx;
    }
  return std::nullopt;
}

}  // namespace

namespace {

// The run itself: one strashed AIG, then SAT sweeping; every solve() under whatever hook is in force.
SatOutcome equiv_run(const circuits::Circuit& a, const circuits::JointAig& j, const circuits::AigMatch& m, const SatOptions& o,
                     const std::string& where, std::vector<std::uint32_t>& witness) {
  SatOutcome so;
  so.report = {{"instances", sat_power(Int(2), a.num_inputs()).str()},
               {"instances_log10", static_cast<double>(a.num_inputs()) * 0.30102999566398120}};
  nlohmann::json sat = {{"outputs", m.outputs}, {"same_node", m.same}, {"ands_first", m.ands_a}, {"ands_second", m.ands_b},
                        {"ands_joint", m.ands_joint}};
  if (m.equal()) {  // every output the same node of one strashed AIG: equal by hash-consing alone
    so.verdict = "proved";
    so.report["method"] = "strash";
    so.report["sat"] = sat;
    return so;
  }
  const std::optional<SatSweep> sw = sat_reference_sweep(j, o);
  if (!sw) throw InputError("SAT sweeping needs the cadical solver on PATH (Debian package cadical)", where);
  sat["sweep"] = sw->report;
  so.report["method"] = "sat-sweep";
  so.report["sat"] = sat;
  so.seconds = sw->seconds;
  if (sw->equal) {
    so.verdict = "proved";
  } else if (sw->report.contains("differ")) {
    so.verdict = "refuted";
    so.exit_code = 1;
    witness = sw->witness;
  } else {
    so.verdict = "undecided";
    so.exit_code = 4;
    so.report["why"] = sw->why;
  }
  return so;
}

// hooked: sat_equivalent (the recorder of --proof DIR / --certify around the run); else the
// caller's hook is in force (check-proof's replay).
SatEquiv equivalent(std::shared_ptr<const circuits::Circuit> a, std::shared_ptr<const circuits::Circuit> b, const SatOptions& o,
                    const std::string& where, const nlohmann::json& identity, bool hooked) {
  a = sat_bit_circuit(std::move(a), "the first circuit");
  b = sat_bit_circuit(std::move(b), where);
  const circuits::JointAig j = circuits::joint_aig(*a, *b);
  if (!j.why.empty()) throw InputError("the ports do not correspond: " + j.why, where);
  const circuits::AigMatch m = circuits::aig_match(j);
  std::vector<std::uint32_t> witness;
  const SatOutcome out = hooked ? run_sat_with_certificates(o, identity, [&] { return equiv_run(*a, j, m, o, where, witness); })
                                : equiv_run(*a, j, m, o, where, witness);
  SatEquiv res{out.verdict, out.report, std::nullopt};
  if (res.verdict == "refuted") {
    res.counterexample = confirmed(*a, *b, witness);
    if (!res.counterexample)
      throw std::runtime_error("SAT sweeping reported a differing output on an input where both circuits agree (a bug of the sweep)");
  }
  return res;
}

}  // namespace

SatEquiv sat_equivalent(std::shared_ptr<const circuits::Circuit> a, std::shared_ptr<const circuits::Circuit> b, const SatOptions& o,
                        const std::string& where, const nlohmann::json& identity) {
  if (!o.proof_dir.empty() && identity.is_null())
    throw InputError("--proof DIR needs the two files' paths and hashes in its index (sat_equiv_identity)", "--proof");
  return equivalent(std::move(a), std::move(b), o, where, identity, true);
}

std::pair<EquivFile, std::string> read_equiv_file(const std::string& path, const std::string& format) {
  if (path == "-")
    throw InputError("standard input: a certificate directory names each circuit file by path and SHA-256, for check-proof to read it again",
                     path);
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw InputError(std::string("cannot read a circuit file: ") + std::strerror(errno), path);
  if (!S_ISREG(st.st_mode))
    throw InputError(std::string(file_kind_text(st.st_mode)) +
                         ", not a regular file: a certificate directory names each circuit file by path and SHA-256, for check-proof to "
                         "read it again",
                     path);
  std::string text = read_file(path);
  EquivFile f{path, format, sha256_hex(text), text.size()};
  return {std::move(f), std::move(text)};
}

nlohmann::json sat_equiv_identity(const EquivFile& first, const EquivFile& second) {
  auto one = [](const EquivFile& f) {
    return nlohmann::json{{"path", f.path}, {"format", f.format}, {"bytes", f.bytes}, {"sha256", f.sha256}};
  };
  return {{"what", "circuit equivalence of files " + first.path + " and " + second.path},
          {"equivalence", {{"first", one(first)}, {"second", one(second)}}}};
}

SatEquiv sat_equivalent_again(const EquivFile& first, const std::string& first_at, const EquivFile& second, const std::string& second_at,
                              const SatOptions& o) {
  auto load = [](const EquivFile& want, const std::string& at, const char* which) {
    const std::string moved = at == want.path ? std::string() : " (recorded as " + want.path + ")";
    std::pair<EquivFile, std::string> got;
    try {
      got = read_equiv_file(at, want.format);
    } catch (const InputError& e) {
      throw InputError(std::string(e.what()) + "; it is the " + which + " circuit file of the run" + moved +
                           " (check-proof DIR --circuits FIRST SECOND says where the files are now)",
                       e.where);
    }
    if (got.first.bytes != want.bytes || got.first.sha256 != want.sha256)
      throw InputError(std::string("changed since the run: the ") + which + " circuit file" + moved + " has " +
                           std::to_string(got.first.bytes) + " bytes and SHA-256 " + got.first.sha256 + ", the index records " +
                           std::to_string(want.bytes) + " bytes and " + want.sha256 + ": the certificates are of the file as it was",
                       at);
    return circuits::read_circuit(got.second, want.format, at);
  };
  auto a = std::make_shared<const circuits::Circuit>(load(first, first_at, "first"));
  circuits::Circuit other = load(second, second_at, "second");
  // Ports as `circuit A --equiv B` by SAT matches them (app/cli/cmd_circuit.cpp): by name where
  // both name them, else renamed to a's by position.
  circuits::PortMatch how;
  other = circuits::match_ports(*a, std::move(other), how);
  if (how.inputs == "by position" || how.outputs == "by position") other = circuits::rename_ports(*a, other, second_at);
  return equivalent(std::move(a), std::make_shared<const circuits::Circuit>(std::move(other)), o, second_at, nullptr, false);
}

}  // namespace cz
