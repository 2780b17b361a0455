#include "constructions/mqar/dyadic_check.h"

#include <array>
#include <atomic>

#include "circuits/eval.h"
#include "circuits/eval_bitslice.h"
#include "gpu/lop_check.h"
#include "tasks/mqar_block.h"
#include "tasks/mqar_reference.h"
#include "verify/model_check.h"

namespace cz::mqarc {

namespace {

using circuits::BitSliced;
constexpr std::size_t kLanes = BitSliced::kInstances, kWords = BitSliced::kWords;

struct Shared {
  mqar::Domain dom;
  std::shared_ptr<const DyadicCircuit> dc;
  mqar::Codec codec;
  BitSliced bs;
  std::uint64_t id;
  std::vector<std::vector<int>> codes;  // encode_token per token, when the table is small
};

std::atomic<std::uint64_t> next_id{1};

struct BlockCache {
  std::uint64_t id = 0, block = ~std::uint64_t{0};
  std::array<std::uint64_t, kWords> fail{};
  std::vector<std::uint64_t> in, out, work;
};
thread_local BlockCache cache;

// The expected output columns of one query: encoded answer (or zeros), then found.
std::vector<int> expected_cols(const Shared& S, const std::optional<std::int64_t>& a) {
  std::vector<int> e(S.dc->out_cols, 0);
  if (a) {
    if (!S.codes.empty()) {
      const auto& c = S.codes[static_cast<std::size_t>(*a)];
      std::copy(c.begin(), c.end(), e.begin());
    } else {
      auto c = mqar::encode_token(S.codec, *a);
      for (std::size_t j = 0; j < S.dc->d; ++j) e[j] = static_cast<int>(c[j]);
    }
    if (S.dc->found_output) e[S.dc->d] = 1;
  }
  return e;
}

void set_inputs(const Shared& S, const mqar::Instance& x, std::size_t lane, std::vector<std::uint64_t>& in) {
  const Matrix<std::int64_t> u = mqar::encode(S.codec, x);
  for (std::size_t r = 0; r < u.rows(); ++r)
    for (std::size_t j = 0; j < u.cols(); ++j)
      if (u(r, j)) in[(r * u.cols() + j) * kWords + lane / 64] |= std::uint64_t{1} << (lane % 64);
}

void eval_block(const Shared& S, std::uint64_t blk) {
  BlockCache& c = cache;
  c.id = S.id;
  c.block = blk;
  c.fail.fill(0);
  const std::uint64_t lo = blk * kLanes;
  const std::size_t cnt = static_cast<std::size_t>(std::min<std::uint64_t>(kLanes, S.dom.count - lo));
  c.in.assign(S.bs.num_inputs() * kWords, 0);
  c.out.assign(S.bs.num_outputs() * kWords, 0);
  std::vector<std::vector<std::optional<std::int64_t>>> answers(cnt);
  for (std::size_t t = 0; t < cnt; ++t) {
    const mqar::Instance x = S.dom.instance(lo + t);
    set_inputs(S, x, t, c.in);
    answers[t] = mqar::reference_answers(x);
  }
  S.bs.run_block(c.in.data(), c.out.data(), c.work);
  const std::size_t oc = S.dc->out_cols;
  for (std::size_t t = 0; t < cnt; ++t) {
    bool ok = true;
    for (std::size_t i = 0; i < S.dc->n && ok; ++i) {
      const std::vector<int> e = expected_cols(S, answers[t][i]);
      for (std::size_t j = 0; j < oc; ++j) {
        const int got = static_cast<int>((c.out[(i * oc + j) * kWords + t / 64] >> (t % 64)) & 1);
        if (got != e[j]) {
          ok = false;
          break;
        }
      }
    }
    if (!ok) c.fail[t / 64] |= std::uint64_t{1} << (t % 64);
  }
}

std::string answer_text(const Shared& S, const std::optional<std::int64_t>& a) {
  std::string s = a ? "token " + std::to_string(*a) : "null";
  if (S.dc->found_output) s += a ? " (found=1)" : " (found=0)";
  return s;
}

std::string got_text(const Shared& S, const std::vector<int>& cols) {
  std::vector<int> bits(cols.begin(), cols.begin() + static_cast<long>(S.dc->d));
  mqar::Decoded dd = mqar::decode_bits(S.codec, bits);
  std::string s = dd.kind == mqar::Decoded::Invalid ? "not a codeword"
                  : dd.kind == mqar::Decoded::Null ? "null"
                                                   : "token " + std::to_string(dd.token);
  if (S.dc->found_output) s += cols[S.dc->d] ? " (found=1)" : " (found=0)";
  return s;
}

// The failing instance named by the bit-sliced outputs still cached for its block (cheap: no
// exact evaluation, no matrices), for every failure the engine counts.
Failure failure_brief(const Shared& S, std::uint64_t k) {
  const mqar::Instance x = S.dom.instance(k);
  const auto answers = mqar::reference_answers(x);
  const std::size_t oc = S.dc->out_cols, t = static_cast<std::size_t>(k % kLanes);
  Failure f;
  f.instance = mqar::to_json(x);
  for (std::size_t i = 0; i < S.dc->n && f.message.empty(); ++i) {
    const std::vector<int> e = expected_cols(S, answers[i]);
    std::vector<int> g(oc);
    for (std::size_t j = 0; j < oc; ++j)
      g[j] = static_cast<int>((cache.out[(i * oc + j) * kWords + t / 64] >> (t % 64)) & 1);
    if (g != e)
      f.message = "query " + std::to_string(i) + " (row " + std::to_string(3 * i + 2) + ") answers " + got_text(S, g) +
                  ", want " + answer_text(S, answers[i]);
  }
  return f;
}

// The reported failure in full: the circuit evaluated exactly (and compared with the bit-sliced
// run), the input, expected and actual output matrices.
Failure failure_detail(const Shared& S, std::uint64_t k) {
  const mqar::Instance x = S.dom.instance(k);
  const Matrix<std::int64_t> u = mqar::encode(S.codec, x);
  const auto answers = mqar::reference_answers(x);
  std::vector<std::int64_t> inputs(u.data().begin(), u.data().end());
  const std::vector<Int> exact = circuits::eval_integer(*S.dc->circuit, inputs);
  const std::size_t oc = S.dc->out_cols, t = static_cast<std::size_t>(k % kLanes);
  Matrix<Int> want(S.dc->N, oc, Int(0)), got(S.dc->N, oc, Int(0));
  std::string msg, disagree;
  for (std::size_t i = 0; i < S.dc->n; ++i) {
    const std::vector<int> e = expected_cols(S, answers[i]);
    std::vector<int> g(oc);
    for (std::size_t j = 0; j < oc; ++j) {
      const int sliced = static_cast<int>((cache.out[(i * oc + j) * kWords + t / 64] >> (t % 64)) & 1);
      const Int& ex = exact[i * oc + j];
      if (!(ex == Int(sliced))) disagree = "bit-sliced and exact evaluation disagree (a bug); ";
      g[j] = sliced;
      want(3 * i + 2, j) = Int(e[j]);
      got(3 * i + 2, j) = ex;
    }
    if (msg.empty() && g != e)
      msg = "query " + std::to_string(i) + " (row " + std::to_string(3 * i + 2) + ") answers " + got_text(S, g) +
            ", want " + answer_text(S, answers[i]);
  }
  Failure f;
  f.instance = mqar::to_json(x);
  if (u.rows() * u.cols() <= 4096) f.input = int_matrix_json(u);
  f.expected = int_matrix_json(want);
  f.got = int_matrix_json(got);
  f.message = disagree + msg;
  return f;
}

// The batched path: blocks of the triples domain unranked into arrays (tasks/mqar_block.h), encoded
// straight into bit-sliced input words, evaluated 512 at a time, and compared with the batched
// reference as whole words (expected bits built per lane, then XOR/OR across the output columns).
// Nothing here allocates after construction.
class DyadicBlocks : public BlockWorker {
 public:
  explicit DyadicBlocks(std::shared_ptr<const Shared> S) : S_(std::move(S)), un_(S_->dom) {
    blk_.reserve(S_->dc->n, kLanes);
    in_.assign(S_->bs.num_inputs() * kWords, 0);
    out_.assign(S_->bs.num_outputs() * kWords, 0);
    exp_.assign(S_->bs.num_outputs() * kWords, 0);
    // set columns of each token's code, flattened
    off_.push_back(0);
    for (const auto& code : S_->codes) {
      for (std::size_t j = 0; j < code.size(); ++j)
        if (code[j]) cols_.push_back(static_cast<std::uint32_t>(j));
      off_.push_back(static_cast<std::uint32_t>(cols_.size()));
    }
  }
  void run(std::uint64_t k0, std::uint64_t count, BlockResult& r) override {
    for (std::uint64_t done = 0; done < count;) {
      const std::size_t m = static_cast<std::size_t>(std::min<std::uint64_t>(kLanes, count - done));
      chunk(k0 + done, m, r);
      done += m;
    }
  }

