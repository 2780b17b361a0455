#include "constructions/circuits/support.h"

#include <atomic>

#include "circuits/eval.h"
#include "constructions/memory_estimate.h"
#include "circuits/eval_bitslice.h"
#include "util/error.h"
#include "util/seeded.h"

namespace cz::circ {

circuits::CircuitStats attach(Built& b, circuits::Circuit c) {
  auto s = circuits::compute_stats(c);
  b.circuit = circuits::to_json(s);
  b.circuit_ir = std::make_shared<const circuits::Circuit>(std::move(c));
  return s;
}

Check exhaustive_01_check(std::shared_ptr<const circuits::Circuit> c, Reference ref, const DomainOptions& o,
                          const std::string& what, Accept accept, DevicePath device) {
  {  // before preparing evaluators: their per-gate tables, and per thread a value per gate
    const std::uint64_t g = c->size(), t = est::check_threads(o.threads);
    require_memory(sat_add(sat_mul(g, 32), sat_mul(sat_mul(g, 16), t)),
                   "checking the " + std::to_string(g) + "-gate circuit on " + std::to_string(t) + " threads", "verify");
  }
  const std::size_t n = c->num_inputs();
  const bool fits = n <= 22 || (o.force_exhaustive && n <= 32);
  if (o.force_exhaustive && !fits) throw InputError("an exhaustive domain of 2^" + std::to_string(n) + " instances is over 2^32", "--exhaustive");
  Check k;
  const bool exhaustive = fits && !o.samples;
  k.domain = exhaustive ? "exhaustive" : "sampled";
  k.instances = exhaustive ? (std::uint64_t{1} << n) : o.samples.value_or(100000);
  if (exhaustive && device) k.device = device();
  k.description = (exhaustive ? "all " : "seeded random ") + std::string("0/1 vectors of ") + std::to_string(n) +
                  " input bits (" + what + ")";
  const std::uint64_t seed = o.seed;
  auto ev = std::make_shared<circuits::Evaluator<RingI64>>(RingI64{}, *c);
  // Instance idx: exhaustive -> input i = bit i of idx; sampled -> seeded random bits.
  auto bits_of = [n, exhaustive, seed](std::uint64_t idx) {
    std::vector<int> bits(n);
    InstanceRng rng(seed, idx);
    std::uint64_t word = exhaustive ? idx : 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (!exhaustive && i % 64 == 0) word = rng.next();
      bits[i] = static_cast<int>(((i < 64 || !exhaustive) ? (word >> (i % 64)) : 0) & 1);
    }
    return bits;
  };
  // Exact arithmetic evaluation of the circuit itself (int64, Z on overflow).
  auto exact = [c, ev](const std::vector<int>& bits) {
    std::vector<std::int64_t> x(bits.begin(), bits.end());
    std::vector<Int> got;
    try {
      for (std::int64_t v : (*ev)(x)) got.emplace_back(v);
    } catch (const Overflow&) {
      got = circuits::eval_integer(*c, x);
    }
    return got;
  };
  // All-Bit circuits: 512 instances per pass through the certified Boolean skeleton
  // (eval_bitslice.h), cached per thread by block; every 4096th instance is also evaluated
  // arithmetically and must agree.
  std::shared_ptr<const circuits::BitSliced> bs;
  if (c->all_outputs_bit()) {
    bs = std::make_shared<const circuits::BitSliced>(*c);
    k.description += "; bit-sliced, every 4096th instance also evaluated arithmetically";
  }
  static std::atomic<std::uint64_t> tokens{0};
  const std::uint64_t token = ++tokens;  // identifies this check in the per-thread cache
  auto block_outputs = [bs, bits_of, n, exhaustive, token](std::uint64_t idx) -> const std::vector<std::uint64_t>& {
    struct Cache { std::uint64_t owner = 0; std::uint64_t block = UINT64_MAX; std::vector<std::uint64_t> out, in, work; };
    thread_local Cache cache;
    constexpr std::uint64_t B = circuits::BitSliced::kInstances;
    const std::uint64_t block = idx / B;
    if (cache.owner != token || cache.block != block) {
      const std::size_t W = circuits::BitSliced::kWords;
      cache.in.assign(std::max<std::size_t>(n, 1) * W, 0);
      if (exhaustive) {
        circuits::BitSliced::exhaustive_inputs(block * B, n, cache.in.data());
      } else {
        for (std::uint64_t l = 0; l < B; ++l) {
          auto bits = bits_of(block * B + l);
          for (std::size_t i = 0; i < n; ++i) cache.in[i * W + l / 64] |= static_cast<std::uint64_t>(bits[i]) << (l % 64);
        }
      }
      cache.out.assign(bs->num_outputs() * W, 0);
      bs->run_block(cache.in.data(), cache.out.data(), cache.work);
      cache.owner = token;
      cache.block = block;
    }
    return cache.out;
  };
  k.run = [c, ref, accept, bs, bits_of, exact, block_outputs](std::uint64_t idx) -> std::optional<Failure> {
    std::vector<int> bits = bits_of(idx);
    std::vector<Int> got;
    std::string how = "exact";
    if (bs) {
      const auto& out = block_outputs(idx);
      const std::uint64_t lane = idx % circuits::BitSliced::kInstances;
      for (std::size_t o = 0; o < bs->num_outputs(); ++o)
        got.emplace_back(static_cast<std::int64_t>((out[o * circuits::BitSliced::kWords + lane / 64] >> (lane % 64)) & 1));
      how = "bit-sliced";
      if (idx % 4096 == 0 && exact(bits) != got) {
        Failure f;
        f.instance = {{"index", idx}};
        f.input = bits;
        f.message = "bit-sliced and exact arithmetic evaluation disagree (a false Bit certificate)";
        return f;
      }
    } else {
      got = exact(bits);
    }
    if (accept && accept(bits, got)) return std::nullopt;
    std::vector<long long> want = ref(bits);
    bool same = want.size() == got.size();
    for (std::size_t o = 0; same && o < got.size(); ++o) same = got[o] == Int(want[o]);
    if (same && !accept) return std::nullopt;
    for (std::size_t o = 0; o < std::max(got.size(), want.size()); ++o)
      if (same || o >= want.size() || o >= got.size() || !(got[o] == Int(want[o]))) {
        Failure f;
        f.instance = {{"index", idx}, {"evaluation", how}};
        f.input = bits;
        f.expected = want;
        nlohmann::json g = nlohmann::json::array();
        for (const Int& v : got) g.push_back(v.fits_int64() ? nlohmann::json(v.to_int64()) : nlohmann::json(v.str()));
        f.got = g;
        f.message = o < got.size() ? "output " + c->outputs()[o].name + " is " + got[o].str() + ", want " +
                                         (o < want.size() ? std::to_string(want[o]) : std::string("nothing"))
                                   : "too few outputs";
        if (same) f.message = "the answer is not accepted (equal to the reference, but the check rejects it)";
        return f;
      }
    return std::nullopt;
  };
  return k;
}

}  // namespace cz::circ
