#include "app/engine/sat_path.h"

#include "app/engine/sat_model_path.h"
#include "app/engine/sat_problem.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <unordered_map>

#include "app/engine/sat_progress.h"
#include "circuits/eval.h"
#include "circuits/reference/compare_ref.h"
#include "circuits/reference/mqar_ref.h"
#include "circuits/reference/parse_cell.h"
#include "circuits/reference/sort_ref.h"
#include "circuits/io.h"
#include "circuits/sat/miter.h"
#include "circuits/sat/miter_circuit.h"
#include "circuits/sat/solver.h"
#include "circuits/stats.h"
#include "constructions/mqar/dyadic_check.h"
#include "tasks/mqar_domain.h"
#include "util/error.h"
#include "util/threads.h"
#include "verify/mqar_check.h"
#include "verify/mqar_task.h"

namespace cz {

namespace {

namespace sat = circuits::sat;
namespace ref = circuits::reference;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

using Problem = SatProblem;

std::vector<std::string> output_names(const circuits::Circuit& c) {
  std::vector<std::string> v;
  for (const auto& o : c.outputs()) v.push_back(o.name);
  return v;
}

Int power(Int b, std::size_t e) {
  Int r(1);
  for (std::size_t k = 0; k < e; ++k) r *= b;
  return r;
}

nlohmann::json count_json(const Int& x) {
  if (x.fits_int64()) return x.to_int64();
  return x.str();  // beyond 2^63: a decimal string (contract.md)
}

// The input bits in the artifact's input order (the circuit's inputs are matched to the task's by
// name, as the miter matches them).
std::vector<std::string> task_input_names(const ref::Checker& ch) {
  std::vector<std::string> v;
  for (std::size_t k = 0; k < ch.task_inputs; ++k) v.push_back(ch.circuit.input_name(k));
  return v;
}
std::vector<std::int64_t> artifact_inputs(const circuits::Circuit& a, const std::vector<std::string>& names,
                                          const std::vector<int>& bits) {
  std::unordered_map<std::string, std::size_t> at;
  for (std::size_t k = 0; k < names.size(); ++k) at.emplace(names[k], k);
  std::vector<std::int64_t> in(a.num_inputs());
  for (std::size_t k = 0; k < a.num_inputs(); ++k) in[k] = bits[at.at(a.input_name(k))];
  return in;
}

// Runs a one-instance check through the engine (the same run/shrink path `verify` reports).
std::optional<Failure> engine_failure(const Check& check, std::uint64_t k) {
  RunPlan plan;
  plan.begin = k;
  plan.end = k + 1;
  plan.scalar = true;
  BlockResult br = run_range(check, 1, "sat-confirm", plan);
  if (!br.first) return std::nullopt;
  RunResult rr = with_counterexample(check, br);
  Failure f = rr.first->second;
  f.instance["index"] = rr.first->first;
  return check.shrink ? check.shrink(f) : f;
}

// MQAR triples: the SAT bits are the N×d encoded rows; decoded by src/tasks (decode_bits).
mqar::Instance mqar_instance(const mqar::Codec& codec, std::size_t n, const std::vector<int>& bits) {
  std::vector<std::int64_t> k, v, q;
  for (std::size_t r = 0; r < 3 * n; ++r) {
    std::vector<int> row(bits.begin() + static_cast<long>(r * codec.d), bits.begin() + static_cast<long>((r + 1) * codec.d));
    const mqar::Decoded dd = mqar::decode_bits(codec, row);
    // A model outside the checker's domain constraints would be a bug of the checker.
    if (dd.kind != mqar::Decoded::Token || dd.token < 0 || static_cast<std::size_t>(dd.token) >= codec.c)
      throw std::runtime_error("SAT model row " + std::to_string(r) + " is not a token's codeword (checker domain bug)");
    (r % 3 == 0 ? k : r % 3 == 1 ? v : q).push_back(dd.token);
  }
  return mqar::make_triples(codec.c, k, v, q);
}

ref::MqarSpec mqar_spec(const mqar::Codec& codec, std::size_t n) {
  ref::MqarSpec s;
  s.n = n;
  s.c = codec.c;
  s.d = codec.d;
  s.p = codec.p;
  s.base = codec.base;
  s.code = codec.enc == mqar::Encoding::Binary ? ref::TokenCode::Binary
           : codec.enc == mqar::Encoding::OneHot ? ref::TokenCode::OneHot
                                                 : ref::TokenCode::PHot;
  return s;
}

Int triples_instances(std::size_t n, std::size_t c) {
  Int keys(1);
  for (std::size_t j = 0; j < n; ++j) keys *= Int(static_cast<std::int64_t>(c - j));
  return keys * power(Int(static_cast<std::int64_t>(c)), 2 * n);
}

std::string triples_text(std::size_t n, std::size_t c, const mqar::Codec& codec, const Int& count) {
  return "every MQAR triples instance with n = " + std::to_string(n) + " triples over c = " + std::to_string(c) +
         " tokens, keys pairwise distinct, values and queries free: P(c,n)·c^n·c^n = " + count.str() +
         " instances (the domain `verify --exhaustive` enumerates), rows " + mqar::to_string(codec.enc) + "-encoded";
}

Problem dyadic_problem(const Params& p, const Built& bt) {
  if (p.s("artifact") != "circuit")
    throw InputError("artifact=model is the compiled integer model; --method sat proves all-Bit circuits (use artifact=circuit)",
                     "--method sat");
  Problem pr;
  pr.artifact = bt.circuit_ir;
  const mqar::Encoding enc = p.s("encoding") == "binary" ? mqar::Encoding::Binary
                             : p.s("encoding") == "onehot" ? mqar::Encoding::OneHot
                                                           : mqar::Encoding::PHot;
  const mqar::Codec codec = mqar::make_codec(enc, p.u("c"), p.u("p"));
  const std::size_t n = p.u("n");
  pr.checker = ref::mqar_checker(mqar_spec(codec, n), output_names(*pr.artifact), "mqar/dyadic");
  pr.instances = triples_instances(n, codec.c);
  pr.domain_text = triples_text(n, codec.c, codec, pr.instances);
  // The enumerating engine's own check of this circuit (constructions/mqar/dyadic_check.h) on a
  // one-instance list domain.
  auto dc = std::make_shared<mqarc::DyadicCircuit>();
  dc->circuit = bt.circuit_ir;
  dc->n = n;
  dc->N = 3 * n;
  dc->d = codec.d;
  dc->found_output = enc == mqar::Encoding::Binary;
  dc->out_cols = codec.d + (dc->found_output ? 1 : 0);
  pr.confirm = [dc, codec, n](const std::vector<int>& bits) {
    auto xs = std::make_shared<const std::vector<mqar::Instance>>(1, mqar_instance(codec, n, bits));
    const Check check = mqarc::dyadic_check(mqar::from_list(xs, "the SAT model's instance"), dc, codec);
    return engine_failure(check, 0);
  };
  return pr;
}

// The plain meaning of tasks compare and sort (as the constructions' ordinary checks state it),
// on the task input bits in the checker's order (compare: x[0..d), y[0..d); sort: k0[0..d), k1...)
// and the circuit's exact outputs (by name).
bool compare_accept(std::size_t d, const circuits::Circuit& a, const std::vector<int>& bits, const std::vector<Int>& got) {
  int cmp = 0;  // plain comparison, most significant bit first
  for (std::size_t k = d; k-- > 0;)
    if (bits[k] != bits[d + k]) {
      cmp = bits[k] < bits[d + k] ? -1 : 1;
      break;
    }
  for (std::size_t m = 0; m < a.outputs().size(); ++m) {
    const std::string& nm = a.outputs()[m].name;
    long long want = 0;
    if (nm == "lt") want = cmp < 0;
    else if (nm == "eq") want = cmp == 0;
    else {
      const std::size_t k = std::stoul(nm.substr(4));
      const bool mn = nm.rfind("min", 0) == 0;
      want = bits[((cmp <= 0) == mn ? 0 : d) + k];
    }
    if (!(got[m] == Int(want))) return false;
  }
  return true;
}

bool sort_accept(std::size_t n, std::size_t d, const circuits::Circuit& a, const std::vector<int>& bits, const std::vector<Int>& got) {
  std::vector<std::uint64_t> key(n, 0), outk(n, 0), outi(n, 0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t t = 0; t < d; ++t) key[i] |= static_cast<std::uint64_t>(bits[i * d + t]) << t;
  for (std::size_t m = 0; m < a.outputs().size(); ++m) {
    const std::string& nm = a.outputs()[m].name;
    const std::size_t br = nm.find('[');
    const std::size_t i = std::stoul(nm.substr(3, br - 3)), t = std::stoul(nm.substr(br + 1));
    if (!(got[m] == Int(0) || got[m] == Int(1))) return false;
    (nm[0] == 'k' ? outk : outi)[i] |= static_cast<std::uint64_t>(got[m] == Int(1)) << t;
  }
  std::vector<std::uint64_t> sorted = key;
  std::sort(sorted.begin(), sorted.end());
  std::vector<bool> seen(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    if (outk[i] != sorted[i] || outi[i] >= n || seen[outi[i]] || key[outi[i]] != outk[i]) return false;
    seen[outi[i]] = true;
  }
  return true;
}

// The circuit evaluated exactly on one input and judged by `accept`: the failure, or nullopt.
std::optional<Failure> eval_failure(const circuits::Circuit& a, const std::vector<std::int64_t>& in,
                                    const std::function<bool(const std::vector<Int>&)>& accept) {
  const std::vector<Int> got = circuits::eval_integer(a, in);
  if (accept(got)) return std::nullopt;
  Failure f;
  nlohmann::json bits = nlohmann::json::array();
  for (auto b : in) bits.push_back(b);
  f.instance = {{"input_bits", bits}};
  f.input = bits;
  nlohmann::json g = nlohmann::json::array();
  for (const auto& v : got) g.push_back(v.str());
  f.got = g;
  f.message = "the circuit's answer (evaluated exactly) is wrong on this input";
  return f;
}

// circuit/compare and circuit/sort: the ordinary check enumerates "input i = bit i of the instance
// number"; when the inputs fit its exhaustive domain (<= 32 bits), the SAT instance is that index
// of the construction's own check. Beyond, the circuit is evaluated exactly against the plain C++
// semantics above (as the ordinary check's reference states them).
std::optional<Failure> bits_failure(const Construction& c, const Params& p, const Built& bt, const std::vector<std::int64_t>& in,
                                    const std::function<bool(const std::vector<Int>&)>& accept) {
  if (in.size() <= 32) {
    DomainOptions o;
    o.force_exhaustive = true;
    const Check check = c.check(p, bt, o);
    std::uint64_t k = 0;
    for (std::size_t i = 0; i < in.size(); ++i) k |= static_cast<std::uint64_t>(in[i]) << i;
    return engine_failure(check, k);
  }
  return eval_failure(*bt.circuit_ir, in, accept);
}

std::string compare_text(std::size_t d, const Int& count) {
  return "every pair (x, y) of " + std::to_string(d) + "-bit words: 2^" + std::to_string(2 * d) + " = " + count.str() + " inputs";
}
std::string sort_text(std::size_t n, std::size_t d, const Int& count) {
  return "every vector of " + std::to_string(n) + " keys of " + std::to_string(d) + " bits: 2^" + std::to_string(n * d) + " = " +
         count.str() + " inputs (ties in any index order)";
}

Problem compare_problem(const Construction& c, const Params& p, const Built& bt) {
  Problem pr;
  pr.artifact = bt.circuit_ir;
  const std::size_t d = p.u("d");
  pr.checker = ref::compare_checker(d, output_names(*pr.artifact), "circuit/compare");
  pr.instances = power(Int(2), 2 * d);
  pr.domain_text = compare_text(d, pr.instances);
  pr.confirm = [&c, p, bt, d, a = pr.artifact, names = task_input_names(pr.checker)](const std::vector<int>& bits) {
    const auto in = artifact_inputs(*a, names, bits);
    return bits_failure(c, p, bt, in, [&](const std::vector<Int>& got) { return compare_accept(d, *a, bits, got); });
  };
  return pr;
}

Problem sort_problem(const Construction& c, const Params& p, const Built& bt) {
  Problem pr;
  pr.artifact = bt.circuit_ir;
  const std::size_t n = p.u("n"), d = p.u("d");
  pr.checker = ref::sort_checker(n, d, output_names(*pr.artifact), "circuit/sort");
  pr.instances = power(Int(2), n * d);
  pr.domain_text = sort_text(n, d, pr.instances);
  pr.confirm = [&c, p, bt, n, d, a = pr.artifact, names = task_input_names(pr.checker)](const std::vector<int>& bits) {
    const auto in = artifact_inputs(*a, names, bits);
    return bits_failure(c, p, bt, in, [&](const std::vector<Int>& got) { return sort_accept(n, d, *a, bits, got); });
  };
  return pr;
}

std::string not_provable_why(const Construction& c, const Built& bt) {
  if (c.name == "mqar/autocorrelation" || c.name == "sd/based-jrt")
    return "its model depends on the instance (data-dependent kernels): there is no one circuit to prove";
  if (c.name == "sd/recurrent-jrt") return "it is a recurrent program, not a circuit";
  if (bt.model)
    return "its artifact is an integer model of task " + c.task + ", which has no integer reference checker yet (" +
           kSatModelCovers + ")";
  if (!bt.circuit_ir) return "it has no circuit artifact";
  if (!bt.circuit_ir->all_outputs_bit() || !bt.circuit_ir->all_inputs_bit())
    return "its artifact is a circuit with Field wires and no integer model; --method sat bit-blasts integer models (" +
           std::string(kSatModelCovers) + ")";
  return "no reference checker for task " + c.task + " yet (covered: mqar triples, compare, sort)";
}

SatOutcome solve_problem(Problem& pr, const SatOptions& o, nlohmann::json head) {
  const auto t0 = Clock::now();
  const auto cadical = sat::find_solver("cadical");
  if (!cadical) throw InputError("--method sat needs the CaDiCaL solver on PATH (Debian: apt-get install cadical)", "--method sat");
  std::optional<sat::SolverSpec> second;
  if (o.confirm) {
    second = sat::find_solver("picosat");
    if (!second) second = sat::find_solver("minisat");
    if (!second) throw InputError("--confirm needs picosat or minisat on PATH (apt-get install picosat)", "--confirm");
  }
  std::vector<std::vector<std::size_t>> miters;
  std::vector<std::string> miter_names;
  const auto& ch = pr.checker;
  for (std::size_t g = 0; g < ch.groups.size(); ++g) {
    const std::string& name = o.split == "whole" ? std::string("all") : o.split == "family" ? ch.family[g] : ch.groups[g];
    auto it = std::find(miter_names.begin(), miter_names.end(), name);
    if (it == miter_names.end()) {
      miter_names.push_back(name);
      miters.emplace_back();
      it = miter_names.end() - 1;
    }
    miters[static_cast<std::size_t>(it - miter_names.begin())].push_back(g);
  }
  // Miters are built here (cheap: milliseconds) and solved by `workers` solver processes at once.
  // The verdict is that of the lowest miter that is not UNSAT, so it is the same for any number of
  // workers: a SAT or undecided miter cancels only the miters after it.
  struct Slot {
    std::optional<sat::Miter> miter;
    nlohmann::json run;
    sat::SolveResult r, r2;
    bool solved = false;
    std::string proof;
    std::atomic<bool> cancel{false};  // set when a lower miter decided the verdict
  };
  double encode_s = 0;
  // --sat-cubes: a family's miter becomes one miter per case of the checker (case k = 1) and one
  // with no case; together they cover every input, so all UNSAT proves the family.
  std::vector<std::vector<std::pair<std::size_t, bool>>> fixes(miters.size());
  if (o.cubes) {
    std::vector<std::vector<std::size_t>> m2;
    std::vector<std::string> n2;
    std::vector<std::vector<std::pair<std::size_t, bool>>> f2;
    for (std::size_t mi = 0; mi < miters.size(); ++mi) {
      std::vector<std::size_t> cs;
      for (const auto& c : ch.cases)
        if (c.family == miter_names[mi] || miter_names[mi] == "all") cs.push_back(c.output);
      if (cs.empty() || o.split == "cell") {  // cells: cubes of a family would repeat per cell
        m2.push_back(miters[mi]), n2.push_back(miter_names[mi]), f2.emplace_back();
        continue;
      }
      for (std::size_t k = 0; k < cs.size(); ++k) {
        m2.push_back(miters[mi]);
        n2.push_back(miter_names[mi] + " | " + ch.circuit.outputs()[cs[k]].name.substr(5));
        f2.push_back({{cs[k], true}});
      }
      m2.push_back(miters[mi]);
      n2.push_back(miter_names[mi] + " | no case");
      f2.emplace_back();
      for (std::size_t c : cs) f2.back().push_back({c, false});
    }
    miters = std::move(m2), miter_names = std::move(n2), fixes = std::move(f2);
  }
  std::vector<Slot> slots(miters.size());
  SatProgress prog(o.progress, miters.size());  // stderr, on a terminal only (sat_progress.h)
  std::vector<std::size_t> proved;  // --sat-lemmas: groups proved so far (then one worker, in order)
  auto build = [&](std::size_t mi) {
    const auto te = Clock::now();
    Slot& sl = slots[mi];
    sl.miter.emplace(sat::build_miter(*pr.artifact, pr.checker, miters[mi], "--method sat",
                                      o.lemmas ? proved : std::vector<std::size_t>{}, fixes[mi]));
    encode_s += since(te);
    const sat::Miter& m = *sl.miter;
    sl.run = {{"group", miter_names[mi]}, {"vars", m.cnf.num_vars}, {"clauses", m.cnf.num_clauses},
              {"artifact_gates", m.artifact_gates}, {"checker_gates", m.checker_gates}};
    if (!o.proof.empty()) sl.proof = miters.size() == 1 ? o.proof : o.proof + "." + std::to_string(mi);
    if (!o.cnf_dir.empty()) {
      const std::string path = o.cnf_dir + "/miter-" + std::to_string(mi) + ".cnf";
      std::ofstream f(path);
      m.cnf.write_dimacs(f);
      std::ofstream a(o.cnf_dir + "/miter-" + std::to_string(mi) + ".aig", std::ios::binary);
      a << circuits::write_aiger_binary(sat::miter_circuit(*pr.artifact, pr.checker, miters[mi], "--sat-cnf", fixes[mi]));
      if (!f || !a) throw InputError("cannot write " + path, "--sat-cnf");
    }
  };
  if (!o.lemmas)
    for (std::size_t mi = 0; mi < miters.size(); ++mi) build(mi);
  prog.phase("solving");
  std::atomic<std::size_t> next{0}, stop_above{miters.size()};  // miters >= stop_above are not needed
  std::mutex mu;
  std::exception_ptr error;
  auto solve_one = [&](std::size_t mi) {
    Slot& sl = slots[mi];
    const sat::Miter& m = *sl.miter;
    const double left = o.timeout_s - since(t0);
    if (left <= 0) {
      sl.r.why = "time limit";
    } else {
      prog.started(mi, miter_names[mi]);
      sl.r = sat::solve(*cadical, m.cnf, left, sl.proof, &sl.cancel);
      if (sl.r.answer == sat::Answer::Unsat && second) {
        prog.confirming(mi);
        sl.r2 = sat::solve(*second, m.cnf, std::max(1.0, o.timeout_s - since(t0)), "", &sl.cancel);
      }
      prog.finished(mi);
    }
    sl.solved = true;
    const bool final_unsat = sl.r.answer == sat::Answer::Unsat && (!second || sl.r2.answer != sat::Answer::Unknown);
    if (!final_unsat && sl.r.why != "cancelled" && sl.r2.why != "cancelled") {
      std::size_t cur = stop_above.load();
      while (mi < cur && !stop_above.compare_exchange_weak(cur, mi)) {
      }
      for (std::size_t k = mi + 1; k < slots.size(); ++k) slots[k].cancel = true;
    }
  };
  const unsigned workers = o.lemmas ? 1u : std::max(1u, std::min<unsigned>(resolve_threads(o.threads),
                                                                           static_cast<unsigned>(miters.size())));
  // --sat-order largest: largest miter first (by clauses, the cone's size), so that the longest
  // solve is not the last to start. Measured (mqar/dyadic n=8 c=16, 2 workers): no gain on the
  // proof (33.2-35.7 s against 33.9-34.5 s in order, load ~19), and refutations get slower (the
  // large upper-query miters run before the low failing one: 0.17-0.6 s -> 0.34-1.5 s; with one
  // worker far more), so index order is the default. --sat-lemmas always keeps index order (each
  // miter assumes the ones before it). The verdict does not depend on the order (see above).
  std::vector<std::size_t> order(miters.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  if (!o.lemmas && o.order == "largest")
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return slots[a].miter->cnf.num_clauses > slots[b].miter->cnf.num_clauses; });
  auto work = [&] {
    try {
      for (;;) {
        const std::size_t t = next.fetch_add(1);
        if (t >= order.size()) return;
        const std::size_t mi = order[t];
        if (mi > stop_above.load()) {
          if (o.lemmas) return;
          continue;
        }
        if (o.lemmas) build(mi);
        solve_one(mi);
        if (o.lemmas && slots[mi].r.answer == sat::Answer::Unsat && fixes[mi].empty())
          proved.insert(proved.end(), miters[mi].begin(), miters[mi].end());
      }
    } catch (...) {
      std::lock_guard<std::mutex> lk(mu);
      if (!error) error = std::current_exception();
      stop_above = 0;
      for (auto& sl : slots) sl.cancel = true;
    }
  };
  std::vector<std::thread> pool;
  for (unsigned w = 1; w < workers; ++w) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);

