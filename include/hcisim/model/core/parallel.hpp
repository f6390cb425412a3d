// Independent runs (sweep points, accuracy scenarios) on a few threads: each call of `run`
// gets an index in [0, n); every index runs exactly once. Runs share nothing, so results
// are the same whatever the thread count (each run has its own Engine and RNG streams).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <sched.h>
#endif

namespace hcisim {

/// The threads parallel_for starts for `jobs`: `jobs` <= 0 means one per hardware thread this
/// process may run on (its CPU affinity, on Linux; else std::thread::hardware_concurrency), and
/// no more than that are started whatever `jobs` asks: the runs are CPU-bound, so a thread
/// beyond the hardware's only costs a stack (8 MB of address space each, which a capped address
/// space may not hold).
inline int parallel_threads(int jobs) {
  int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
#if defined(__linux__)
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) == 0) hw = std::max(1, CPU_COUNT(&allowed));
#endif
  return jobs > 0 ? std::min(jobs, hw) : hw;
}

/// Runs every index on parallel_threads(jobs) threads at most. An exception thrown by `run` does not
/// leave its thread (that would be std::terminate): every index still runs, and afterwards
/// the exception of the lowest failing index is rethrown here. Threads the system refuses (an
/// address-space limit, a pids cgroup, threads-max) are done without: the indices run on the
/// threads that did start, or on the calling thread if none did.
inline void parallel_for(std::size_t n, int jobs, const std::function<void(std::size_t)>& run) {
  const std::size_t threads = std::min(n, static_cast<std::size_t>(parallel_threads(jobs)));
  std::atomic<std::size_t> next{0};
  std::vector<std::exception_ptr> failed(n);
  auto worker = [&]() {
    for (std::size_t i = next++; i < n; i = next++) {
      try {
        run(i);
      } catch (...) {
        failed[i] = std::current_exception();
      }
    }
  };
  std::vector<std::thread> pool;
  try {
    pool.reserve(threads);
  } catch (const std::exception&) {
    // emplace_back below allocates as it goes
  }
  for (std::size_t t = 0; t < threads; ++t) {
    try {
      pool.emplace_back(worker);
    } catch (const std::exception&) {
      break;   // the system starts no more threads: go on with those it did
    }
  }
  if (pool.empty()) worker();
  for (auto& t : pool) t.join();
  for (const std::exception_ptr& e : failed)
    if (e) std::rethrow_exception(e);
}

}  // namespace hcisim
