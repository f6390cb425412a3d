// The benchmark VMs: WorkloadSpec.vms VMs spread round-robin over the hosts (as HCIBench
// deploys them), each with vmdks_per_vm VMDK objects owned by its host.
//   closed loop (default): every VMDK keeps outstanding_per_vmdk I/Os in flight (fio iodepth,
//     vdbench threads); a completion immediately issues the next.
//   IOPS limit per VM (open loop, fio rate_iops): I/Os are released evenly at the rate and
//     issued when a slot of the VM is free (at most outstanding_per_vmdk per VMDK). While every
//     slot of a VM is busy its release clock stops; the next completion counts the releases
//     due since then into the backlog and reuses its own slot, so the cost follows completed
//     I/O, not the offered rate (an overloaded open loop costs no event per offered I/O).
//   latency target (HCIBench/fio latency_target, percentile 95): every window the pooled
//     p95 of that window is compared with the target; the depth per VMDK grows by one while
//     it is met and shrinks by one when it is not (between 1 and outstanding_per_vmdk).
// Offsets are uniform over the working set, block-aligned (random), or run block by block
// per VMDK (sequential); the random % decides per I/O. Statistics are kept per VM and per
// op for I/Os issued after the warm-up cut, so HCIBench's per-VM averaging is exact.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "hcisim/model/core/engine.hpp"
#include "hcisim/core/latency_histogram.hpp"
#include "hcisim/model/core/rng.hpp"
#include "hcisim/model/core/time_weighted.hpp"
#include "hcisim/core/units.hpp"
#include "hcisim/model/storage/cluster.hpp"
#include "hcisim/workload/workload_result.hpp"
#include "hcisim/workload/workload_spec.hpp"

namespace hcisim {

/// One VM's measurements since the warm-up cut.
struct VmStats {
  int host = 0;
  std::array<LatencyHistogram, 2> latency;      // by IoOp
  std::array<double, 2> sum_ns{0, 0};
  std::array<double, 2> sum_sq_ns{0, 0};
  std::array<std::uint64_t, 2> ios{0, 0};
  std::array<std::int64_t, 2> bytes{0, 0};
  std::array<LatencyParts, 2> split{};          // summed latency parts (latency_split.hpp)
  // For Little's law over the window (audit()): the I/Os in flight over time, and the part
  // of the window spent by I/Os issued before the cut that completed in it.
  TimeWeighted in_flight;
  double carried_in_ns = 0;
  std::array<std::int64_t, 2> dispatched_bytes{0, 0};   // out of the guest since the cut
};

class VmWorkload final : public IoClient, public EventHandler {
 public:
  /// Workload groups a cluster runs at once (Scenario::groups): tokens carry the group.
  static constexpr int kMaxGroups = 64;
  /// `threads_per_vmdk` groups each VMDK's slots into that many threads (DiskSpd -t). `group`
  /// (0..kMaxGroups-1) names this workload among several on one cluster: its tokens carry it
  /// in their upper 32 bits (group_of), its random stream is its own, and its VMs continue the
  /// round-robin over the hosts after the `first_vm` VMs of the groups before it.
  VmWorkload(Engine& engine, const WorkloadSpec& spec, std::uint64_t seed, int threads_per_vmdk = 1,
             std::uint64_t replication = 0, int group = 0, int first_vm = 0);
  /// The group a completion's token belongs to.
  static int group_of(std::uint64_t token) { return static_cast<int>(token >> 32); }

  /// Creates the VMDK objects on `cluster` and starts the I/O.
  void start(Cluster& cluster);
  /// Warm-up cut: statistics restart now (I/Os already in flight are not counted).
  void reset_stats();

