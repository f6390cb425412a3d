// A closed-loop random/sequential block workload on a Cluster, fio-style: `vms_per_host`
// VMs on every host, each with `disks_per_vm` VMDKs (objects owned by the VM's host), each
// VMDK keeping `outstanding` I/Os in flight (a completion immediately issues the next).
// Offsets are uniform over the working set, aligned to the block size (random), or advance
// block by block and wrap (sequential). Reads vs writes are drawn per I/O.
// Records per-op latency (histograms and moments), throughput, and the time-average number
// in flight so every run can be checked against Little's law (L = X W).
#pragma once

#include <cstdint>
#include <vector>

#include "hcisim/core/engine.hpp"
#include "hcisim/core/latency_histogram.hpp"
#include "hcisim/core/rng.hpp"
#include "hcisim/core/time_weighted.hpp"
#include "hcisim/core/units.hpp"
#include "hcisim/storage/cluster.hpp"

namespace hcisim {

struct ClosedLoopSpec {
  int vms_per_host = 1;
  int disks_per_vm = 1;
  int outstanding = 4;                  // per VMDK
  Bytes block = Bytes{4096};
  double read_fraction = 0.7;           // 0..1
  bool random = true;
  Bytes disk_size = Bytes{std::int64_t{10} << 30};
  double working_set = 1.0;             // share of each VMDK addressed, (0, 1]

  void validate() const;
};

struct LoopResult {
  double seconds = 0;
  double iops = 0;
  double read_iops = 0;
  double write_iops = 0;
  double mbps = 0;                      // decimal MB/s at the VMs
  double mean_latency_us = 0;
  double read_latency_us = 0;
  double write_latency_us = 0;
  double p95_latency_us = 0;
  double mean_in_flight = 0;            // time average, for Little's law
};

class ClosedLoop final : public IoClient {
 public:
  ClosedLoop(Engine& engine, const ClosedLoopSpec& spec, std::uint64_t seed);

  /// Creates the VMDK objects on `cluster` and issues the first I/Os.
  void start(Cluster& cluster);
  /// Restarts the statistics (warm-up cut).
  void reset_stats();
  LoopResult result() const;
  std::uint64_t completed() const { return completed_; }
  const LatencyHistogram& latency(IoOp op) const { return hist_[static_cast<int>(op)]; }

  void on_io_done(Cluster& cluster, std::uint64_t token) override;

 private:
  struct Disk {
    int object = 0;
    int host = 0;
    std::uint64_t next_offset = 0;
    std::uint64_t span_blocks = 1;
  };
  struct Slot {
    Time issued;
    std::uint32_t disk = 0;
    IoOp op = IoOp::read;
  };
  void issue(std::uint32_t slot);

  Engine& engine_;
  ClosedLoopSpec spec_;
  RngStream rng_;
  Cluster* cluster_ = nullptr;
  std::vector<Disk> disks_;
  std::vector<Slot> slots_;
  LatencyHistogram hist_[2];
  LatencyHistogram all_;
  double sum_ns_[2] = {0, 0};
  std::uint64_t count_[2] = {0, 0};
  std::uint64_t completed_ = 0;
  Time since_;
  TimeWeighted in_flight_;
};

}  // namespace hcisim
