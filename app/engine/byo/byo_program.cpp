#include "app/engine/byo/byo_program.h"

#include <algorithm>

#include "constructions/sd/alg3.h"
#include "constructions/sd/domain.h"
#include "constructions/sd/program_device.h"
#include "tasks/sd.h"
#include "util/error.h"
#include "verify/task.h"

namespace cz {

namespace {
struct ProgramRun {
  std::optional<sdc::FlagAnswer> got;  // nullopt: the program failed (message in error)
  std::string error;
  std::size_t state_bits = 0, register_bits = 0, set_bits = 0;
  Matrix<std::int64_t> prompt;
};

ProgramRun run_on(const ProgramFile& pf, const sd::Instance& x) {
  ProgramRun r;
  r.prompt = sd::repeat_prompt(sd::encode(x), pf.prompt == "jrt" ? 2 : 1);
  try {
    RecurrentRun rr = run_recurrent(pf.program, r.prompt);
    if (rr.output.cols() < pf.n + 1) {
      r.error = "output rows have " + std::to_string(rr.output.cols()) + " columns; SD reads the flag at column n = " + std::to_string(pf.n);
      return r;
    }
    r.got = sdc::decode_flags(rr.output, pf.n);
    r.state_bits = rr.max_bits;
    r.register_bits = rr.register_bits;
    for (std::size_t b : rr.bag_bits_max) r.set_bits += b;
  } catch (const std::exception& e) {  // a register too narrow, an overflow, a column beyond the row
    r.error = std::string("the program fails: ") + e.what();
  }
  return r;
}
}  // namespace

std::optional<Failure> program_failure(const ProgramFile& pf, const sd::Instance& x) {
  const ProgramRun r = run_on(pf, x);
  const auto want = sd::intersection(x);
  if (r.got && r.got->common == want && r.got->intersects == !want.empty()) return std::nullopt;
  Failure f;
  f.message = r.got ? (r.got->intersects != !want.empty() ? std::string("answer ") + (r.got->intersects ? "intersect" : "disjoint") +
                                                                ", want " + (want.empty() ? "disjoint" : "intersect")
                                                          : std::string("wrong intersection"))
                    : r.error;
  f.input = nlohmann::json::array();
  for (std::size_t i = 0; i < r.prompt.rows(); ++i)
    f.input.push_back(std::vector<std::int64_t>(r.prompt.row(i), r.prompt.row(i) + r.prompt.cols()));
  f.expected = {{"intersects", !want.empty()}, {"common", want}};
  f.got = r.got ? nlohmann::json{{"intersects", r.got->intersects}, {"common", r.got->common}} : nlohmann::json(r.error);
  return f;
}

Params program_task_params(const ProgramFile& pf, const std::string& file, const std::string& task_name,
                           std::map<std::string, std::string> given) {
  if (task_name != "sd") throw InputError("a program file is checked against task sd (JRT Thm G.15) only", "--task " + task_name);
  if (!pf.task.empty() && pf.task != "sd") throw InputError("the program says it is for task '" + pf.task + "'", file);
  const std::string n_text = std::to_string(pf.n);
  if (given.count("n") && given.at("n") != n_text)
    throw InputError("the program reads elements of n = " + n_text + " bits (its \"n\"); task sd with -p n=" + given.at("n") +
                         " needs a program for that n",
                     file);
  if (given.count("prompt") && given.at("prompt") != pf.prompt)
    throw InputError("the program is for the " + pf.prompt + " prompt (its \"prompt\")", file);
  given["n"] = n_text;
  given["prompt"] = pf.prompt;
  return Params::parse(find_task("sd").params, given);
}

Report run_program_check(const ProgramFile& pf, const std::string& file, const std::string& task_name,
                         std::map<std::string, std::string> given, const DomainOptions& opts, const nlohmann::json* source) {
  const Params p = program_task_params(pf, file, task_name, std::move(given));
  const Task& task = find_task("sd");
  const sdc::SdDomain dom = sdc::make_sd_domain(p, opts);

  Construction pseudo;
  pseudo.name = file;
  pseudo.task = "sd";
  Built built;
  built.notes.push_back("task sd: your program (" + pf.program.name + ") on the " +
                        (pf.prompt == "jrt" ? std::string("JRT prompt [u; u] (Def G.4)") : std::string("plain prompt u")) +
                        " against " + task.reference + "; answer read as in sd/recurrent-jrt (flag column n)");
  // The state, measured on the built-in's metric domain (max over its instances), beside Thm G.15.
  const sdc::SdDomain mdom = sdc::metric_domain(p);
  std::size_t max_state = 0, max_reg = 0, max_nmin = 0;
  long long max_excess = 0;
  for (std::uint64_t k = 0; k < mdom.count; ++k) {
    const sd::Instance x = mdom.instance(k);
    const ProgramRun r = run_on(pf, x);
    const std::size_t nmin = pf.n * std::min(x.A.size(), x.B.size());
    max_state = std::max(max_state, r.state_bits);
    max_reg = std::max(max_reg, r.register_bits);
    max_nmin = std::max(max_nmin, nmin);
    max_excess = std::max(max_excess, static_cast<long long>(r.set_bits) - static_cast<long long>(nmin));
  }
  built.metrics = {{"metric_instances", mdom.count}, {"state_bits", max_state}, {"register_bits", max_reg},
                   {"n_min_AB", max_nmin}, {"set_bits_minus_n_min", max_excess}};
  if (pf.prompt == "jrt") {
    built.claims.push_back(shape_claim("state_bits", "O(n*min(|A|,|B|))", static_cast<double>(std::max<std::size_t>(max_nmin, 1)),
                                       "JRT Thm G.15 / Alg. 3", max_state, "max over the default domain"));
    built.claims.push_back(paper_claim("set_bits_minus_n_min", "0", 0, "exact", "JRT Thm G.15 proof ('|Z_M| = min{|A|,|B|}')",
                                       max_excess));
  }
  auto prog = std::make_shared<const ProgramFile>(pf);
  Check check = sdc::instance_check(dom, [prog](const sd::Instance& x) { return program_failure(*prog, x); });
  // The device runs the same file: errors and answers as above; no state rule (this check has none).
  // Compiled only when a device path is asked for: --device cpu (the default) never needs it.
  if (source && !opts.device.empty() && opts.device != "cpu")
    check.device = sdc::sd_program_device(*source, file, dom, /*exact_min_state=*/false);
  return run_check(pseudo, p, built, check, opts);
}

}  // namespace cz
