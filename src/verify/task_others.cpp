// SD, GAR and EQ as tasks (JRT App. G): documented here with their encodings, domains and
// references. SD checks a user's model or circuit file on sized domains (task_sd_files.h); GAR and
// EQ are solved by reductions here (oracle calls, an MQAR prompt), so their files go through the
// task they reduce to.
#include "verify/task.h"
#include "verify/task_sd_files.h"

namespace cz {

std::vector<Task> other_tasks() {
  std::vector<Task> ts;
  const std::vector<std::string> sd_domains = {
      "exhaustive: domain=subsets, every pair (A, B) of subsets of {0,1}^n: (2^(2^n))^2 pairs; domain=orders, every "
      "pair of sequences of at most kmax distinct elements; domain=sized, every pair of sets with |A| = a, |B| = b, "
      "elements in increasing order (samples too: drawn, then sorted); each exhaustive when the count is <= 2^22 (or "
      "--exhaustive up to 2^32)",
      "sampled: --samples K (default 20000) seeded draws, --seed S"};
  {
    Task t;
    t.name = "sd";
    t.summary = "set disjointness: is A ∩ B empty? (and which elements are common)";
    t.semantics = "A, B ⊆ {0,1}^n, each given as a sequence of distinct elements; answer A ∩ B = ∅ (JRT Def G.1)";
    t.params = {int_param("n", 2, 1, 20, "element width"),
                choice_param("domain", "subsets", {"subsets", "orders", "sized"}, "which pairs (A, B)"),
                int_param("kmax", 3, 0, 64, "domain=orders: most elements per set"),
                int_param("a", 2, 0, 1 << 16, "domain=sized: |A|"), int_param("b", 3, 0, 1 << 16, "domain=sized: |B|"),
                choice_param("prompt", "jrt", {"jrt", "plain"}, "plain: u once; jrt: [u; u] (Def G.4); JR-p (p copies, Def G.28) as sd::repeat_prompt")};
    t.input_encoding =
        "u ∈ {0,1}^(N×(n+1)), N = |A| + |B| + 1 (JRT Remark G.14): A's rows, one separator row, B's rows. An element "
        "x is the row [bits of x :: 0] with column b = bit b of x (column 0 least significant); the separator is "
        "[0^n :: 1]. The JRT prompt repeats u twice ([u; u], 2N rows, Def G.4); JR-p repeats it p times (Def G.28); "
        "the plain prompt is u once";
    t.output_decoding =
        "Alg. 3 (sd/recurrent-jrt): output row i is [r[0:n] :: 1] when row i of the compared set is stored, else zero; "
        "A and B intersect iff some flag (column n) is 1, and the flagged rows are A ∩ B. A file's output is read so: "
        "every flag is 0 or 1, a flagged row's element bits are 0 or 1, and the set of flagged elements must equal A ∩ B. "
        "The Based pipeline (sd/based-jrt, JRT Thm G.22) is read differently: its last layer (Prop G.18's MLP, "
        "relu(2z - tau)) writes the flag in column 0 (every other column is 0) at the rows of the window [lo, lo+N) of "
        "the 2N-row prompt (lo = 0 with conv=anticausal, N with conv=causal; stage=g18: rows [0, N) of u); row i is "
        "flagged (nonzero) iff its element, read off row i of the G.21 output (the rearranged copy, smaller set first), "
        "is in the first set; A and B intersect iff some flag is nonzero, and the flagged rows' elements are A ∩ B";
    t.domains = sd_domains;
    t.reference = "src/tasks/sd.h sd::intersection, sd::disjoint (a plain set intersection)";
    t.constructions = {"sd/recurrent-jrt", "sd/based-jrt", "sd/via-gar"};
    // A user's file (task_sd_files.h): one input length, so domain=sized; decoded as Alg. 3's output.
    // Recurrent programs (any length) go through verify --program (app/engine/byo/byo_program.h).
    t.domains.push_back("your model or circuit file: domain=sized (|A| = a, |B| = b, elements in increasing order; "
                        "N = copies·(a+b+1) rows), exhaustive or sampled as above; your program file (--program): "
                        "every domain");
    t.fill_from_artifact = sd_file_fill;
    t.shape = sd_file_shape;
    t.check = sd_file_check;
    // Programs: every prompt length (app/engine/byo/byo_program.h), sat unrolled (app/engine/sat/sat_sd.h).
    t.methods = {{"circuit", {"enumerate"}}, {"model", {"enumerate"}}, {"program", {"enumerate", "sat"}}};
    ts.push_back(std::move(t));
  }
  {
    Task t;
    t.name = "gar";
    t.summary = "general associative recall: keys with values, then queries; each query gets its key's value or null";
    t.semantics = "keys k_0..k_{nk-1} (distinct) with values v_j, queries q_0..q_{m-1}, tokens in [0, c): q_i -> v_j "
                  "with k_j = q_i, else null (JRT Def G.24)";
    t.params = {int_param("c", 4, 1, 1 << 16, "vocabulary size"), int_param("nk", 2, 0, 1 << 16, "number of distinct keys"),
                int_param("m", 2, 0, 1 << 16, "number of queries")};
    t.input_encoding = "an instance (keys, values, queries) as integer tokens; gar/via-sd turns it into ceil(log2(c+1)) "
                       "SD prompts, one per value bit (JRT Prop G.26)";
    t.output_decoding = "one answer per query: a token in [0, c) or null";
    t.domains = {"exhaustive: every instance with nk distinct keys (in every order), values and m queries in [0, c): "
                 "P(c, nk)·c^nk·c^m (when small enough)",
                 "sampled: --samples K seeded draws, --seed S"};
    t.reference = "src/tasks/gar.h gar::solve (a map lookup)";
    t.constructions = {"gar/via-sd"};
    t.byo_unsupported = "GAR is solved here by reductions (oracle calls, export --format reduction), not by one model; a "
                        "model with keys and values first and queries after is an MQAR model in the zoology layout: "
                        "verify --model FILE --task mqar -p layout=zoology";
    ts.push_back(std::move(t));
  }
  {
    Task t;
    t.name = "eq";
    t.summary = "equality: is u1 = u2?";
    t.semantics = "tokens u1, u2 in [0, c); answer u1 = u2 (JRT §G.1.3)";
    t.params = {int_param("c", 8, 2, 1 << 16, "vocabulary size")};
    t.input_encoding = "eq/via-mqar builds the MQAR triples prompt (u1,1,u1),(u2,1,u2),(u1,1,u1),(u2,1,u2) (JRT Prop G.8), "
                       "one-hot tokens, N = 12, d = c";
    t.output_decoding = "the MQAR answer at query 1 (row 5): token 1 iff u1 = u2 (queries 2 and 3 always match, tasks/eq.h)";
    t.domains = {"exhaustive: all c^2 pairs (u1, u2)"};
    t.reference = "src/tasks/eq.h eq::equal (a comparison)";
    t.constructions = {"eq/via-mqar"};
    t.byo_unsupported = "check an MQAR model for the EQ prompt with --task mqar -p n=4 instead (EQ reduces to it, Prop G.8)";
    ts.push_back(std::move(t));
  }
  return ts;
}

}  // namespace cz
