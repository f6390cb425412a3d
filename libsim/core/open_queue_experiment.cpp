// G/G/c experiment: a source schedules arrivals, the station serves them FIFO, the sink
// cuts warm-up (statistics restart after `warmup_customers` departures) and stops the
// engine after `customers` measured departures.
#include "hcisim/model/core/open_queue_experiment.hpp"

#include <memory>

#include "hcisim/core/check.hpp"
#include "hcisim/model/core/engine.hpp"
#include "hcisim/core/latency_histogram.hpp"
#include "hcisim/model/core/moments.hpp"
#include "hcisim/model/core/rng.hpp"
#include "hcisim/model/core/station.hpp"

namespace hcisim {

namespace {

class Experiment final : public EventHandler, public StationClient {
 public:
  explicit Experiment(const OpenQueueSpec& spec)
      : spec_(spec),
        arrivals_rng_(spec.seed, spec.replication, "source/interarrival"),
        service_rng_(spec.seed, spec.replication, "station/service"),
        station_(engine_, "station", spec.servers, this) {
    engine_.enable_trace_hash(spec.trace_hash);
  }

  OpenQueueResult run() {
    engine_.schedule_after(Time::round_ns(spec_.interarrival_ns.sample(arrivals_rng_)), *this);
    if (spec_.warmup_customers == 0) start_measuring();
    engine_.run();
    OpenQueueResult r;
    r.completed = sojourn_.count();
    const double window = (engine_.now() - measure_start_).seconds();
    r.throughput_per_s = window > 0 ? static_cast<double>(r.completed) / window : 0.0;
    r.mean_sojourn_s = sojourn_.mean_ns() * 1e-9;
    r.mean_wait_s = wait_.mean() * 1e-9;
    r.p50_sojourn = sojourn_.percentile(0.50);
    r.p95_sojourn = sojourn_.percentile(0.95);
    r.p99_sojourn = sojourn_.percentile(0.99);
    r.p999_sojourn = sojourn_.percentile(0.999);
    r.mean_in_system = station_.mean_in_system();
    r.mean_queue_length = station_.mean_queue_length();
    r.utilisation = station_.utilisation();
    r.events = engine_.events_fired();
    r.trace_hash = engine_.trace_hash();
    return r;
  }

  // Arrival: one job joins the station, the next arrival is scheduled.
  void on_event(Engine& engine, EventTag, std::uint64_t) override {
    station_.arrive(next_job_++, Time::round_ns(spec_.service_ns.sample(service_rng_)));
    engine.schedule_after(Time::round_ns(spec_.interarrival_ns.sample(arrivals_rng_)), *this);
  }

  void on_departure(Station&, std::uint64_t, Time arrived, Time started) override {
    ++departed_;
    if (departed_ <= spec_.warmup_customers) {
      if (departed_ == spec_.warmup_customers) start_measuring();
      return;
    }
    sojourn_.record(engine_.now() - arrived);
    wait_.add(static_cast<double>((started - arrived).count_ns()));
    if (sojourn_.count() == spec_.customers) engine_.stop();
  }

 private:
  void start_measuring() {
    station_.reset_stats();
    measure_start_ = engine_.now();
  }

  const OpenQueueSpec& spec_;
  Engine engine_;
  RngStream arrivals_rng_;
  RngStream service_rng_;
  Station station_;
  std::uint64_t next_job_ = 0;
  std::uint64_t departed_ = 0;
  Time measure_start_ = Time::zero();
  LatencyHistogram sojourn_;
  Moments wait_;
};

}  // namespace

OpenQueueResult run_open_queue(const OpenQueueSpec& spec) {
  check::in_range(spec.servers, 1, 1 << 20, "OpenQueueSpec.servers");
  check::in_range(static_cast<std::int64_t>(spec.customers), 1, std::int64_t{1} << 40, "OpenQueueSpec.customers");
  auto experiment = std::make_unique<Experiment>(spec);
  return experiment->run();
}

}  // namespace hcisim