  SatOutcome out;
  out.verdict = "proved";
  nlohmann::json runs = nlohmann::json::array();
  std::size_t vars = 0, clauses = 0, max_vars = 0, max_clauses = 0;
  double solve_s = 0;
  std::vector<std::string> proofs;
  std::string undecided_why;
  for (std::size_t mi = 0; mi < miters.size() && out.verdict == "proved"; ++mi) {
    Slot& sl = slots[mi];
    if (!sl.solved) {  // only after a lower miter decided the verdict
      out.verdict = "undecided";
      undecided_why = "miter " + miter_names[mi] + " not run";
      break;
    }
    const sat::Miter& m = *sl.miter;
    nlohmann::json& run = sl.run;
    vars += static_cast<std::size_t>(m.cnf.num_vars);
    clauses += m.cnf.num_clauses;
    max_vars = std::max<std::size_t>(max_vars, static_cast<std::size_t>(m.cnf.num_vars));
    max_clauses = std::max(max_clauses, m.cnf.num_clauses);
    solve_s += sl.r.seconds + sl.r2.seconds;
    run["answer"] = sat::to_string(sl.r.answer);
    run["seconds"] = sl.r.seconds;
    if (sl.r.answer == sat::Answer::Unknown) {
      out.verdict = "undecided";
      undecided_why = "cadical: " + sl.r.why + " on " + miter_names[mi];
    } else if (sl.r.answer == sat::Answer::Sat) {
      const std::vector<int> bits = sat::task_inputs_of(m, sl.r.model);
      std::optional<Failure> f = pr.confirm(bits);
      if (!f)
        throw std::runtime_error("the SAT model of miter " + miter_names[mi] +
                                 " is an instance the enumerating engine finds correct (a bug of --method sat)");
      out.counterexample = f;
      out.verdict = "refuted";
      run["confirmed_by_engine"] = true;
    } else {
      if (!sl.proof.empty()) proofs.push_back(sl.proof);
      if (second) {
        run["confirm"] = {{"solver", second->name}, {"answer", sat::to_string(sl.r2.answer)}, {"seconds", sl.r2.seconds}};
        if (sl.r2.answer == sat::Answer::Sat)
          throw std::runtime_error("cadical says UNSAT and " + second->name + " SAT on miter " + miter_names[mi] +
                                   " (solvers disagree)");
        if (sl.r2.answer == sat::Answer::Unknown) {
          out.verdict = "undecided";
          undecided_why = second->name + " (--confirm): " + sl.r2.why + " on " + miter_names[mi];
        }
      }
    }
    runs.push_back(run);
  }
  out.exit_code = out.verdict == "proved" ? 0 : out.verdict == "refuted" ? 1 : 4;
  nlohmann::json& j = head;
  j["method"] = "sat";
  j["verdict"] = out.verdict;
  j["domain"] = "exhaustive";
  j["domain_description"] = pr.domain_text;
  // What the verdict covers: proved = every instance of the domain; refuted = at least one fails.
  j["instances"] = count_json(pr.instances);
  j["counterexample"] = nullptr;  // the CLI writes the Failure as every verify report does (app/report)
  j["sat"] = {{"solver", "cadical"},
              {"confirm_solver", second ? nlohmann::json(second->name) : nlohmann::json(nullptr)},
              {"split", o.split},
              {"lemmas", o.lemmas},
              {"cubes", o.cubes},
              {"miters", miters.size()},
              {"miters_run", runs.size()},
              {"cnf", {{"vars", vars}, {"clauses", clauses}, {"max_vars", max_vars}, {"max_clauses", max_clauses}}},
              {"runs", runs},
              {"proofs", proofs}};
  if (!undecided_why.empty()) j["sat"]["undecided"] = undecided_why;
  j["notes"] = pr.notes;
  out.seconds = since(t0);
  out.timing = {{"encode_seconds", encode_s}, {"solve_seconds", solve_s}};
  out.report = j;
  return out;
}

