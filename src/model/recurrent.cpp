#include "model/recurrent.h"

#include <stdexcept>

namespace cz {
namespace {
bool fits(std::uint64_t v, unsigned width) { return width >= 64 || v < (std::uint64_t(1) << width); }
}  // namespace

unsigned bits_for(std::uint64_t count) {
  unsigned b = 0;
  while (b < 64 && (std::uint64_t(1) << b) < count) ++b;
  return b;
}

std::size_t RecurrentState::add_register(std::string name, unsigned width, std::uint64_t init) {
  if (!fits(init, width)) throw std::logic_error("register '" + name + "': initial value does not fit its width");
  regs_.push_back({std::move(name), width, init});
  return regs_.size() - 1;
}

void RecurrentState::set(std::size_t reg, std::uint64_t value) {
  Reg& r = regs_.at(reg);
  if (!fits(value, r.width))
    throw std::logic_error("register '" + r.name + "' (" + std::to_string(r.width) + " bits) cannot hold " +
                           std::to_string(value));
  r.value = value;
}

std::size_t RecurrentState::add_bag(std::string name, unsigned width) {
  bags_.push_back({std::move(name), width, {}});
  return bags_.size() - 1;
}

void RecurrentState::insert(std::size_t bag, std::uint64_t word) {
  Bag& b = bags_.at(bag);
  if (!fits(word, b.width))
    throw std::logic_error("bag '" + b.name + "' holds " + std::to_string(b.width) + "-bit words, not " +
                           std::to_string(word));
  b.words.insert(word);
}

std::size_t RecurrentState::register_bits() const {
  std::size_t s = 0;
  for (const auto& r : regs_) s += r.width;
  return s;
}

std::size_t RecurrentState::bits() const {
  std::size_t s = register_bits();
  for (const auto& b : bags_) s += b.words.size() * b.width;
  return s;
}

RecurrentRun run_recurrent(const RecurrentProgram& p, const Matrix<std::int64_t>& u) {
  RecurrentState z = p.init(u.rows(), u.cols());
  RecurrentRun r;
  r.register_bits = z.register_bits();
  r.bag_bits_max.assign(z.bag_count(), 0);
  auto record = [&] {
    r.bits.push_back(z.bits());
    r.max_bits = std::max(r.max_bits, z.bits());
    for (std::size_t b = 0; b < z.bag_count(); ++b) r.bag_bits_max[b] = std::max(r.bag_bits_max[b], z.bag_bits(b));
  };
  record();
  std::vector<std::vector<std::int64_t>> out;
  for (std::size_t i = 0; i < u.rows(); ++i) {
    std::vector<std::int64_t> row(u.row(i), u.row(i) + u.cols());  // a copy: the step sees row i only
    out.push_back(p.step(z, i, u.rows(), row));
    if (out.back().size() != out.front().size()) throw std::logic_error(p.name + ": output rows differ in width");
    record();
  }
  const std::size_t w = out.empty() ? 0 : out.front().size();
  r.output = Matrix<std::int64_t>(u.rows(), w, 0);
  for (std::size_t i = 0; i < out.size(); ++i)
    for (std::size_t j = 0; j < w; ++j) r.output(i, j) = out[i][j];
  return r;
}

}  // namespace cz
