// A host's CPU as a queueing resource: one FIFO station with one server per physical core.
// Each piece of I/O-path work (cpu_spec.hpp stages) occupies a core for its cost scaled to
// the host's clock; when all cores are busy work waits, so CPU can become the bottleneck.
// Reports per-host CPU like HCIBench's resource table (seed 000_9809ee29a465ffea.txt):
//   cpu.usage%       = busy core time / (cores x elapsed): a core running vSAN work counts
//                      as used (vSphere's "core utilization" view with Hyper-Threading);
//   cpu.utilization% = busy time / (logical CPUs x elapsed): the same work spread over the
//                      logical CPUs, i.e. usage% / threads_per_core.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "hcisim/core/engine.hpp"
#include "hcisim/core/station.hpp"
#include "hcisim/core/units.hpp"
#include "hcisim/hw/cpu_spec.hpp"
#include "hcisim/hw/framing.hpp"

namespace hcisim {

class HostCpu;

/// Told when a piece of CPU work finishes.
class CpuClient {
 public:
  virtual void on_cpu_done(HostCpu& cpu, std::uint64_t token) = 0;

 protected:
  CpuClient() = default;
  CpuClient(const CpuClient&) = default;
  CpuClient& operator=(const CpuClient&) = default;
  ~CpuClient() = default;
};

class HostCpu final : public StationClient {
 public:
  /// `pinned_cores` (0 .. cores-1) are taken out of the shared FIFO for worlds of their own
  /// (add_world); their busy time still counts in usage_pct().
  HostCpu(Engine& engine, const std::string& host, const CpuSpec& spec, const CpuCosts& costs, CpuClient& client,
          int pinned_cores = 0);

  /// Core time of `stage` for one I/O (or message) carrying `bytes`, at this host's clock.
  Time cost(CpuStage stage, Bytes bytes, Transport transport = Transport::tcp) const {
    const auto row = stage == CpuStage::network && transport == Transport::rdma ? static_cast<std::size_t>(kCpuStages)
                                                                                 : static_cast<std::size_t>(stage);
    return Time::round_ns(fixed_ns_[row] + per_kib_ns_[row] * bytes.kib());
  }
  /// Queues work of `stage` for `bytes`; on_cpu_done(token) when it completes.
  void execute(std::uint64_t token, CpuStage stage, Bytes bytes, Transport transport = Transport::tcp);
  /// Queues `work` of core time directly.
  void execute_for(std::uint64_t token, CpuStage stage, Time work);
  /// One visit doing several stages: charge() each (accounted per stage), then run() the sum.
  Time charge(CpuStage stage, Bytes bytes, Transport transport = Transport::tcp) {
    const Time t = cost(stage, bytes, transport);
    stage_ns_[static_cast<std::size_t>(stage)] += t.count_ns();
    return t;
  }
  void run(std::uint64_t token, Time work) {
    cores_.arrive(token, work + deferred_);
    deferred_ = Time::zero();
  }
  /// Work nobody waits for (e.g. a network stack send): it joins the next run() on this
  /// host, so it occupies a core without an event of its own.
  void defer(Time work) { deferred_ += work; }

  const CpuSpec& spec() const { return spec_; }
  const Station& cores() const { return cores_; }
  /// A station of this host's own that runs on its pinned cores, outside the shared FIFO (an
  /// OSA disk group's LSOM worlds, cluster.hpp): its busy time counts in usage_pct().
  void add_world(const Station& world) { worlds_.push_back(&world); }
  double usage_pct() const;          // cpu.usage%
  double utilization_pct() const;    // cpu.utilization%
  /// Share of busy core time spent in `stage` since the last reset (0..1).
  double stage_share(CpuStage stage) const;
  void reset_stats();

  void on_departure(Station& station, std::uint64_t job, Time arrived, Time started) override;

 private:
  void build_cost_table();

  CpuSpec spec_;
  CpuCosts costs_;
  double clock_scale_;               // reference_ghz / ghz
  CpuClient& client_;
  Station cores_;
  std::vector<const Station*> worlds_;
  std::array<std::int64_t, kCpuStages> stage_ns_{};
  Time deferred_;
  std::array<double, kCpuStages + 1> fixed_ns_{};     // per visit, at this clock
  std::array<double, kCpuStages + 1> per_kib_ns_{};   // per KiB, at this clock
};

}  // namespace hcisim
