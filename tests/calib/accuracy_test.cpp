// Accuracy against the seed measurements with the committed calibration, each row predicted
// as the mean over placement seeds 1..3 (`accuracy --replications 3`), so the bounds guard the
// model rather than one random stream. Where the model meets the accuracy targets
// (docs/accuracy.md, "Where the model stands"), the bounds ARE those targets; where it does not yet, a ratchet just above
// today's level (each named below, with its target) fails a change that makes it worse.
// One test case, so the 3 x 18 runs happen once; tagged [replicated], it runs in the Release
// build (README, Quick start).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "hcisim/calib/accuracy.hpp"

using namespace hcisim;

namespace {

// The prediction of one row, by seed, scenario (a part of its file name) and metric.
const Prediction& row(const AccuracyReport& r, const std::string& seed, const std::string& scenario,
                      const std::string& metric) {
  for (const Prediction& p : r.rows)
    if (p.m.seed_file.rfind(seed, 0) == 0 && p.m.scenario.find(scenario) != std::string::npos && p.m.metric == metric &&
        p.cls != AccuracyClass::unsupported && !per_host_cpu_row(p.m))   // CPU: the Average row
      return p;
  FAIL("no predicted row " << seed << " " << scenario << " " << metric);
  throw;
}

double worst_seed_pct(const Prediction& p) {   // the farther of the lowest and highest seed's error
  const double lo = (p.predicted_min - p.m.value) / std::fabs(p.m.value) * 100;
  const double hi = (p.predicted_max - p.m.value) / std::fabs(p.m.value) * 100;
  return std::max(std::fabs(lo), std::fabs(hi));
}

}  // namespace

