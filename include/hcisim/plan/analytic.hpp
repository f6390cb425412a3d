// The analytic fast path: a scenario as a closed queueing network solved by
// mean-value analysis (core/mva.hpp), giving a whole IOPS-latency curve in microseconds.
//
// Stations are the simulator's own resources (each host's CPU threads, each device's units,
// dies or firmware cores, each LSOM world, each network port), and their demands per guest I/O
// come from the storage model itself: one pilot run of the scenario at one outstanding I/O per
// VMDK (per DiskSpd thread) measures each resource's utilisation U, and the utilisation law gives its demand
// D = U x servers / IOPS (Denning and Buzen, "The Operational Analysis of Queueing Network
// Models", Computing Surveys 10(3), 1978 [S121]). So every amplification the storage model applies
// (replicas, parity, destage, dedupe lookups, map misses, network bytes) is in the demands,
// averaged over reads and writes (one class). What the stations do not hold (wire and stack
// latencies, device pipelines, congestion delays) is one delay Z, and where the stations'
// demands add up to more than the pilot's latency (a write's replicas, a stripe's columns and
// overlapping network hops run in parallel), the share f of their residence a job waits for in
// series (the fork-join correction, core/mva.hpp): Z when the stations fall short of the pilot,
// f when they exceed it, so the network reproduces the pilot's IOPS and latency. The population
// is the workload's outstanding I/O: VMs x VMDKs x outstanding per VMDK, a closed loop (find_knee
// drives an open one; at the ceiling they agree). Not modelled: percentiles (mean latency only),
// load-dependent service (write-buffer fill, congestion, NAND contention beyond its servers),
// and reads and writes as separate classes. The pilot is a simulation: the curve takes
// microseconds once the model exists, the pilot a fraction of a second.
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
  double overlap = 1;                  // f: the fork-join share (core/mva.hpp), fitted with Z
  int slots = 1;                       // VMs x VMDKs: population per outstanding I/O per VMDK
  int configured_outstanding_per_vmdk = 1;
  int pilot_outstanding_per_vmdk = 1;  // 1, or DiskSpd's threads per VMDK
  double pilot_iops = 0, pilot_latency_ms = 0;   // the pilot run (outstanding 1 per VMDK)
  double pilot_wall_s = 0;
  double pilot_window_scale = 1;       // its window and warm-up over the scenario's: doubled, up to
  std::string window_note;             // 8 times, until it holds 400 I/Os and Little's law; else why not
  // What the fit of Z or f does not reproduce: f pinned at its lower bound, the fitted network
  // more than 10 % off the pilot's latency at the pilot's population, or a pilot whose IOPS x
  // mean latency is more than 10 % off its population (when window_note does not say so).
  std::vector<std::string> fit_notes;
  int fit_solutions = 0;               // network solutions the fit took (each up to the pilot's population)
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
  /// The workload's own outstanding I/O still meets the target: the configured population,
  /// not the cluster, sets the knee (as KneeResult::ceiling).
  bool ceiling = false;
};
AnalyticKnee analytic_knee(const AnalyticModel& m, double limit_ms);

/// The most IOPS any population gets through the network: the bottleneck law's min over the
/// stations of servers / demand (infinity with no station); `station` names that station.
double analytic_ceiling(const AnalyticModel& m, std::string* station = nullptr);

/// What `hcisim curve` reports: the model, its curve and, when checked, the simulator beside
/// it (closed-loop runs at the same points and find_knee at the same mean target).
struct CurveReport {
  std::string scenario;
  AnalyticModel model;
  std::vector<CurvePoint> curve;
  double mva_ms = 0;                     // wall time of the curve itself
  bool checked = false;
  std::vector<double> sim_iops, sim_latency_ms;   // per point, when checked
  double limit_ms = 0;                   // > 0: the knee under this mean latency
  AnalyticKnee knee;
  double sim_knee_iops = 0;              // checked: find_knee's (NaN when it found none)
  bool sim_knee_ceiling = false;         // checked: find_knee's closed loop meets the target
};
/// Builds the model, draws the default curve and, with `limit_ms` > 0, its knee; with `check`,
/// simulates every point and the knee (`jobs` at a time, 0: every core).
CurveReport curve_report(const Scenario& scenario, bool check, double limit_ms, int jobs = 0,
                         const ProgressFn& progress = {});
std::string format_curve(const CurveReport& r);
std::string to_json(const CurveReport& r);

/// Up to 20 outstanding-I/O-per-VMDK points from the pilot's (1, or DiskSpd's threads) to twice
/// the configured value, spaced evenly in log.
std::vector<int> default_curve_points(const AnalyticModel& m);

}  // namespace hcisim