 private:
  void chunk(std::uint64_t k0, std::size_t m, BlockResult& r) {
    const Shared& S = *S_;
    const std::size_t d = S.dc->d, oc = S.dc->out_cols, n = S.dc->n;
    un_.fill(k0, m, blk_);
    std::fill(in_.begin(), in_.end(), 0);
    for (std::size_t p = 0; p < blk_.N; ++p) {
      const std::int32_t* tok = blk_.tok.data() + p * kLanes;
      std::uint64_t* row = in_.data() + p * d * kWords;
      for (std::size_t t = 0; t < m; ++t) {
        const std::uint64_t bit = std::uint64_t{1} << (t % 64);
        const auto tk = static_cast<std::size_t>(tok[t]);
        for (std::uint32_t q = off_[tk]; q < off_[tk + 1]; ++q) row[cols_[q] * kWords + t / 64] |= bit;
      }
    }
    S.bs.run_block(in_.data(), out_.data(), work_);
    std::fill(exp_.begin(), exp_.end(), 0);
    for (std::size_t i = 0; i < n; ++i) {
      const std::int32_t* a = blk_.ans.data() + i * kLanes;
      std::uint64_t* e = exp_.data() + i * oc * kWords;
      for (std::size_t t = 0; t < m; ++t) {
        if (a[t] < 0) continue;
        const std::uint64_t bit = std::uint64_t{1} << (t % 64);
        const auto tk = static_cast<std::size_t>(a[t]);
        for (std::uint32_t q = off_[tk]; q < off_[tk + 1]; ++q) e[cols_[q] * kWords + t / 64] |= bit;
        if (S.dc->found_output) e[d * kWords + t / 64] |= bit;
      }
    }
    for (std::size_t w = 0; w < kWords; ++w) {
      std::uint64_t bad = 0;
      for (std::size_t o = 0; o < n * oc; ++o) bad |= out_[o * kWords + w] ^ exp_[o * kWords + w];
      const std::size_t lo = 64 * w;
      if (lo >= m) break;
      if (m - lo < 64) bad &= (std::uint64_t{1} << (m - lo)) - 1;
      while (bad) {
        r.fail(k0 + lo + static_cast<std::uint64_t>(__builtin_ctzll(bad)));
        bad &= bad - 1;
      }
    }
  }

