// Tasks (verify/task.h) and checking a user's artifact against one (app/engine/byo/byo.h, issue 15):
// every built-in primitive and mqar/attention, handed over as a plain model file would be, verifies
// against its task with the built-in's own instance counts; mutants (one weight changed, one
// output rewired) are caught with a counterexample; shapes that do not fit are input errors.
#include <doctest/doctest.h>

#include <set>

#include "app/engine/byo/byo.h"
#include "circuits/builder.h"
#include "model/model_json.h"
#include "util/error.h"

using namespace cz;

namespace {

DomainOptions one_thread() {
  DomainOptions o;
  o.threads = 1;
  return o;
}

// The built-in's model, as `export --format model-json` would write it and `verify --model` read it.
Model exported(const Construction& k, const std::map<std::string, std::string>& given) {
  Built b = k.build(Params::parse(k.params, given));
  REQUIRE(b.model.has_value());
  return model_from_json(model_to_json(*b.model), "exported");
}

std::map<std::string, std::string> task_given(const Task& t, const std::map<std::string, std::string>& given) {
  std::map<std::string, std::string> out;
  for (const auto& p : t.params)
    if (given.count(p.name)) out[p.name] = given.at(p.name);
  return out;
}

}  // namespace

TEST_CASE("every task documents its encoding, decoding, domains and reference") {
  std::set<std::string> names;
  for (const Task& t : task_registry()) {
    INFO(t.name);
    CHECK(names.insert(t.name).second);
    CHECK(!t.summary.empty());
    CHECK(!t.semantics.empty());
    CHECK(!t.input_encoding.empty());
    CHECK(!t.output_decoding.empty());
    CHECK(!t.domains.empty());
    CHECK(!t.reference.empty());
    CHECK((t.byo_unsupported.empty() == static_cast<bool>(t.check)));
    for (const auto& k : t.constructions) CHECK_NOTHROW(find_construction(k));
    const nlohmann::json j = to_json(t);
    CHECK(j["name"] == t.name);
    CHECK(j["params"].size() == t.params.size());
    // "methods" per artifact kind (Task::methods, what verify FILE --task accepts): every kind
    // present; a task that checks no file lists none.
    bool any = false;
    for (const auto& kind : artifact_kinds()) {
      REQUIRE(j["methods"].contains(kind));
      any = any || !j["methods"][kind].empty();
    }
    if (!t.byo_unsupported.empty()) CHECK_FALSE(any);
  }
  for (const char* n : {"identity", "shift_down", "shift_up", "cumsum", "add", "hadamard", "remember", "mqar", "ar", "sd", "gar", "eq", "sort", "compare"})
    CHECK(names.count(n) == 1);
  CHECK_THROWS_AS(find_task("nope"), InputError);
}

TEST_CASE("every primitive model verifies against its task with the built-in counts") {
  const std::vector<std::pair<std::string, std::map<std::string, std::string>>> cases = {
      {"identity", {}},
      {"shift_down", {{"s", "2"}}},
      {"shift_up", {{"s", "1"}, {"conv", "cyclic"}}},
      {"cumsum", {{"N", "6"}}},
      {"add", {}},
      {"hadamard", {}},
      {"remember", {{"f", "shift_down"}, {"fs", "1"}}},
  };
  for (const auto& [task_name, given] : cases) {
    INFO(task_name);
    const Construction& k = find_construction("primitive/" + task_name);
    const Report builtin = run_verify(k, given, one_thread());
    const Task& t = find_task(task_name);
    const Report r = run_task_check(t, task_given(t, given), model_artifact(exported(k, given), "file.json"), one_thread());
    CHECK(r.instances == builtin.instances);
    CHECK(r.domain == builtin.domain);
    CHECK(r.failed == 0);
    CHECK(builtin.failed == 0);
    REQUIRE(r.model.has_value());
    CHECK((*r.model)["L"] == (*builtin.model)["L"]);
  }
}

TEST_CASE("a shift_down model with one filter tap changed is caught with a shrunk counterexample") {
  const Construction& k = find_construction("primitive/shift_down");
  Model m = exported(k, {{"N", "6"}, {"d", "2"}, {"s", "2"}});
  auto& L = std::get<BaseConvLayer>(m.layers.at(0));
  REQUIRE(L.h(2, 1) == Rat(1));
  L.h(2, 1) = Rat(0);
  const Report r = run_task_check(find_task("shift_down"), {{"s", "2"}}, model_artifact(m, "mutant.json"), one_thread());
  CHECK(r.failed > 0);
  REQUIRE(r.counterexample.has_value());
  CHECK(r.counterexample->instance.value("shrunk", false));
  CHECK(r.exit_code() == 1);
}

