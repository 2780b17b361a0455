#include "verify/symbolic_reference.h"

#include <mutex>
#include <vector>

namespace cz {
namespace {

struct Entry {
  std::weak_ptr<const void> state;
  std::shared_ptr<const SymbolicReference> sym;
};

std::mutex& table_mutex() {
  static std::mutex m;
  return m;
}
std::vector<Entry>& table() {
  static std::vector<Entry> t;
  return t;
}

}  // namespace

void attach_symbolic(const std::shared_ptr<const void>& state, std::shared_ptr<const SymbolicReference> s) {
  std::lock_guard<std::mutex> lock(table_mutex());
  auto& t = table();
  std::erase_if(t, [](const Entry& e) { return e.state.expired(); });
  t.push_back({state, std::move(s)});
}

std::shared_ptr<const SymbolicReference> symbolic_of(const Built& b) {
  if (!b.state) return nullptr;
  std::lock_guard<std::mutex> lock(table_mutex());
  for (const auto& e : table())
    if (auto p = e.state.lock(); p && p.get() == b.state.get()) return e.sym;
  return nullptr;
}

}  // namespace cz
