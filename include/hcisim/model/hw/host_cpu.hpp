// A host's CPU as a queueing resource: one FIFO station with one server per hardware thread.
// Each piece of I/O-path work (cpu_spec.hpp stages) occupies a thread for its cost scaled to
// the host's clock. While fewer threads are busy than there are cores, ESXi's scheduler
// gives each its own core and the work runs at full speed; a job that starts when every core
// already runs a thread shares a core and runs at ht_throughput / threads_per_core of it
// (62.5 % with 1.25), so a host does at most cores x 1.25 cores' work. When every thread is
// busy work waits, so CPU can become the bottleneck.
// Reports per-host CPU like HCIBench's resource table (seed 000_9809ee29a465ffea.txt [S1]), by
// what vCenter's counters measure (docs/sources.md [S77] [S78] [S80]; Broadcom KB 431027):
//   cpu.utilization% = busy thread time / (logical CPUs x elapsed): time-based, per thread
//                      ("PCPU UTIL"; one fully busy thread per core reads 50 %);
//   cpu.usage%       = the share of cores running at least one thread, with busy threads
//                      spread over cores first: min(busy threads, cores) / cores (time-based
//                      it is esxtop's CORE UTIL; one busy thread per core reads 100 %), times the clock the
//                      cores run at over their base clock (the counter is frequency-based,
//                      KB 431027), at most 100 %.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "hcisim/model/core/engine.hpp"
#include "hcisim/model/core/station.hpp"
#include "hcisim/core/units.hpp"
#include "hcisim/hw/cpu_spec.hpp"
#include "hcisim/hw/network_spec.hpp"

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
  /// `pinned_cores` (0 .. cores-1), with their threads, are taken out of the shared FIFO for worlds of their own
  /// (add_world); their busy time still counts in usage_pct().
  HostCpu(Engine& engine, const std::string& host, const CpuSpec& spec, const CpuCosts& costs, CpuClient& client,
          int pinned_cores = 0);

  /// Core time of `stage` for one I/O (or message) carrying `bytes`, at this host's clock.
  Time cost(CpuStage stage, Bytes bytes, Transport transport = Transport::tcp) const {
    return row_cost(stage == CpuStage::network && transport == Transport::rdma ? static_cast<std::size_t>(kCpuStages)
                                                                                : static_cast<std::size_t>(stage),
                    bytes);
  }
  /// TCP receive cost per payload byte at this host's clock (CpuCosts::tcp_receive_us_per_kib):
  /// what a receive queue's thread spends on each byte (Network::set_receive).
  double tcp_receive_ns_per_byte() const { return tcp_receive_per_kib_ns_ / 1024.0; }
  /// The per-KiB part of receiving `bytes` over TCP, charged to the network stage; the caller
  /// defers it (a receive queue's thread does it on one of the host's cores).
  Time charge_tcp_receive(Bytes bytes) {
    const Time t = Time::round_ns(tcp_receive_per_kib_ns_ * bytes.kib());
    stage_ns_[static_cast<std::size_t>(CpuStage::network)] += t.count_ns();
    return t;
  }
  /// Receiving one message with `bytes` of payload on the job that handles it: the network
  /// stage's fixed part, and TCP's receive cost per KiB (RDMA: the RDMA row, both parts).
  Time charge_receive(Bytes bytes, Transport transport) {
    if (transport == Transport::rdma) return charge(CpuStage::network, bytes, transport);
    const auto row = static_cast<std::size_t>(CpuStage::network);
    const Time t = Time::round_ns(fixed_ns_[row] + tcp_receive_per_kib_ns_ * bytes.kib());
    stage_ns_[row] += t.count_ns();
    return t;
  }
  /// Queues work of `stage` for `bytes`; on_cpu_done(token) when it completes.
  void execute(std::uint64_t token, CpuStage stage, Bytes bytes, Transport transport = Transport::tcp);
  /// Queues `work` of core time directly.
  void execute_for(std::uint64_t token, CpuStage stage, Time work);
  /// The guest's work on one I/O of a VM running `os` (CpuCosts::guest_us or windows_guest_us),
  /// charged to the guest stage.
  Time charge_guest(Bytes bytes, GuestOs os) {
    const Time t = row_cost(os == GuestOs::windows ? kWindowsGuestRow : static_cast<std::size_t>(CpuStage::guest), bytes);
    stage_ns_[static_cast<std::size_t>(CpuStage::guest)] += t.count_ns();
    return t;
  }
  /// One visit doing several stages: charge() each (accounted per stage), then run() the sum.
  Time charge(CpuStage stage, Bytes bytes, Transport transport = Transport::tcp) {
    const Time t = cost(stage, bytes, transport);
    stage_ns_[static_cast<std::size_t>(stage)] += t.count_ns();
    return t;
  }
  void run(std::uint64_t token, Time work) {
    run_own(token, work + deferred_);
    deferred_ = Time::zero();
  }
  /// run() without the deferred work: a job of a world that serves one owner alone (an ESA
  /// object's DOM client world), so the host's deferred work waits for its next shared job.
  /// Returns the job's service time (its work, longer on a core it shares).
  Time run_own(std::uint64_t token, Time work) {
    Time service = work;
    full_speed_work_ += service;
    if (cores_.busy() >= free_cores_) service = Time::round_ns(static_cast<double>(service.count_ns()) * shared_slowdown_);
    cores_.arrive(token, service);
    return service;
  }
  /// Work nobody waits for (e.g. a network stack send): it joins the next run() on this
  /// host, so it occupies a core without an event of its own.
  void defer(Time work) { deferred_ += work; }

  const CpuSpec& spec() const { return spec_; }
  const Station& cores() const { return cores_; }
  /// The shared threads' capacity in threads running alone: cores x hyper-threading's
  /// throughput (a saturated host does cores x 1.25 cores' work), at least 1.
  int full_speed_servers() const {
    return std::max(1, static_cast<int>(std::lround(free_cores_ * spec_.threads_per_core / shared_slowdown_)));
  }
  /// The most full-speed work per second the host's cores do: the shared cores x
  /// hyper-threading's throughput, plus one thread at full speed per server of each pinned
  /// world (its core's other thread is left idle).
  double full_speed_capacity() const {
    double c = free_cores_ * spec_.threads_per_core / shared_slowdown_;
    for (const Station* w : worlds_) c += w->servers();
    return c;
  }
  /// The work given to the shared threads since the last reset, at a thread's full speed (a
  /// thread sharing its core takes longer for the same work): the analytic path's demand.
  Time full_speed_work() const { return full_speed_work_; }
  /// A station of this host's own that runs on its pinned cores, outside the shared FIFO (an
  /// OSA disk group's LSOM worlds, cluster.hpp): its busy time counts in usage_pct().
  void add_world(const Station& world) { worlds_.push_back(&world); }
  double usage_pct() const;          // cpu.usage%
  /// What cpu.usage% counts a busy core as: its clock over its base clock (1 when the base
  /// is not given).
  double usage_clock_factor() const { return spec_.base_ghz > 0 ? spec_.ghz / spec_.base_ghz : 1.0; }
  double utilization_pct() const;    // cpu.utilization%
  /// Share of busy core time spent in `stage` since the last reset (0..1).
  double stage_share(CpuStage stage) const;
  /// Core time charged to `stage` since the last reset.
  Time stage_time(CpuStage stage) const { return Time::ns(stage_ns_[static_cast<std::size_t>(stage)]); }
  void reset_stats();

  void on_departure(Station& station, std::uint64_t job, Time arrived, Time started) override;

 private:
  void build_cost_table();
  /// One cost-table row's time for `bytes` at this clock.
  Time row_cost(std::size_t row, Bytes bytes) const {
    return Time::round_ns(fixed_ns_[row] + per_kib_ns_[row] * bytes.kib());
  }

  CpuSpec spec_;
  CpuCosts costs_;
  double clock_scale_;               // reference_ghz / ghz
  CpuClient& client_;
  Station cores_;
  std::vector<const Station*> worlds_;
  std::array<std::int64_t, kCpuStages> stage_ns_{};
  Time deferred_;
  Time full_speed_work_;             // since the last reset, before any hyper-threading slowdown
  int free_cores_ = 0;               // cores not pinned to worlds
  double shared_slowdown_ = 1.0;     // threads_per_core / ht_throughput for a thread sharing a core
  // Rows: one per stage, then RDMA's network row, then a Windows guest's row.
  static constexpr std::size_t kWindowsGuestRow = kCpuStages + 1;
  std::array<double, kCpuStages + 2> fixed_ns_{};     // per visit, at this clock
  std::array<double, kCpuStages + 2> per_kib_ns_{};   // per KiB, at this clock
  double tcp_receive_per_kib_ns_ = 0;                 // TCP receive per KiB, at this clock
};

}  // namespace hcisim