nlohmann::json head_of(const std::string& name, const Params& p, const Built& bt) {
  nlohmann::json j = {{"construction", name}, {"params", p.to_json()}};
  j["circuit"] = bt.circuit;
  return j;
}

}  // namespace

SatOutcome solve_sat_problem(SatProblem& pr, const SatOptions& o, nlohmann::json head) { return solve_problem(pr, o, std::move(head)); }
std::optional<Failure> sat_engine_failure(const Check& check, std::uint64_t k) { return engine_failure(check, k); }
mqar::Instance sat_mqar_instance(const mqar::Codec& codec, std::size_t n, const std::vector<int>& bits) {
  return mqar_instance(codec, n, bits);
}
circuits::reference::MqarSpec sat_mqar_spec(const mqar::Codec& codec, std::size_t n) { return mqar_spec(codec, n); }
Int sat_triples_instances(std::size_t n, std::size_t c) { return triples_instances(n, c); }
std::string sat_triples_text(std::size_t n, std::size_t c, const mqar::Codec& codec, const Int& count) {
  return triples_text(n, c, codec, count);
}

SatOutcome run_verify_sat(const Construction& c, const std::map<std::string, std::string>& given, const SatOptions& o) {
  const Params p = Params::parse(c.params, given);
  const Built bt = c.build(p);
  if (sat_model_covers(c, p, bt)) return run_model_sat(c, p, bt, o);  // integer models (sat_model_path.h)
  Problem pr;
  if (c.name == "mqar/dyadic") pr = dyadic_problem(p, bt);
  else if (c.name == "circuit/compare") pr = compare_problem(c, p, bt);
  else if (c.name == "circuit/sort") pr = sort_problem(c, p, bt);
  else throw InputError(c.name + " is not provable by --method sat: " + not_provable_why(c, bt), "--method sat");
  pr.notes = bt.notes;
  SatOutcome out = solve_problem(pr, o, head_of(c.name, p, bt));
  out.claims = bt.claims;
  return out;
}

