// Per-thread caches of the exact arithmetic (FLINT keeps freed integers and other scratch in
// thread-local storage). A thread that exits without releasing them leaks them (LeakSanitizer
// reports it), so every worker thread the project spawns calls release_thread_caches() as its
// last action. Integers still alive elsewhere stay valid: FLINT frees a block of them only when
// all of its integers are released. No FLINT in this header (see integer.h).
#pragma once

namespace cz {

// Frees the calling thread's FLINT caches (flint_cleanup()). Call it at the end of a worker
// thread; calling it on a thread that goes on using exact arithmetic is also safe, only slower.
void release_thread_caches() noexcept;

}  // namespace cz
