// Multi-server FIFO station: exact departure times, FIFO order, utilisation, bad input.
#include <catch2/catch.hpp>

#include <vector>

#include "hcisim/core/check.hpp"
#include "hcisim/model/core/station.hpp"

using namespace hcisim;
using namespace hcisim::literals;

namespace {
struct Log final : StationClient {
  std::vector<std::uint64_t> jobs;
  std::vector<Time> done, waited;
  Engine* engine = nullptr;
  void on_departure(Station&, std::uint64_t job, Time arrived, Time started) override {
    jobs.push_back(job);
    done.push_back(engine->now());
    waited.push_back(started - arrived);
  }
};
}  // namespace

TEST_CASE("two servers serve five 10 us jobs arriving together in FIFO pairs", "[core]") {
  Engine engine;
  Log log;
  log.engine = &engine;
  Station st(engine, "dev", 2, &log);
  for (std::uint64_t j = 0; j < 5; ++j) st.arrive(j, 10_us);
  CHECK(st.busy() == 2);
  CHECK(st.queue_length() == 3);
  engine.run();
  CHECK(log.jobs == std::vector<std::uint64_t>{0, 1, 2, 3, 4});
  CHECK(log.done == std::vector<Time>{10_us, 10_us, 20_us, 20_us, 30_us});
  CHECK(log.waited == std::vector<Time>{0_us, 0_us, 10_us, 10_us, 20_us});
  // Busy servers: 2 for 20 us, 1 for 10 us -> mean 50/30 of 2 servers.
  CHECK(st.utilisation() == Approx((2.0 * 20 + 1.0 * 10) / 30 / 2));
  // Queue: 3 for 10 us, 1 for 10 us, 0 for 10 us.
  CHECK(st.mean_queue_length() == Approx((3.0 * 10 + 1.0 * 10) / 30));
  CHECK(st.departures() == 5);
}

TEST_CASE("the FIFO ring grows without losing order", "[core]") {
  Engine engine;
  Log log;
  log.engine = &engine;
  Station st(engine, "dev", 1, &log);
  for (std::uint64_t j = 0; j < 100; ++j) st.arrive(j, 1_us);
  engine.run_for(30_us);   // rotate the ring head
  for (std::uint64_t j = 100; j < 300; ++j) st.arrive(j, 1_us);
  engine.run();
  REQUIRE(log.jobs.size() == 300);
  for (std::uint64_t j = 0; j < 300; ++j) CHECK(log.jobs[j] == j);
}

TEST_CASE("stations reject zero servers and negative service", "[core]") {
  Engine engine;
  CHECK_THROWS_WITH(Station(engine, "x", 0, nullptr), Catch::Contains("servers") && Catch::Contains("[1,"));
  Station st(engine, "x", 1, nullptr);
  CHECK_THROWS_WITH(st.arrive(0, Time::zero() - 1_us), Catch::Contains("service"));
}

TEST_CASE("utilisation after a reset counts only the rest of a job in service", "[core]") {
  Engine engine;
  Station st(engine, "dev", 2, nullptr);
  st.arrive(0, 10_us);
  engine.run_for(4_us);
  st.reset_stats();
  CHECK(st.utilisation() == 0.5);   // empty window: the current busy servers
  engine.run_for(2_us);
  st.arrive(1, 2_us);
  engine.run_for(10_us);            // window [4, 16] us: job 0 busy 6 us, job 1 2 us
  CHECK(st.utilisation() == Approx((6.0 + 2.0) / 12 / 2));
  CHECK(st.mean_in_system() == Approx((6.0 + 2.0) / 12));
}
