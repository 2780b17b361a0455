// The BaseConv primitives as tasks (spec §5; Zoology H.3, Based App. F as cited by JRT Lemma
// G.20): each is an exact map of N×d matrices, checked against tasks/primitive_semantics.h (the
// same reference and the same domain, verify/matrix_domain.h, as the primitive/* constructions).
#include <string>

#include "tasks/primitive_semantics.h"
#include "util/error.h"
#include "verify/matrix_domain.h"
#include "verify/model_check.h"
#include "verify/task.h"

namespace cz {
namespace {

std::vector<ParamSpec> shape_params() {
  // The same schema as constructions/primitives/support.cpp shape_params(8, 2), minus the
  // construction's own choice of conv mode: a user's file brings its own.
  return {int_param("N", 8, 1, 1 << 16, "sequence length (rows); default: the file's N"),
          int_param("d", 2, 1, 1 << 10, "input width (channels); default: the file's d"),
          int_param("range", 3, 1, 1 << 20, "sampled domains: entries drawn from [-range, range]")};
}

const char* kMatrixInput = "u is the N×d input matrix itself: row i is position i, column j is channel j (any integers: the map is over Z)";
const char* kMatrixOutput = "y is the N×d output matrix, compared entry by entry, exactly (every row, every column)";
std::vector<std::string> matrix_domains() {
  // verify/matrix_domain.h: the semantics are over Z, so the default always meets signed values.
  return {"default: every u in {-1,0,1}^(N×d) when 3^(N·d) <= 2^16, else every u in {0,1}^(N×d) when 2^(N·d) <= 2^22, "
          "then 10000 seeded matrices with entries in [-range, range] (100000 when neither box fits); the report's domain "
          "is exhaustive+sampled (or sampled) and its description names each set",
          "exhaustive: --exhaustive, the box alone: {-1,0,1}^(N×d) up to 3^(N·d) <= 2^32, else {0,1}^(N×d) up to 2^32",
          "sampled: --samples K seeded matrices with entries in [-range, range] (--seed S)"};
}

// Generic task over a semantics function sem(ring, u, params).
template <class Sem>
Task primitive(std::string name, std::string summary, std::string semantics, std::vector<ParamSpec> extra, Sem sem,
               std::function<void(const Params&)> validate = nullptr) {
  Task t;
  t.name = name;
  t.summary = std::move(summary);
  t.semantics = std::move(semantics);
  t.params = shape_params();
  for (auto& p : extra) t.params.push_back(std::move(p));
  t.input_encoding = kMatrixInput;
  t.output_decoding = kMatrixOutput;
  t.domains = matrix_domains();
  t.reference = "src/tasks/primitive_semantics.h sem::" + (name == "add" ? std::string("add_blocks")
                                                           : name == "hadamard" ? std::string("hadamard_blocks") : name);
  t.constructions = {"primitive/" + name};
  t.claims_from = "primitive/" + name;
  // sat on models: the integer map bit-blasted (app/engine/sat/sat_model_path.h).
  t.methods = {{"circuit", {"enumerate"}}, {"model", {"enumerate", "sat", "algebra"}}};  // algebra: app/engine/algebra/algebra_task.h
  t.fill_from_artifact = [](std::map<std::string, std::string>& given, std::size_t N, std::size_t d) {
    given.emplace("N", std::to_string(N));
    given.emplace("d", std::to_string(d));
  };
  t.shape = [validate](const Params& p) {
    if (validate) validate(p);
    TaskShapeNeed s;
    s.N = s.out_N = p.u("N");
    s.d = s.out_d = p.u("d");
    s.text = "input and output N×d = " + std::to_string(s.N) + "×" + std::to_string(s.d);
    return s;
  };
  t.check = [sem](const Params& p, const TaskArtifact& a, const DomainOptions& o) {
    auto bound = [sem, p](const auto& r, const auto& u) { return sem(r, u, p); };
    return fn_vs_semantics(a.eval, bound, make_matrix_domain(p.u("N"), p.u("d"), o, p.i("range")));
  };
  return t;
}

void even_d(const Params& p) {
  if (p.u("d") % 2) throw InputError("'d' must be even (u = [x | z])", "-p d=" + p.s("d"));
}

}  // namespace

std::vector<Task> primitive_tasks() {
  std::vector<Task> ts;
  ts.push_back(primitive("identity", "y = u", "y[i][j] = u[i][j]", {},
                         [](const auto& r, const auto& u, const Params&) { return sem::identity(r, u); }));
  ts.push_back(primitive(
      "shift_down", "y[i] = u[i-s] (zeros above)", "y[i] = u[i-s] for i >= s, else the zero row (Based Prop F.38)",
      {int_param("s", 3, 0, 1 << 16, "shift (0 <= s < N)")},
      [](const auto& r, const auto& u, const Params& p) { return sem::shift_down(r, u, p.u("s")); },
      [](const Params& p) {
        if (p.u("s") >= p.u("N")) throw InputError("'s' must be below N", "-p s=" + p.s("s"));
      }));
  ts.push_back(primitive(
      "shift_up", "y[i] = u[i+s] (zeros below)", "y[i] = u[i+s] for i+s < N, else the zero row (no causal model can: a causal output row sees only the rows up to it; docs/theory.md, Convolution modes)",
      {int_param("s", 3, 1, 1 << 16, "shift (0 < s < N)")},
      [](const auto& r, const auto& u, const Params& p) { return sem::shift_up(r, u, p.u("s")); },
      [](const Params& p) {
        if (p.u("s") >= p.u("N")) throw InputError("'s' must be below N", "-p s=" + p.s("s"));
      }));
  ts.push_back(primitive("cumsum", "y[i] = sum of rows 0..i", "y[i] = sum_{k<=i} u[k] (Based Prop F.12)", {},
                         [](const auto& r, const auto& u, const Params&) { return sem::cumsum(r, u); }));
  ts.push_back(primitive("add", "[x | z] -> [x + z | 0]", "u = [x | z] with d = 2k columns; y = [x + z | 0] (Zoology H.3)", {},
                         [](const auto& r, const auto& u, const Params&) { return sem::add_blocks(r, u); }, even_d));
  ts.push_back(primitive("hadamard", "[x | z] -> [x ⊙ z | 0]",
                         "u = [x | z] with d = 2k columns; y = [x ⊙ z | 0], entrywise product (Zoology H.3)", {},
                         [](const auto& r, const auto& u, const Params&) { return sem::hadamard_blocks(r, u); }, even_d));
  ts.push_back(primitive(
      "remember", "rows [s,t) <- f(u[s:t]), others kept",
      "y[i] = f(u[s:t])[i-s] for s <= i < t, y[i] = u[i] otherwise (Based Def F.15, via JRT Lemma G.20); f by its definition",
      {int_param("s", 2, 0, 1 << 16, "first row of the window"),
       int_param("t", 6, 1, 1 << 16, "end of the window (exclusive, s < t <= N)"),
       choice_param("f", "cumsum", {"cumsum", "shift_down", "identity"}, "the map f applied to the window"),
       int_param("fs", 1, 0, 1 << 16, "shift of f when f=shift_down")},
      [](const auto& r, const auto& u, const Params& p) {
        const std::size_t s = p.u("s"), t = p.u("t"), fs = p.u("fs");
        const std::string f = p.s("f");
        return sem::remember(r, u, s, t, [&](const auto& piece) {
          if (f == "cumsum") return sem::cumsum(r, piece);
          if (f == "identity") return sem::identity(r, piece);
          return sem::shift_down(r, piece, fs);
        });
      },
      [](const Params& p) {
        if (!(p.u("s") < p.u("t") && p.u("t") <= p.u("N")))
          throw InputError("need s < t <= N", "-p s=" + p.s("s") + " -p t=" + p.s("t"));
        if (p.s("f") == "shift_down" && p.u("fs") >= p.u("t") - p.u("s"))
          throw InputError("'fs' must be below t - s", "-p fs=" + p.s("fs"));
      }));
  return ts;
}

}  // namespace cz
