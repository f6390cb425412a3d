// The analytic fast path (analytic.hpp).
#include "hcisim/plan/analytic.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "hcisim/core/check.hpp"

namespace hcisim {

AnalyticModel analytic_model(const Scenario& scenario, const ProgressFn& progress) {
  const WorkloadSpec& w = scenario.workload;
  if (w.iops_limit_per_vm > 0)
    throw InvalidArgument("analytic: the scenario is an open loop (workload.iops_limit_per_vm); the network is closed, "
                          "give the closed loop");
  if (w.latency_target_ms > 0)
    throw InvalidArgument("analytic: the scenario runs HCIBench's latency-target mode; give a closed-loop workload");
  AnalyticModel m;
  m.slots = w.vm_count(static_cast<int>(scenario.cluster.hosts.size())) * w.vmdks_per_vm;
  m.configured_outstanding_per_vmdk = w.outstanding_per_vmdk;
  Scenario pilot = scenario;
  // One outstanding I/O per VMDK (per thread for DiskSpd's threads, which each keep one).
  m.pilot_outstanding_per_vmdk = std::max(1, scenario.threads_per_vmdk);
  pilot.workload.outstanding_per_vmdk = m.pilot_outstanding_per_vmdk;
  pilot.workload.validate();
  const auto t0 = std::chrono::steady_clock::now();
  const RunResult r = simulate(pilot, progress);
  m.pilot_wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  m.pilot_iops = r.result.iops;
  m.pilot_latency_ms = r.result.pooled_latency_ms;
  if (!(m.pilot_iops > 0)) throw InvalidArgument("analytic: the pilot run completed no I/O; lengthen workload.duration_s");
  for (const StationUse& s : r.stations) {
    const double demand = s.busy / m.pilot_iops;
    if (!(demand > 0)) continue;
    m.names.push_back(s.name);
    m.stations.push_back({demand, s.servers});
  }
  // Z: what the pilot's latency holds beyond the stations, found by bisection so the network
  // at the pilot's population gives the pilot's latency (0 when the stations alone exceed it).
  const double target = m.pilot_latency_ms / 1e3;
  const int population = m.slots * m.pilot_outstanding_per_vmdk;
  const auto response = [&](double z) { return mva(m.stations, z, {population})[0].response_s; };
  if (response(0) < target) {
    double lo = 0, hi = target;
    for (int i = 0; i < 60; ++i) {
      const double mid = (lo + hi) / 2;
      (response(mid) < target ? lo : hi) = mid;
    }
    m.delay_s = lo;
  }
  return m;
}

std::vector<CurvePoint> analytic_curve(const AnalyticModel& m, const std::vector<int>& outstanding_per_vmdk) {
  std::vector<int> at;
  for (int o : outstanding_per_vmdk) {
    if (o < 1 || o > 4096) check::fail("analytic outstanding I/O per VMDK", o, "1..4096");
    at.push_back(o * m.slots);
  }
  const std::vector<MvaPoint> pts = mva(m.stations, m.delay_s, at);
  std::vector<CurvePoint> out;
  for (std::size_t i = 0; i < pts.size(); ++i)
    out.push_back({outstanding_per_vmdk[i], pts[i].population, pts[i].throughput, pts[i].response_s * 1e3});
  return out;
}

AnalyticKnee analytic_knee(const AnalyticModel& m, double limit_ms) {
  if (!std::isfinite(limit_ms) || !(limit_ms > 0)) check::fail("analytic knee latency target (ms)", limit_ms, "a finite number > 0");
  // Latency grows with the population: bisect on it, up to the workload's own outstanding I/O
  // (as find_knee's closed-loop ceiling).
  const auto at = [&](int n) { return mva(m.stations, m.delay_s, {n})[0]; };
  int lo = 0, hi = std::min(1'000'000, m.slots * m.configured_outstanding_per_vmdk);
  if (at(hi).response_s * 1e3 <= limit_ms) lo = hi;
  while (hi - lo > 1) {
    const int mid = lo + (hi - lo) / 2;
    (at(mid).response_s * 1e3 <= limit_ms ? lo : hi) = mid;
  }
  AnalyticKnee k;
  if (lo >= 1) {
    const MvaPoint p = at(lo);
    k = {p.throughput, p.response_s * 1e3, lo};
  }
  return k;
}

std::vector<int> default_curve_points(const AnalyticModel& m) {
  const double from = m.pilot_outstanding_per_vmdk;
  const double top = std::max(2.0 * from, 2.0 * m.configured_outstanding_per_vmdk);
  std::vector<int> out;
  for (int i = 0; i < 20; ++i) {
    const int o = static_cast<int>(std::lround(from * std::pow(top / from, i / 19.0)));
    if (out.empty() || o > out.back()) out.push_back(o);
  }
  return out;
}

}  // namespace hcisim
