#include "verify/task_sd_files.h"

#include <set>

#include "util/error.h"
#include "verify/sd_domain.h"

namespace cz {

namespace {
std::size_t copies_of(const Params& p) { return p.s("prompt") == "jrt" ? 2 : 1; }
}  // namespace

TaskShapeNeed sd_file_shape(const Params& p) {
  if (p.s("domain") != "sized")
    throw InputError("a model or circuit file takes one input length: give -p domain=sized -p a=|A| -p b=|B| "
                     "(N = copies·(a + b + 1) rows)",
                     "-p domain=" + p.s("domain"));
  const std::size_t n = p.u("n"), rows = copies_of(p) * (p.u("a") + p.u("b") + 1);
  TaskShapeNeed need;
  need.N = need.out_N = rows;
  need.d = need.out_d = n + 1;
  need.text = "input and output N×d = " + std::to_string(rows) + "×" + std::to_string(n + 1) + " (N = " +
              std::to_string(copies_of(p)) + "·(a + b + 1) for prompt=" + p.s("prompt") + ", d = n + 1)";
  return need;
}

void sd_file_fill(std::map<std::string, std::string>& given, std::size_t, std::size_t d) {
  if (!given.count("n") && d >= 2) given["n"] = std::to_string(d - 1);
  if (!given.count("domain")) given["domain"] = "sized";
}

Check sd_file_check(const Params& p, const TaskArtifact& a, const DomainOptions& o) {
  const sdc::SdDomain dom = sdc::make_sd_domain(p, o);
  const std::size_t copies = copies_of(p);
  const unsigned n = dom.n;
  Check c;
  c.domain = dom.exhaustive ? "exhaustive" : "sampled";
  c.instances = dom.count;
  c.description = dom.describe();
  c.preconditions = {"output decoded as JRT Alg. 3's: flag = column n; the flagged rows' elements must be A ∩ B"};
  c.run = [dom, copies, n, eval = a.eval](std::uint64_t k) -> std::optional<Failure> {
    const sd::Instance x = dom.instance(k);
    const Matrix<std::int64_t> u = sd::repeat_prompt(sd::encode(x), copies);
    const Matrix<Int> y = eval(u);
    const std::vector<std::uint32_t> want = sd::intersection(x);
    std::string why;
    std::set<std::uint32_t> got;
    for (std::size_t r = 0; r < y.rows() && why.empty(); ++r) {
      const Int& flag = y(r, n);
      if (flag != Int(0) && flag != Int(1)) why = "row " + std::to_string(r) + ": flag (column " + std::to_string(n) + ") is " + flag.str() + ", not 0 or 1";
      else if (flag == Int(1)) {
        std::uint32_t e = 0;
        for (unsigned b = 0; b < n && why.empty(); ++b) {
          if (y(r, b) == Int(1)) e |= std::uint32_t{1} << b;
          else if (y(r, b) != Int(0)) why = "row " + std::to_string(r) + ": flagged, but column " + std::to_string(b) + " is " + y(r, b).str();
        }
        got.insert(e);
      }
    }
    const std::vector<std::uint32_t> common(got.begin(), got.end());
    if (why.empty() && common == want) return std::nullopt;
    Failure f;
    f.instance = sd::to_json(x);
    f.input = nlohmann::json::array();
    for (std::size_t i = 0; i < u.rows(); ++i) f.input.push_back(std::vector<std::int64_t>(u.row(i), u.row(i) + u.cols()));
    f.expected = {{"intersects", !want.empty()}, {"common", want}};
    f.got = {{"intersects", !common.empty()}, {"common", common}};
    f.message = why.empty() ? std::string("the flagged rows read ") + (common.empty() ? "disjoint" : "a different intersection") : why;
    return f;
  };
  return c;
}

}  // namespace cz
