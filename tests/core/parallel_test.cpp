// parallel_for: every index runs exactly once, the lowest failing index's exception comes
// back, and no more threads start than the hardware has, whatever `jobs` asks.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "hcisim/model/core/parallel.hpp"

namespace parallel_test {

TEST_CASE("parallel_for runs every index once and starts no more threads than the hardware has",
          "[parallel]") {
  const int hw = hcisim::parallel_threads(0);
  const auto runs_n = static_cast<std::size_t>(2 * hw + 8);   // more indices than threads may start
  std::vector<int> runs(runs_n, 0);
  std::set<std::thread::id> threads;
  std::mutex m;
  hcisim::parallel_for(runs_n, 256, [&](std::size_t i) {
    // Long enough that every started thread takes an index before the work runs out.
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    std::lock_guard<std::mutex> lock(m);
    ++runs[i];
    threads.insert(std::this_thread::get_id());
  });
  CHECK(std::all_of(runs.begin(), runs.end(), [](int r) { return r == 1; }));
  CHECK(hcisim::parallel_threads(256) == std::min(256, hw));
  CHECK(hcisim::parallel_threads(1) == 1);
  CHECK(threads.size() >= 1);
  CHECK(threads.size() <= static_cast<std::size_t>(hw));
}

TEST_CASE("parallel_for rethrows the lowest failing index after every index has run", "[parallel]") {
  std::vector<int> runs(10, 0);
  std::mutex m;
  auto run = [&](std::size_t i) {
    {
      std::lock_guard<std::mutex> lock(m);
      ++runs[i];
    }
    if (i == 3 || i == 7) throw std::runtime_error("index " + std::to_string(i));
  };
  CHECK_THROWS_WITH(hcisim::parallel_for(runs.size(), 4, run), "index 3");
  CHECK(std::all_of(runs.begin(), runs.end(), [](int r) { return r == 1; }));
}

}  // namespace parallel_test