  const WorkloadSpec& spec() const { return spec_; }
  int vms() const { return static_cast<int>(vms_.size()); }
  const std::vector<VmStats>& vm_stats() const { return vms_; }
  const std::vector<ThreadStats>& thread_stats() const { return threads_; }
  Time measured_since() const { return since_; }
  /// Time-average number of I/Os in flight since the warm-up cut (Little's law: L).
  double mean_in_flight() const { return in_flight_.mean(engine_.now()); }
  /// I/Os in flight allowed per VMDK now (the latency-target controller moves it).
  int depth() const { return depth_; }
  /// Completions since the start, and their summed latency (the batch series of a run's
  /// confidence intervals counts I/Os by completion time, warm-up cut or not).
  std::uint64_t completed() const { return completed_; }
  std::int64_t completed_latency_ns() const { return completed_latency_ns_; }
  /// I/Os of VM `vm` out of the guest now (past the virtual adapter's queues).
  int dispatched(int vm) const { return vm_dispatched_[static_cast<std::size_t>(vm)]; }
  /// Completions since the warm-up cut.
  std::uint64_t measured() const;
  /// The guest I/O that has been in flight longest now (none: `found` false).
  struct InFlight {
    bool found = false;
    Time issued;
    int vm = 0;
    int vmdk = 0;   // within the VM
    IoOp op = IoOp::read;
  };
  InFlight oldest_in_flight() const;
  /// The end-of-run invariants of the guest side; empty when they hold,
  /// else what broke, naming the VM:
  ///  - every I/O issued has completed or is in flight (a busy slot); in a closed loop every
  ///    slot is busy; every operation out of the guest is live in the cluster
  ///    (`cluster_live_requests`);
  ///  - Little's law over the window, per VM, in its finite-window form (Kim and Whitt,
  ///    "Statistical analysis with Little's law", Operations Research 61(4), 2013 [S122]): the area
  ///    under the VM's I/Os in flight equals the latencies of the I/Os issued and completed in
  ///    the window plus the parts of the window spent by those in flight at either edge.
  std::string audit(Time now, std::uint64_t cluster_live_requests) const;
  /// Operations of this workload's I/Os in the cluster now (past the guest, not completed).
  std::uint64_t operations_out() const;

  void on_io_done(Cluster& cluster, std::uint64_t token) override;
  void on_event(Engine& engine, EventTag tag, std::uint64_t arg) override;

 private:
  struct Vmdk {
    int object = 0;
    int vm = 0;
    int host = 0;
    int active = 0;                 // slots in flight
    int dispatched = 0;             // of them, out of the guest (past the disk queue)
    std::uint64_t next_block = 0;
    std::uint64_t span_blocks = 1;
    std::uint32_t first_slot = 0;   // its slots: [first_slot, first_slot + slots)
    std::uint32_t slots = 0;
  };
  struct Slot {
    Time issued;
    Time dispatched;                // out of the guest, past the adapter's queues
    std::uint32_t vmdk = 0;
    std::uint32_t thread = 0;       // index into threads_
    IoOp op = IoOp::read;
    bool busy = false;
    bool random = false;
    std::uint64_t block = 0;        // the guest I/O's block, kept while it waits in the guest
    std::uint16_t pieces_left = 0;  // operations of the guest I/O still in flight (adapter
                                    // pieces, RAID-0 units: at most 16 MiB / 4 KiB)
  };
  enum Tag : EventTag { kRelease = 1, kWindow = 2 };
  void issue(std::uint32_t slot);
  void dispatch(std::uint32_t slot);
  // A guest I/O of `vm` left the adapter: dispatch the oldest waiting ones that now fit.
  void release(int vm);
  std::uint32_t free_slot_of_vm(int vm);
  // Open loop: count the releases of `vm` due by now while its clock was stopped.
  void catch_up(int vm);
  void set_busy(std::uint32_t slot, bool busy);
  void window();

  Engine& engine_;
  WorkloadSpec spec_;
  int threads_per_vmdk_;
  RngStream rng_;
  std::uint64_t token_tag_ = 0;   // group << 32, or-ed into every token it submits
  int first_vm_ = 0;
  Cluster* cluster_ = nullptr;
  std::vector<Vmdk> vmdks_;
  std::vector<Slot> slots_;
  std::vector<VmStats> vms_;
  std::vector<ThreadStats> threads_;
  // Open loop, per VM: I/Os released but not yet issued; the time of the next release; and
  // whether its release event is scheduled (it is not while every slot is busy).
  std::vector<std::uint64_t> backlog_;
  std::vector<Time> next_release_;
  std::vector<char> clock_running_;
  Time release_gap_;
  std::vector<std::uint64_t> busy_bits_;   // one bit per slot (free_slot_of_vm's word scan)
  std::vector<std::uint32_t> vm_first_slot_;   // slots of VM v: [vm_first_slot_[v], vm_first_slot_[v + 1])
  std::int64_t piece_bytes_ = 0;   // the virtual adapter's largest transfer, capped at the block
  // The virtual adapter's queues (WorkloadSpec::vscsi_*_queue): off when they cannot bind.
  bool queues_bind_ = false;
  int disk_queue_ = 0;
  int adapter_queue_ = 0;
  std::vector<int> vm_dispatched_;                      // per VM, out of the guest
  std::vector<std::vector<std::uint32_t>> waiting_;    // per VM, slots waiting in the guest, oldest first
  int depth_ = 0;
  bool open_loop_ = false;
  bool latency_target_ = false;
  LatencyHistogram window_hist_;
  std::uint64_t completed_ = 0;
  std::uint64_t issued_ = 0;
  std::int64_t completed_latency_ns_ = 0;
  Time since_;
  TimeWeighted in_flight_;
};

}  // namespace hcisim
