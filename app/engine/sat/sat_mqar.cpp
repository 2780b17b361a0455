// --method sat for MQAR (triples layout): the domain, the reference checker's spec, decoding a SAT
// model into an instance; mqar/dyadic's circuit artifact and a user's circuit file on task mqar.
#include "app/engine/sat/sat_path.h"
#include "app/engine/sat/sat_problem.h"
#include "app/engine/sat/sat_stages.h"

#include <stdexcept>

#include "circuits/reference/mqar_ref.h"
#include "constructions/mqar/dyadic_check.h"
#include "tasks/mqar_domain.h"
#include "util/error.h"
#include "verify/mqar_check.h"
#include "verify/mqar_task.h"

namespace cz {

namespace ref = circuits::reference;

// MQAR triples: the SAT bits are the N×d encoded rows; decoded by src/tasks (decode_bits).
mqar::Instance sat_mqar_instance(const mqar::Codec& codec, std::size_t n, const std::vector<int>& bits) {
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

ref::MqarSpec sat_mqar_spec(const mqar::Codec& codec, std::size_t n) {
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

Int sat_triples_instances(std::size_t n, std::size_t c) {
  Int keys(1);
  for (std::size_t j = 0; j < n; ++j) keys *= Int(static_cast<std::int64_t>(c - j));
  return keys * sat_power(Int(static_cast<std::int64_t>(c)), 2 * n);
}

std::string sat_triples_text(std::size_t n, std::size_t c, const mqar::Codec& codec, const Int& count) {
  return "every MQAR triples instance with n = " + std::to_string(n) + " triples over c = " + std::to_string(c) +
         " tokens, keys pairwise distinct, values and queries free: P(c,n)·c^n·c^n = " + count.str() +
         " instances (the domain `verify --exhaustive` enumerates), rows " + mqar::to_string(codec.enc) + "-encoded";
}

SatProblem sat_dyadic_problem(const Params& p, const Built& bt) {
  if (p.s("artifact") != "circuit")
    throw InputError("artifact=model is the compiled integer model; --method sat proves all-Bit circuits (use artifact=circuit)",
                     "--method sat");
  SatProblem pr;
  pr.artifact = bt.circuit_ir;
  const mqar::Encoding enc = p.s("encoding") == "binary" ? mqar::Encoding::Binary
                             : p.s("encoding") == "onehot" ? mqar::Encoding::OneHot
                                                           : mqar::Encoding::PHot;
  const mqar::Codec codec = mqar::make_codec(enc, p.u("c"), p.u("p"));
  const std::size_t n = p.u("n");
  pr.checker = ref::mqar_checker(sat_mqar_spec(codec, n), sat_output_names(*pr.artifact), "the construction's circuit");
  pr.instances = sat_triples_instances(n, codec.c);
  pr.domain_text = sat_triples_text(n, codec.c, codec, pr.instances);
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
    auto xs = std::make_shared<const std::vector<mqar::Instance>>(1, sat_mqar_instance(codec, n, bits));
    const Check check = mqarc::dyadic_check(mqar::from_list(xs, "the SAT model's instance"), dc, codec);
    return sat_engine_failure(check, 0);
  };
  return pr;
}

SatOutcome run_task_sat(const Task& task, std::map<std::string, std::string> given, const ByoArtifact& a,
                        std::shared_ptr<const circuits::Circuit> circuit, const SatOptions& o) {
  if (task.name != "mqar")
    throw InputError("--method sat checks circuit files against task mqar (triples layout) for now; task " + task.name +
                         " has no reference checker yet",
                     "--method sat");
  circuit = sat_bit_circuit(std::move(circuit), a.file);
  if (a.fn.d == 0)
    throw InputError("--method sat matches the circuit to the task by its input and output names u[i][j], y[i][j] (as export "
                     "writes them); this file has none",
                     a.file);
  if (task.fill_from_artifact) task.fill_from_artifact(given, a.fn.N, a.fn.d);
  const Params p = Params::parse(task.params, given);
  // The same shape rule as the enumerating check (app/engine/byo/byo.cpp run_task_check).
  const TaskShapeNeed need = task.shape(p);
  // Inputs the whole u grid by name; outputs y[i][j] cells, cells left out read as 0 (the checker
  // reads them so), the found column j = d checked by the checker where present.
  TaskArtifact fn = a.fn;
  fn.eval = placed_eval(circuit, place_circuit(*circuit, need, task.name, a.file), need.out_N);
  const mqar::TaskShape s = mqar::task_shape(p);
  if (s.layout != mqar::Layout::Triples) throw InputError("--method sat covers the triples layout", "-p layout");
  const mqar::Codec codec = mqar::task_codec(p, s);
  SatProblem pr;
  pr.artifact = circuit;
  pr.checker = ref::mqar_checker(sat_mqar_spec(codec, s.n), sat_output_names(*circuit), a.file);
  pr.instances = sat_triples_instances(s.n, codec.c);
  pr.domain_text = sat_triples_text(s.n, codec.c, codec, pr.instances);
  // The task's own check (mqar_check: whole output matrix against the reference) on the one
  // instance, the circuit evaluated exactly.
  const std::size_t n = s.n;
  pr.confirm = [fn, codec, n](const std::vector<int>& bits) {
    auto xs = std::make_shared<const std::vector<mqar::Instance>>(1, sat_mqar_instance(codec, n, bits));
    MqarSolver sol;
    sol.codec = codec;
    sol.run = [fn, codec](const mqar::Instance& x) {
      MqarRun r;
      r.output = fn.eval(mqar::encode(codec, x));
      return r;
    };
    return sat_engine_failure(mqar_check(mqar::from_list(xs, "the SAT model's instance"), sol), 0);
  };
  Built bt;
  bt.circuit = a.circuit;
  nlohmann::json head = sat_head_of(a.file, checked_params(task, p), bt);
  head["task"] = task.name;
  head["artifact"] = {{"kind", a.kind}, {"file", a.file}, {"format", a.format}};
  // mqar/dyadic's own circuit (an export of it): its stages (issue 38 item 4).
  SatOptions rest = o;  // less the seconds a SAT sweep spent (--timeout is for the whole run)
  if (std::optional<SatOutcome> out = run_task_sat_as_dyadic(codec, n, pr, rest, head)) return std::move(*out);
  return solve_sat_problem(pr, rest, head);
}

}  // namespace cz