SatOutcome run_task_sat(const Task& task, std::map<std::string, std::string> given, const ByoArtifact& a,
                        std::shared_ptr<const circuits::Circuit> circuit, const SatOptions& o) {
  if (task.name != "mqar")
    throw InputError("--method sat checks circuit files against task mqar (triples layout) for now; task " + task.name +
                         " has no reference checker yet",
                     "--method sat");
  if (!circuit->all_inputs_bit() || !circuit->all_outputs_bit())
    throw InputError("--method sat needs an all-Bit circuit (this file has Field wires)", a.file);
  if (a.fn.d == 0)
    throw InputError("--method sat matches the circuit to the task by its input and output names u[i][j], y[i][j] (as export "
                     "writes them); this file has none",
                     a.file);
  if (task.fill_from_artifact) task.fill_from_artifact(given, a.fn.N, a.fn.d);
  const Params p = Params::parse(task.params, given);
  // The same shape rule as the enumerating check (app/engine/byo.cpp run_task_check).
  const TaskShapeNeed need = task.shape(p);
  // Inputs the whole u grid by name; outputs y[i][j] cells, cells left out read as 0 (the checker
  // reads them so), the found column j = d checked by the checker where present.
  TaskArtifact fn = a.fn;
  fn.eval = placed_eval(circuit, place_circuit(*circuit, need, task.name, a.file), need.out_N, need.out_d);
  const mqar::TaskShape s = mqar::task_shape(p);
  if (s.layout != mqar::Layout::Triples) throw InputError("--method sat covers the triples layout", "-p layout");
  const mqar::Codec codec = mqar::task_codec(p, s);
  Problem pr;
  pr.artifact = circuit;
  pr.checker = ref::mqar_checker(mqar_spec(codec, s.n), output_names(*circuit), a.file);
  pr.instances = triples_instances(s.n, codec.c);
  pr.domain_text = triples_text(s.n, codec.c, codec, pr.instances);
  // The task's own check (mqar_check: whole output matrix against the reference) on the one
  // instance, the circuit evaluated exactly.
  const std::size_t n = s.n;
  pr.confirm = [fn, codec, n](const std::vector<int>& bits) {
    auto xs = std::make_shared<const std::vector<mqar::Instance>>(1, mqar_instance(codec, n, bits));
    MqarSolver sol;
    sol.codec = codec;
    sol.run = [fn, codec](const mqar::Instance& x) {
      MqarRun r;
      r.output = fn.eval(mqar::encode(codec, x));
      return r;
    };
    return engine_failure(mqar_check(mqar::from_list(xs, "the SAT model's instance"), sol), 0);
  };
  Built bt;
  bt.circuit = a.circuit;
  nlohmann::json head = head_of(a.file, p, bt);
  head["task"] = task.name;
  head["artifact"] = {{"kind", a.kind}, {"file", a.file}, {"format", a.format}};
  return solve_problem(pr, o, head);
}