TEST_CASE("mqar/attention as a file verifies on the same domain and its h[3][2] mutant fails") {
  const Construction& k = find_construction("mqar/attention");
  const Report builtin = run_verify(k, {}, one_thread());
  Model m = exported(k, {});
  const Task& t = find_task("mqar");
  const Report ok = run_task_check(t, {}, model_artifact(m, "att.json"), one_thread());
  CHECK(ok.instances == builtin.instances);
  CHECK(ok.passed == builtin.passed);
  CHECK(ok.failed == 0);
  // The claims shown are the paper's (non-binding), measured on the file.
  CHECK(!ok.claims.empty());
  for (const auto& c : ok.claims) CHECK_FALSE(c.binding);
  auto& L = std::get<BaseConvLayer>(m.layers.at(0));
  REQUIRE(L.h(3, 2) == Rat(1));
  L.h(3, 2) = Rat(0);
  const Report bad = run_task_check(t, {}, model_artifact(m, "mutant.json"), one_thread());
  CHECK(bad.failed > 0);
  REQUIRE(bad.counterexample.has_value());
  CHECK(bad.counterexample->message.find("query answers") != std::string::npos);
}

TEST_CASE("shapes that do not fit the task are input errors naming the file") {
  const Model m = exported(find_construction("mqar/attention"), {});  // 9×3
  CHECK_THROWS_WITH_AS(run_task_check(find_task("mqar"), {{"n", "4"}}, model_artifact(m, "att.json"), one_thread()),
                       doctest::Contains("needs input and output N×d = 12×4"), InputError);
  CHECK_THROWS_AS(run_task_check(find_task("shift_down"), {{"N", "8"}}, model_artifact(m, "att.json"), one_thread()), InputError);
  CHECK_THROWS_AS(run_task_check(find_task("sd"), {}, model_artifact(m, "att.json"), one_thread()), InputError);
  Model fp = m;
  fp.ring = "Fp:7";
  CHECK_THROWS_AS(model_artifact(fp, "fp.json"), InputError);
}

TEST_CASE("a circuit file verifies by u and y names or by position and its rewired mutant fails") {
  // shift_down by one row on a 3×2 input: y[i][j] = u[i-1][j], y[0][j] = 0.
  auto make = [](bool named, bool mutant) {
    circuits::Builder b;
    std::vector<circuits::Wire> u;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 2; ++j)
        u.push_back(b.input(named ? "u[" + std::to_string(i) + "][" + std::to_string(j) + "]" : "x" + std::to_string(2 * i + j)));
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 2; ++j) {
        circuits::Wire w = i == 0 ? b.zero() : u[2 * (i - 1) + j];
        if (mutant && i == 2 && j == 1) w = u[2 * 1 + 0];  // reads the wrong channel
        b.output(named ? "y[" + std::to_string(i) + "][" + std::to_string(j) + "]" : "o" + std::to_string(2 * i + j), w);
      }
    return std::make_shared<const circuits::Circuit>(std::move(b).finish());
  };
  const Task& t = find_task("shift_down");
  const std::map<std::string, std::string> p = {{"N", "3"}, {"d", "2"}, {"s", "1"}};
  for (bool named : {true, false}) {
    INFO("named=" << named);
    const Report ok = run_task_check(t, p, circuit_artifact(make(named, false), "c.json", "circuit-json"), one_thread());
    CHECK(ok.instances == 729 + 10000);  // {-1,0,1}^(3x2), then signed samples (verify/matrix_domain.h)
    CHECK(ok.failed == 0);
    CHECK(ok.circuit.is_object());
    const Report bad = run_task_check(t, p, circuit_artifact(make(named, true), "m.json", "circuit-json"), one_thread());
    CHECK(bad.failed > 0);
    CHECK(bad.counterexample.has_value());
  }
  CHECK_THROWS_AS(run_task_check(t, {{"N", "4"}, {"d", "2"}, {"s", "1"}},
                                 circuit_artifact(make(false, false), "c.json", "circuit-json"), one_thread()),
                  InputError);
}
