#include "constructions/gar/via_sd_block.h"

#include <unordered_map>
#include <vector>

namespace cz::garc {
namespace {

class Worker : public BlockWorker {
 public:
  Worker(GarBlockDomain dom, SdOracle oracle) : dom_(std::move(dom)), oracle_(std::move(oracle)) {
    n_ = token_bits(dom_.c);
    d_ = code_bits(dom_.c);
    keys_.resize(dom_.nk);
    values_.resize(dom_.nk);
    queries_.resize(dom_.m);
    Q_.reserve(dom_.m);
    used_.assign(dom_.c, 0);
    call_.n = n_;
  }

  void run(std::uint64_t k0, std::uint64_t count, BlockResult& r) override {
    for (std::uint64_t k = k0; k < k0 + count; ++k) {
      load(k);
      const int v = fast_verdict();
      if (v == 1 || (v < 0 && slow_fails(k))) r.fail(k);
    }
  }

 private:
  struct Answer {
    std::uint64_t mask = 0;  // tokens in the oracle's answer
    bool regular = true;     // every token below 2^n (else gar_via_sd's code.at throws: slow path)
  };

  // Instance k into keys_, values_, queries_ (gar::instance's digits for exhaustive domains).
  void load(std::uint64_t k) {
    if (!dom_.exhaustive) {
      const gar::Instance x = dom_.instance(k);
      std::copy(x.keys.begin(), x.keys.end(), keys_.begin());
      std::copy(x.values.begin(), x.values.end(), values_.begin());
      std::copy(x.queries.begin(), x.queries.end(), queries_.begin());
      return;
    }
    const std::uint32_t c = dom_.c;
    for (std::size_t i = 0; i < dom_.m; ++i, k /= c) queries_[i] = static_cast<std::uint32_t>(k % c);
    for (std::size_t j = 0; j < dom_.nk; ++j, k /= c) values_[j] = static_cast<std::uint32_t>(k % c);
    std::fill(used_.begin(), used_.end(), 0);
    for (std::size_t j = 0; j < dom_.nk; ++j) {  // mixed radix c, c-1, ...: the digit-th unused token
      std::uint64_t digit = k % (c - j);
      k /= (c - j);
      for (std::uint32_t t = 0; t < c; ++t)
        if (!used_[t] && digit-- == 0) {
          used_[t] = 1;
          keys_[j] = t;
          break;
        }
    }
  }

  // 0 passes, 1 fails, -1 not decided here (slow path).
  int fast_verdict() {
    if (n_ > 6) return -1;  // masks of 64 tokens
    Q_.clear();             // the queries as a set, first occurrences in prompt order (gar_via_sd's A)
    std::uint64_t seen = 0;
    for (std::uint32_t q : queries_)
      if (!((seen >> q) & 1)) {
        seen |= std::uint64_t{1} << q;
        Q_.push_back(q);
      }
    std::uint64_t answered[64] = {};  // per token: the code bits recovered (only query tokens are read)
    for (unsigned l = 0; l < d_; ++l) {
      // the call's key: |A|, |B| (6 bits each), then the elements at n bits each (as the memo of
      // the scalar block path before it)
      std::size_t nb = 0;
      for (std::size_t j = 0; j < dom_.nk; ++j) nb += ((values_[j] + 1) >> l) & 1;
      if (Q_.size() >= 64 || nb >= 64 || 12 + (Q_.size() + nb) * n_ > 64) return -1;
      std::uint64_t key = Q_.size() | (nb << 6);
      unsigned at = 12;
      for (std::uint32_t e : Q_) key |= std::uint64_t{e} << at, at += n_;
      for (std::size_t j = 0; j < dom_.nk; ++j)
        if (((values_[j] + 1) >> l) & 1) key |= std::uint64_t{keys_[j]} << at, at += n_;
      auto it = memo_.find(key);
      if (it == memo_.end()) it = memo_.emplace(key, ask(l)).first;
      if (!it->second.regular) return -1;
      for (std::uint32_t q : Q_)
        if ((it->second.mask >> q) & 1) answered[q] |= std::uint64_t{1} << l;
    }
    for (std::uint32_t q : queries_) {  // code 0 is Null, else the value is code - 1
      std::int64_t want = -1;           // the map lookup: the value of the key equal to q
      for (std::size_t j = 0; j < dom_.nk; ++j)
        if (keys_[j] == q) want = values_[j];
      const std::int64_t got = static_cast<std::int64_t>(answered[q]) - 1;
      if (got != want) return 1;
    }
    return 0;
  }

  // The oracle on call l of the loaded instance (built as gar_via_sd builds it).
  Answer ask(unsigned l) {
    call_.A = Q_;
    call_.B.clear();
    for (std::size_t j = 0; j < dom_.nk; ++j)
      if (((values_[j] + 1) >> l) & 1) call_.B.push_back(keys_[j]);
    Answer a;
    for (std::uint32_t t : oracle_(call_)) {
      if (t >= (std::uint32_t{1} << n_)) a.regular = false;
      else a.mask |= std::uint64_t{1} << t;
    }
    return a;
  }

  bool slow_fails(std::uint64_t k) {
    gar::Instance x{dom_.c, keys_, values_, queries_};
    if (!dom_.exhaustive) x = dom_.instance(k);
    return gar_via_sd(x, oracle_).answers != gar::solve(x);
  }

  GarBlockDomain dom_;
  SdOracle oracle_;
  unsigned n_ = 1, d_ = 1;
  std::vector<std::uint32_t> keys_, values_, queries_, Q_;
  std::vector<char> used_;
  sd::Instance call_;
  std::unordered_map<std::uint64_t, Answer> memo_;
};

}  // namespace

SdOracle memoised(SdOracle oracle) {
  auto memo = std::make_shared<std::unordered_map<std::uint64_t, std::vector<std::uint32_t>>>();
  return [oracle = std::move(oracle), memo](const sd::Instance& call) {
    const std::size_t bits = 12 + (call.A.size() + call.B.size()) * call.n;
    if (call.A.size() >= 64 || call.B.size() >= 64 || bits > 64) return oracle(call);
    std::uint64_t key = call.A.size() | (call.B.size() << 6);
    unsigned at = 12;
    for (const auto* set : {&call.A, &call.B})
      for (std::uint32_t e : *set) key |= std::uint64_t{e} << at, at += call.n;
    auto it = memo->find(key);
    if (it == memo->end()) it = memo->emplace(key, oracle(call)).first;
    return it->second;
  };
}

std::unique_ptr<BlockWorker> via_sd_block_worker(const GarBlockDomain& dom, const SdOracle& oracle) {
  return std::make_unique<Worker>(dom, oracle);
}

}  // namespace cz::garc
