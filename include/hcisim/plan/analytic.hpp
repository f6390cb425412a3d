// The analytic fast path (issue 23, item 3): a scenario as a closed queueing network solved by
// mean-value analysis (core/mva.hpp), giving a whole IOPS-latency curve in microseconds.
//
// Stations are the simulator's own resources (each host's CPU threads, each device's units,
// dies or firmware cores, each LSOM world, each network port), and their demands per guest I/O
// come from the storage model itself: one pilot run of the scenario at one outstanding I/O per
// VMDK (per DiskSpd thread) measures each resource's utilisation U, and the utilisation law gives its demand
// D = U x servers / IOPS (Denning and Buzen, "The Operational Analysis of Queueing Network
// Models", Computing Surveys 10(3), 1978). So every amplification the storage model applies
// (replicas, parity, destage, dedupe lookups, map misses, network bytes) is in the demands,
// averaged over reads and writes. What the stations do not hold (wire and stack latencies,
// device pipelines, congestion delays) is one delay Z, set so that the network reproduces the
// pilot's latency. The population is the workload's outstanding I/O: VMs x VMDKs x outstanding
// per VMDK. Not modelled: percentiles (mean latency only), load-dependent service (write-buffer
// fill, congestion, NAND contention beyond its servers), and fork-join (a write waits for the
// slowest replica; MVA adds their mean demands).
#pragma once

#include <string>
#include <vector>

#include "hcisim/core/mva.hpp"
#include "hcisim/scenario/scenario.hpp"
#include "hcisim/scenario/simulation.hpp"

namespace hcisim {

struct AnalyticModel {
  std::vector<std::string> names;      // one per station
  std::vector<MvaStation> stations;
  double delay_s = 0;                  // Z
  int slots = 1;                       // VMs x VMDKs: population per outstanding I/O per VMDK
  int configured_outstanding_per_vmdk = 1;
  int pilot_outstanding_per_vmdk = 1;  // 1, or DiskSpd's threads per VMDK
  double pilot_iops = 0, pilot_latency_ms = 0;   // the pilot run (outstanding 1 per VMDK)
  double pilot_wall_s = 0;
};

/// Builds the model from one pilot run. Throws InvalidArgument for an open-loop or
/// latency-target scenario (the network is closed: give the closed loop).
AnalyticModel analytic_model(const Scenario& scenario, const ProgressFn& progress = {});

struct CurvePoint {
  int outstanding_per_vmdk = 0;
  int population = 0;
  double iops = 0;
  double latency_ms = 0;
};

/// The curve at each outstanding I/O per VMDK in `outstanding_per_vmdk` (each >= 1).
std::vector<CurvePoint> analytic_curve(const AnalyticModel& m, const std::vector<int>& outstanding_per_vmdk);

/// The highest IOPS whose mean latency stays at or under `limit_ms`, over populations up to the
/// workload's configured outstanding I/O (find_knee's ceiling), and the population where it is
/// reached; iops 0 when even one outstanding I/O misses it.
struct AnalyticKnee {
  double iops = 0;
  double latency_ms = 0;
  int population = 0;
};
AnalyticKnee analytic_knee(const AnalyticModel& m, double limit_ms);

/// Up to 20 outstanding-I/O-per-VMDK points from the pilot's (1, or DiskSpd's threads) to twice
/// the configured value, spaced evenly in log.
std::vector<int> default_curve_points(const AnalyticModel& m);

}  // namespace hcisim
