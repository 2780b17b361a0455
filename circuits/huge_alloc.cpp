#include "circuits/huge_alloc.h"

#include <algorithm>
#include <cstdlib>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace cz::circuits {

namespace {
constexpr std::size_t kHuge = std::size_t{1} << 21;
}

void* huge_alloc(std::size_t bytes, std::size_t align) {
  const bool huge = bytes >= kHuge;
  align = std::max(align, huge ? kHuge : alignof(std::max_align_t));
  const std::size_t size = (bytes + align - 1) / align * align;  // aligned_alloc wants a multiple
  void* p = std::aligned_alloc(align, size);
  if (!p) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (huge) madvise(p, size, MADV_HUGEPAGE);  // advice only: a refusal leaves 4 KiB pages
#endif
  return p;
}

void huge_free(void* p) { std::free(p); }

}  // namespace cz::circuits
