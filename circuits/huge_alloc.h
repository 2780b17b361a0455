// huge_alloc: raw storage for the circuit's big per-gate arrays (ChunkedArray chunks).
// Blocks of 2 MiB and more start on a 2 MiB boundary and are advised as transparent huge pages
// (Linux madvise; elsewhere plain aligned storage): the builder touches every new byte once, in
// order, and a 4 KiB page fault per 4 KiB is most of that cost on a VM.
#pragma once
#include <cstddef>

namespace cz::circuits {

void* huge_alloc(std::size_t bytes, std::size_t align);  // throws std::bad_alloc; uninitialised
void huge_free(void* p);                                 // p from huge_alloc, or nullptr

}  // namespace cz::circuits
