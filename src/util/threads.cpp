#include "util/threads.h"

#include <algorithm>
#include <thread>

namespace cz {

unsigned resolve_threads(unsigned requested) {
  if (requested) return std::min(requested, kMaxThreads);
  unsigned h = std::thread::hardware_concurrency();
  return h ? std::min(h, kMaxThreads) : 1;
}

}  // namespace cz
