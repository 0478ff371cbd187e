// What `bench render` and `bench replay` measure with: process CPU time and the median of repeats.
#pragma once

#include <time.h>

#include <algorithm>
#include <vector>

namespace xnt::bench {

// CPU time of the whole process, every thread (the driver's too): a loaded machine inflates it
// far less than wall time.
inline double ProcessCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

// The middle value (the upper one of an even count); 0 for none.
inline double Median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace xnt::bench