  std::shared_ptr<const Shared> S_;
  mqar::TriplesUnranker un_;
  mqar::TriplesBlock blk_;
  std::vector<std::uint64_t> in_, out_, exp_, work_;
  std::vector<std::uint32_t> off_, cols_;
};

}  // namespace

Check dyadic_check(const mqar::Domain& dom, std::shared_ptr<const DyadicCircuit> dc, const mqar::Codec& codec) {
  auto S = std::make_shared<Shared>(Shared{dom, dc, codec, BitSliced(*dc->circuit), next_id.fetch_add(1), {}});
  if (codec.c * codec.d <= (std::size_t{1} << 22))
    for (std::size_t t = 0; t < codec.c; ++t) {
      auto e = mqar::encode_token(codec, static_cast<std::int64_t>(t));
      S->codes.emplace_back(e.begin(), e.end());
    }
  Check c;
  c.domain = dom.exhaustive ? "exhaustive" : "sampled";
  c.instances = dom.count;
  c.description = dom.description + "; circuit evaluated bit-sliced (" + std::to_string(kLanes) + " instances per pass)";
  c.preconditions = dom.preconditions;
  c.run = [S](std::uint64_t k) -> std::optional<Failure> {
    const std::uint64_t blk = k / kLanes;
    if (cache.id != S->id || cache.block != blk) eval_block(*S, blk);
    const std::size_t t = static_cast<std::size_t>(k % kLanes);
    if (!((cache.fail[t / 64] >> (t % 64)) & 1)) return std::nullopt;
    return failure_brief(*S, k);
  };
  if (dom.triples_n && !S->codes.empty() && S->dc->n * S->dc->out_cols == S->bs.num_outputs()) {
    c.block = [S]() -> std::unique_ptr<BlockWorker> { return std::make_unique<DyadicBlocks>(S); };
    c.block_size = 8 * kLanes;
    c.block_kind = "bit-sliced (arrays in, words compared)";
  } else {
    c.block = scalar_blocks(c.run);
    c.block_kind = "adapter over run(k)";
  }
  // The device path (issue 12): the same triples domain generated and checked on the device.
  if (const auto src = gpu::triples_source(dom); src && !S->codes.empty())  // exhaustive, or drawn with its seed
    c.device = gpu::lop_triples_check(*dc->circuit, *src, dc->d, dc->out_cols, dc->found_output, S->codes);
  // Not a shrink: the engine's first failure gets its full, exactly re-evaluated details here.
  c.shrink = [S](const Failure& f) {
    const std::uint64_t k = f.instance["index"].get<std::uint64_t>();
    const std::uint64_t blk = k / kLanes;
    if (cache.id != S->id || cache.block != blk) eval_block(*S, blk);
    Failure d = failure_detail(*S, k);
    d.instance["index"] = k;
    return d;
  };
  return c;
}

}  // namespace cz::mqarc
