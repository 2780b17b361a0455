// Peak resident set of this process in KiB (getrusage), for the benchmarks' bytes-per-gate counters.
#pragma once
#include <sys/resource.h>

inline long peak_rss_kb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}
