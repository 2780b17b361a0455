#include "exact/thread_caches.h"

#include <flint/flint.h>

namespace cz {

void release_thread_caches() noexcept { flint_cleanup(); }

}  // namespace cz