SatOutcome run_words_task_sat(const std::string& task, std::map<std::string, std::string> given, const ByoArtifact& a,
                              std::shared_ptr<const circuits::Circuit> circuit, const SatOptions& o) {
  if (task != "compare" && task != "sort") throw std::logic_error("run_words_task_sat: task " + task);
  if (!circuit->all_inputs_bit() || !circuit->all_outputs_bit())
    throw InputError("--method sat needs an all-Bit circuit (this file has Field wires)", a.file);
  // The parameters the file does not fix come from its input names, as a primitive task takes N
  // and d from the file: compare x[k], y[k] (d = the number of x bits); sort k<i>[b] (n keys,
  // d bits each). -p gives them explicitly; the shape rule below then holds the file to them.
  std::size_t max_i = 0, max_b = 0, xs = 0;
  for (std::size_t k = 0; k < circuit->num_inputs(); ++k) {
    const std::string& nm = circuit->input_name(k);
    std::size_t v = 0;
    if (task == "compare" && ref::parse_bit(nm, "x", v)) ++xs;
    if (task == "sort" && nm.size() > 1 && nm[0] == 'k') {
      const auto br = nm.find('[');
      if (br != std::string::npos && br > 1 && ref::parse_bit(nm.substr(br), "", v)) {
        try {
          max_i = std::max<std::size_t>(max_i, std::stoul(nm.substr(1, br - 1)) + 1);
        } catch (const std::exception&) {
        }
        max_b = std::max(max_b, v + 1);
      }
    }
  }
  if (task == "compare" && !given.count("d") && xs) given["d"] = std::to_string(xs);
  if (task == "sort" && !given.count("n") && max_i) given["n"] = std::to_string(max_i);
  if (task == "sort" && !given.count("d") && max_b) given["d"] = std::to_string(max_b);
  // The built-in construction's parameter ranges (circuit/compare: d; circuit/sort: n, d; its
  // `network` is the construction's choice, not the task's).
  std::vector<ParamSpec> specs;
  for (const auto& ps : find_construction(task == "compare" ? "circuit/compare" : "circuit/sort").params)
    if (ps.name == "d" || ps.name == "n") specs.push_back(ps);
  const Params p = Params::parse(specs, given);
  const std::size_t d = p.u("d"), n = task == "sort" ? p.u("n") : 2;
  // The shape rule: the file's inputs are exactly the task's (every bit once, by name, as
  // circuit/compare and circuit/sort name theirs); its outputs are then checked by the reference
  // checker (compare: any of lt, eq, min[k], max[k]; sort: every key<i>[b] and idx<i>[b]), which
  // refuses a name it does not know.
  {
    std::vector<std::string> want, have;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t t = 0; t < d; ++t)
        want.push_back(task == "compare" ? std::string(i ? "y[" : "x[") + std::to_string(t) + "]"
                                         : "k" + std::to_string(i) + "[" + std::to_string(t) + "]");
    for (std::size_t k = 0; k < circuit->num_inputs(); ++k) have.push_back(circuit->input_name(k));
    std::sort(want.begin(), want.end());
    std::sort(have.begin(), have.end());
    if (want != have || circuit->outputs().empty())
      throw InputError("the circuit has " + std::to_string(circuit->num_inputs()) + " inputs and " +
                           std::to_string(circuit->outputs().size()) + " outputs; task " + task + " needs " +
                           (task == "compare" ? std::to_string(2 * d) + " inputs x[k], y[k] (k < d = " + std::to_string(d) +
                                                    ") and outputs among lt, eq, min[k], max[k]"
                                              : std::to_string(n * d) + " inputs k<i>[b] (i < n = " + std::to_string(n) +
                                                    ", b < d = " + std::to_string(d) + ") and the outputs key<i>[b], idx<i>[b]"),
                       a.file);
  }
  Problem pr;
  pr.artifact = circuit;
  pr.checker = task == "compare" ? ref::compare_checker(d, output_names(*circuit), a.file)
                                 : ref::sort_checker(n, d, output_names(*circuit), a.file);
  pr.instances = power(Int(2), n * d);
  pr.domain_text = task == "compare" ? compare_text(d, pr.instances) : sort_text(n, d, pr.instances);
  // A SAT model is confirmed by evaluating the file's circuit exactly on that input and judging it
  // by the task's plain meaning (compare_accept / sort_accept).
  pr.confirm = [task, n, d, a = circuit, names = task_input_names(pr.checker)](const std::vector<int>& bits) {
    const auto in = artifact_inputs(*a, names, bits);
    return eval_failure(*a, in, [&](const std::vector<Int>& got) {
      return task == "compare" ? compare_accept(d, *a, bits, got) : sort_accept(n, d, *a, bits, got);
    });
  };
  Built bt;
  bt.circuit = a.circuit;
  nlohmann::json head = head_of(a.file, p, bt);
  head["task"] = task;
  head["artifact"] = {{"kind", a.kind}, {"file", a.file}, {"format", a.format}};
  return solve_problem(pr, o, head);
}

}  // namespace cz
