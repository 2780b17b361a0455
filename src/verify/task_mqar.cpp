// MQAR as a task (spec §6; Zoology H.7, JRT G.1.2): the layouts and domains of
// verify/mqar_task.h (shared with mqar/attention and mqar/autocorrelation), the encodings of
// tasks/mqar.h, and the whole-output check of verify/mqar_check.h against the independent
// reference tasks/mqar_reference.h. A user's artifact must map the encoded N×d instance to the
// N×d matrix holding the encoded answer at every query row and zero rows elsewhere.
#include <string>

#include "util/error.h"
#include "verify/mqar_check.h"
#include "verify/mqar_task.h"
#include "verify/task.h"

namespace cz {

mqar::Codec mqar::task_codec(const Params& p, const TaskShape& s) {
  const std::string& e = p.s("encoding");
  const mqar::Encoding enc = e == "binary" ? mqar::Encoding::Binary : e == "phot" ? mqar::Encoding::PHot : mqar::Encoding::OneHot;
  return mqar::make_codec(enc, s.c, enc == mqar::Encoding::PHot ? p.u("p") : 1);
}

namespace {

std::vector<ParamSpec> mqar_params() {
  std::vector<ParamSpec> ps = mqar::task_params();
  // (`instance` only picks the instance a data-dependent built-in model is reported for; kept so
  // that the schema is the built-ins' own, it does not change a task check.)
  ps.push_back(choice_param("encoding", "onehot", {"onehot", "binary", "phot"},
                            "token encoding of the rows (docs/theory.md, Conventions): onehot d = c; binary d = ceil(log2 c); phot d = p·c^(1/p)"));
  ps.push_back(only_when(int_param("p", 1, 1, 64, "encoding=phot: digits (c must be a p-th power)"), "encoding=phot"));
  return ps;
}

}  // namespace

std::vector<Task> mqar_tasks() {
  std::vector<Task> ts;
  Task t;
  t.name = "mqar";
  t.summary = "multi-query associative recall: answer each query with the value of its earlier matching key";
  t.semantics =
      "triples (k_i, v_i, q_i), i < n: query i answers v_j for the j < i STRICTLY with k_j = q_i, else null "
      "(spec E5: its own triple's key does not count); zoology: K pairs first, each later query sees all K pairs. "
      "Keys are distinct in every domain instance";
  t.params = mqar_params();
  t.input_encoding =
      "u is N×d. triples: N = 3n, row 3i holds key k_i, row 3i+1 value v_i, row 3i+2 query q_i. zoology: rows 2j, 2j+1 "
      "hold pair j (key, value) for j < kv, query tokens at later rows, token 0 elsewhere. Each row encodes its token: "
      "onehot e_t (d = c); binary column b = bit b of t, column 0 least significant (d = ceil(log2 c)); phot: t = sum "
      "t_k base^k, columns [k·base, (k+1)·base) one-hot encode digit t_k (d = p·base, c = base^p; JRT Def G.10)";
  t.output_decoding =
      "y is N×d and must equal, entry by entry, the encoded answer at each query row (the zero row for null) and the "
      "zero row at every other row. (binary: the zero row also reads as token 0, so whole matrices are compared.) "
      "A circuit may also output column d, the found bit: 1 at a query row whose query matches a visible key, 0 at every "
      "other cell; when it outputs any cell of column d, the whole column is judged (cells it leaves out read as 0), by "
      "every method";
  t.domains = {"exhaustive (triples): every instance with n triples over c tokens, distinct keys: P(c,n)·c^n·c^n; "
               "the default when that is <= 2^21, or --exhaustive",
               "sampled (triples): --samples K seeded instances (default 1000 when the exhaustive domain is larger), --seed S",
               "sampled (zoology): zoology's multiquery_ar generator with --seed as its data seed, --samples K (default 1000)",
               "--from-npy INPUTS LABELS: zoology batches (verify NAME --from-npy, or verify --model FILE --task mqar --from-npy: "
               "each labelled position's answer against its label)"};
  t.reference = "src/tasks/mqar_reference.h mqar::reference_answers (Zoology Alg. 9: each query looks up, then its triple inserts)";
  t.constructions = {"mqar/attention", "mqar/autocorrelation", "mqar/dyadic"};
  t.claims_from = "mqar/attention";
  // sat: the triples layout (the reference checker circuits/reference/mqar_ref.h).
  t.methods = {{"circuit", {"enumerate", "sat"}}, {"model", {"enumerate", "sat"}}};
  t.shape = [](const Params& p) {
    const mqar::TaskShape s = mqar::task_shape(p);
    const mqar::Codec k = mqar::task_codec(p, s);
    TaskShapeNeed need;
    need.N = need.out_N = s.N;
    need.d = need.out_d = k.d;
    need.out_optional = 1;  // the found column (tasks/mqar.h expected_answer)
    need.optional_text = "found column (1 at a query row whose query matches a visible key, else 0)";
    need.text = "input and output N×d = " + std::to_string(s.N) + "×" + std::to_string(k.d) + " (" +
                (s.layout == mqar::Layout::Triples ? "N = 3n" : std::string("N")) + ", d for " + p.s("encoding") +
                " tokens of c = " + std::to_string(s.c) + ")";
    return need;
  };
  t.not_checked = {"instance"};
  t.resolve = [](const Params& p) { return p.with("c", std::to_string(mqar::task_shape(p).c)); };
  t.check = [](const Params& p, const TaskArtifact& a, const DomainOptions& o) {
    const mqar::TaskShape s = mqar::task_shape(p);
    MqarSolver sol;
    sol.codec = mqar::task_codec(p, s);
    sol.run = [codec = sol.codec, eval = a.eval](const mqar::Instance& x) {
      MqarRun r;
      r.output = eval(mqar::encode(codec, x));
      return r;
    };
    return mqar_check(mqar::domain_for(s, o), sol);
  };
  ts.push_back(std::move(t));

  Task ar;
  ar.name = "ar";
  ar.summary = "associative recall: one query after the key-value pairs (MQAR with a single query)";
  ar.semantics = "given pairs (k_j, v_j) and one query q, answer the v_j with k_j = q, else null (Zoology §3)";
  ar.input_encoding = "as mqar (zoology layout with one query)";
  ar.output_decoding = "as mqar";
  ar.domains = {"as mqar: check AR artifacts with --task mqar -p layout=zoology -p kv=K"};
  ar.reference = "src/tasks/mqar_reference.h (AR is the one-query case of MQAR)";
  ar.byo_unsupported = "AR is checked as its generalisation: use --task mqar";
  ts.push_back(std::move(ar));
  return ts;
}

}  // namespace cz