TEST_CASE("predictions of the seed measurements, over placement seeds 1-3", "[accuracy][replicated]") {
  AccuracyOptions o;
  o.repo_dir = default_data_dir() + "/..";
  o.replications = 3;
  const AccuracyReport r = evaluate(load_measurements(default_data_dir() + "/measurements.csv"), HardwareCatalog::load(), o);
  const AccuracySummary& s = r.summary;
  INFO(format_accuracy(r, false));
  CHECK(s.throughput_rows >= 12);
  CHECK(s.latency_rows >= 11);
  CHECK(s.ratio_rows >= 9);

  // Host CPU (target): seed 000's usage and utilization within 20 % in both runs. The 256K
  // write's rows are a ratchet (-38 %, -40 % with the committed calibration): one LSOM world per disk group caps its
  // destage CPU, where the hosts burned more than a core more, and the congested groups hold
  // their writers at the DOM client (docs/accuracy.md).
  for (const char* scenario : {"fio-4k-70r", "fio-256k-seqwrite"})
    for (const char* metric : {"cpu_usage_pct", "cpu_utilization_pct"}) {
      const Prediction& p = row(r, "000", scenario, metric);
      INFO(scenario << " " << metric << ": measured " << p.m.value << ", predicted " << p.predicted);
      CHECK(std::fabs(p.error_pct) <= (std::string(scenario) == "fio-4k-70r" ? 20.0 : 45.0));
    }

  // Each host's own CPU rows are predicted too, the k-th busiest measured host against the
  // model's k-th busiest (placement decides which simulated host is which), so a busier
  // measured host never gets a lower prediction. Not fitted and not bounded: the 256K run's
  // three busy hosts are -42 to -47 % where its light one is -8 % (docs/accuracy.md).
  for (const char* scenario : {"fio-4k-70r", "fio-256k-seqwrite"})
    for (const char* metric : {"cpu_usage_pct", "cpu_utilization_pct"}) {
      std::vector<const Prediction*> hosts;
      for (const Prediction& p : r.rows)
        if (p.m.seed_file.rfind("000", 0) == 0 && p.m.scenario.find(scenario) != std::string::npos &&
            p.m.metric == metric && per_host_cpu_row(p.m)) {
          CHECK(p.cls == AccuracyClass::other);
          hosts.push_back(&p);
        }
      REQUIRE(hosts.size() == 4);
      std::sort(hosts.begin(), hosts.end(), [](const Prediction* a, const Prediction* b) { return a->m.value < b->m.value; });
      for (std::size_t i = 1; i < hosts.size(); ++i) CHECK(hosts[i]->predicted >= hosts[i - 1]->predicted);
      // The four paired predictions are the model's four hosts: their mean is the Average
      // row's prediction, and the model's hosts are not all alike.
      double sum = 0;
      for (const Prediction* h : hosts) sum += h->predicted;
      CHECK(sum / 4 == Approx(row(r, "000", scenario, metric).predicted).epsilon(1e-9));
      CHECK(hosts.back()->predicted > hosts.front()->predicted);
    }

  // Seed 000 4K 70/30 (targets): reads within 30 %, a read p95 at least twice the read mean,
  // and the IOPS the right bottleneck gives within 30 % on every seed.
  const Prediction& read = row(r, "000", "fio-4k-70r", "read_latency_ms");
  const Prediction& write = row(r, "000", "fio-4k-70r", "write_latency_ms");
  CHECK(std::fabs(read.error_pct) <= 30.0);
  CHECK(row(r, "000", "fio-4k-70r", "read_p95_ms").predicted >= 2.0 * read.predicted);
  // Both p95 rows within 30 % of the interval HCIBench's whole-millisecond figure stands for
  // (10-11 and 1-2 ms; accuracy.hpp, error_pct): +11 % and 0 % today.
  for (const char* metric : {"read_p95_ms", "write_p95_ms"}) {
    const Prediction& p = row(r, "000", "fio-4k-70r", metric);
    INFO(metric << ": predicted " << p.predicted << ", error " << p.error_pct << " %");
    CHECK(std::fabs(p.error_pct) <= 30.0);
  }
  CHECK(worst_seed_pct(row(r, "000", "fio-4k-70r", "iops")) <= 30.0);
  // Writes: a ratchet at 35 % (target 30 %). They wait for the elevator's batch and the
  // components' checksum checks on their group's LSOM world and, at each hop, for their
  // receive queue's next interrupt: 0.58 ms against the measured 0.87 (-33.5 %; -32.0 % with
  // every host's client cache at 1 GiB, -29.9 % with the TCP receive cost tied to
  // cpu_per_kib_scale, before rx_thread_gbit_s; 0.53-0.62 ms over the placement seeds). How much of the elevator's backlog falls in the window
  // decides this row, and small changes elsewhere move it by several points.
  CHECK(std::fabs(write.error_pct) <= 35.0);

  // Seed 004 (targets): the best Optane/SAS throughput ratio of the 24 cases at least 2x, the
  // best latency ratio at most 0.5 (stated: up to 3x, about 1/3).
  CHECK(row(r, "004", "sweep", "throughput_ratio").predicted >= 2.0);
  CHECK(row(r, "004", "sweep", "latency_ratio").predicted <= 0.5);

  // Seed 003 (targets): the 256K write gain within 2.6-4.4x, the 4K read gain +100K..+300K.
  const double bw = row(r, "003", "256k-seqwrite", "bandwidth_ratio").predicted;
  CHECK(bw >= 2.6);
  CHECK(bw <= 4.4);
  const double gain = row(r, "003", "4k-100r", "iops_gain").predicted;
  CHECK(gain >= 100'000);
  CHECK(gain <= 300'000);

  // Seed 001, ESA, out of sample (targets): the OLTP32K peak gain from 25 to 100 GbE within
  // +58..+98 % (stated +78 %) and the latency change at that peak within 15 points of -49 %.
  // The two OLTP32K latency points (target 30 %) and the 100 GbE 512K read (target 15 %) are
  // ratchets: the latency no modelled resource holds, and the NICs' receive queues
  // (docs/accuracy.md).
  const double esa_gain = row(r, "001", "100gbe-oltp32k", "peak_iops_gain_pct").predicted;
  CHECK(esa_gain >= 58.0);
  CHECK(esa_gain <= 98.0);
  int at_peak = 0;
  for (const Prediction& p : r.rows)
    if (p.m.seed_file.rfind("001", 0) == 0 && p.m.metric == "latency_change_pct" && p.m.value == -49) {
      ++at_peak;
      INFO("latency change at the peak " << p.predicted);
      CHECK(std::fabs(p.predicted - p.m.value) <= 15.0);
    }
  CHECK(at_peak == 1);
  for (const char* speed : {"25gbe-oltp32k", "100gbe-oltp32k"}) {
    const Prediction& p = row(r, "001", speed, "total_latency_ms");
    INFO(speed << " latency point: measured " << p.m.value << ", predicted " << p.predicted);
    CHECK(std::fabs(p.error_pct) <= 35.0);
  }
  CHECK(std::fabs(row(r, "001", "100gbe-512k-read", "throughput_mbps").error_pct) <= 20.0);

  // IOPS/throughput over every seed (targets: median 12 %, max 30 %), both medians: with seed
  // 002's two runs scored against their midpoint (as the targets score them) and apart. The max is
  // a ratchet: seed 002 is out of sample and misses by far (docs/accuracy.md).
  CHECK(s.throughput_noise_median_pct <= 12.0);
  CHECK(s.throughput_median_abs_pct <= 12.0);
  CHECK(s.throughput_max_abs_pct <= 150.0);
  double worst = 0;
  for (const Prediction& p : r.rows)
    if (p.cls == AccuracyClass::throughput) worst = std::max(worst, worst_seed_pct(p));
  CHECK(worst <= 190.0);
  // The in-sample seeds' IOPS rows (000, 003) within 15 %: with the committed calibration seed 003's 70/30 +6.9 % is
  // the farthest (seed 003's 8K 50/50 was -14.3 % at base clocks), so the bound is the
  // margin a model change may spend before it shows here.
  for (const Prediction& p : r.rows)
    if (p.cls == AccuracyClass::throughput && (p.m.seed_file.rfind("000", 0) == 0 || p.m.seed_file.rfind("003", 0) == 0)) {
      INFO(p.m.scenario << " " << p.m.metric);
      CHECK(std::fabs(p.error_pct) <= 15.0);
    }
}
