#include "constructions/circuits/support.h"

#include "circuits/eval.h"
#include "util/error.h"
#include "verify/seeded.h"

namespace cz::circ {

circuits::CircuitStats attach(Built& b, circuits::Circuit c) {
  auto s = circuits::compute_stats(c);
  b.circuit = circuits::to_json(s);
  b.circuit_ir = std::make_shared<const circuits::Circuit>(std::move(c));
  return s;
}

Check exhaustive_01_check(std::shared_ptr<const circuits::Circuit> c, Reference ref, const DomainOptions& o,
                          const std::string& what) {
  const std::size_t n = c->num_inputs();
  const bool fits = n <= 22 || (o.force_exhaustive && n <= 32);
  if (o.force_exhaustive && !fits) throw InputError("an exhaustive domain of 2^" + std::to_string(n) + " instances is over 2^32", "--exhaustive");
  Check k;
  const bool exhaustive = fits && !o.samples;
  k.domain = exhaustive ? "exhaustive" : "sampled";
  k.instances = exhaustive ? (std::uint64_t{1} << n) : o.samples.value_or(100000);
  k.description = (exhaustive ? "all " : "seeded random ") + std::string("0/1 vectors of ") + std::to_string(n) +
                  " input bits (" + what + ")";
  const std::uint64_t seed = o.seed;
  auto ev = std::make_shared<circuits::Evaluator<RingI64>>(RingI64{}, *c);
  k.run = [c, ev, ref, n, exhaustive, seed](std::uint64_t idx) -> std::optional<Failure> {
    std::vector<int> bits(n);
    InstanceRng rng(seed, idx);
    std::uint64_t word = exhaustive ? idx : 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (!exhaustive && i % 64 == 0) word = rng.next();
      bits[i] = static_cast<int>((word >> (i % 64)) & 1);
    }
    std::vector<std::int64_t> x(bits.begin(), bits.end());
    std::vector<Int> got;
    try {
      for (std::int64_t v : (*ev)(x)) got.emplace_back(v);
    } catch (const Overflow&) {
      got = circuits::eval_integer(*c, x);  // exact in Z
    }
    std::vector<long long> want = ref(bits);
    for (std::size_t o = 0; o < got.size(); ++o)
      if (o >= want.size() || !(got[o] == Int(want[o]))) {
        Failure f;
        f.instance = {{"index", idx}};
        f.input = bits;
        f.expected = want;
        nlohmann::json g = nlohmann::json::array();
        for (const Int& v : got) g.push_back(v.fits_int64() ? nlohmann::json(v.to_int64()) : nlohmann::json(v.str()));
        f.got = g;
        f.message = "output " + c->outputs()[o].name + " is " + got[o].str() + ", want " +
                    (o < want.size() ? std::to_string(want[o]) : std::string("nothing"));
        return f;
      }
    return std::nullopt;
  };
  return k;
}

}  // namespace cz::circ
