// A host's processors and the CPU cost of each stage of the vSAN I/O path.
//
// Published cycles-per-I/O figures for vSAN do not exist (none found; docs/sources.md),
// so the per-I/O vSAN stage costs below are order-of-magnitude starting points that the
// calibration scales inside a sourced range (data/calibration.yaml, vsan_cpu_scale). The
// guest's cost depends on its operating system's storage stack (GuestOs): a Windows VM's is
// measured (vcdx200, 2024-12 [S72]: 145k cycles per I/O of VM CPU, 58 us at 2.5 GHz; calibration
// windows_guest_cpu_us), a Linux load generator's (fio or vdbench on libaio) is fitted inside
// a range around it (guest_cpu_us). Per-KiB anchors:
//   compression   LZ4 compresses > 500 MB/s per core => ~2 us per KiB ([S74])
//   decompression LZ4 decompresses at several GB/s per core => ~0.25 us per KiB ([S74])
//   dedupe        SHA-1 runs at roughly 1-2 GB/s per core => ~0.5 us per KiB (estimate)
//   checksum      CRC-32C with the SSE4.2 instruction runs at several GB/s => ~0.1 us per KiB
//   network       kernel TCP costs a few us of CPU per message plus copy/checksum per byte;
//                 RDMA offloads most of it ([S63]: "less CPU per IO"; RDMA costs = TCP / 4 here).
// All costs are microseconds of one core at `reference_ghz`; a host whose busy cores run at
// f GHz takes cost * reference_ghz / f (work scales with clock). f is the CPU's sustained
// all-core clock (data/cpus.csv, sustained_ghz), not its base clock. ESXi's default policy,
// Balanced, lowers a CPU's P-state only while it is busy less than Power.MaxCpuLoad of the
// time (vSphere Resource Management, "Host Power Management Policies" [S81] and the Custom policy's
// parameters, whose defaults are Balanced's), so a CPU busier than that keeps its top P-state.
// The model ASSUMES every busy core runs at the all-core turbo, within the package's
// long-duration power limit: on a lightly loaded host (seed 000's at 20-35 % utilisation)
// Balanced may clock a CPU down, and also when it often stalls (Power.UseStallCtr); and the
// turbo needs Turbo Boost enabled in the BIOS, which no source found says of these hosts.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace hcisim {

struct CpuSpec {
  std::string name;            // catalog name, e.g. "intel-xeon-e5-2630-v3"
  int sockets = 1;
  int cores_per_socket = 0;
  int threads_per_core = 1;    // 2 with Hyper-Threading
  double ghz = 0;              // clock the work runs at: the sustained all-core clock
  double base_ghz = 0;         // nominal (base) clock: cpu.usage% counts a busy core as ghz / base_ghz
                               // of one (HostCpu::usage_pct); 0 = not given (counts 1)
  double turbo_ghz = 0;        // one-core maximum turbo, the top of what `ghz` may be: a scenario
                               // clock above it is warned of; 0 = not given
  // What a core does with both hardware threads busy, in single-thread units: 1.25 (VMware
  // vSphere blog, "What is the difference between PCPU Used and PCPU Utilized?", 2013-01 [S80]:
  // with both threads busy each gets 62.5 % of the core). Used when threads_per_core is 2.
  double ht_throughput = 1.25;
  std::string source;

  /// Throws InvalidArgument naming the CPU and the first bad figure.
  void validate() const;
  int cores() const { return sockets * cores_per_socket; }
  int threads() const { return cores() * threads_per_core; }
};

/// The operating system a benchmark VM runs, whose storage stack sets the guest's CPU per
/// I/O: Linux (HCIBench's fio and vdbench VMs, libaio) or Windows (DiskSpd, Iometer).
enum class GuestOs : std::uint8_t { linux_os, windows };
const char* guest_os_name(GuestOs os);

/// Where a host spends CPU on an I/O. `guest` is the benchmark VM itself (fio, vdbench or
/// DiskSpd in the guest plus its virtual disk driver), which HCIBench's host CPU figures include.
enum class CpuStage : std::uint8_t {
  guest,
  vscsi,          // ESXi vSCSI layer
  dom_client,     // DOM client on the VM's host
  dom_owner,      // DOM owner of the object
  component,      // LSOM (OSA) or zDOM/LFS (ESA) on the host holding the component
  checksum,
  compression,
  decompression,
  encryption,
  network,        // TCP/IP or RDMA stack, per message + per KiB, both ends
  destage,        // OSA elevator bookkeeping per batch (ESA's stripe-out is component work)
  dedupe,         // OSA SHA-1 fingerprint per KiB at destage
};
inline constexpr int kCpuStages = 12;
const char* cpu_stage_name(CpuStage stage);

/// TCP receive cost per KiB of payload at reference_ghz for one thread that receives
/// `gbit_s` Gbit/s (a KiB is 8.192 kbit): CpuCosts::tcp_receive_us_per_kib from the
/// calibration's rx_thread_gbit_s.
constexpr double tcp_receive_us_per_kib_at(double gbit_s) { return 8.192 / gbit_s; }
/// rx_thread_gbit_s's value, the middle of its sourced 15-18 Gbit/s (CpuCosts below).
inline constexpr double kRxThreadGbitS = 16.5;

struct CpuCosts {
  double reference_ghz = 2.5;
  // us per I/O (or per message / block) at reference_ghz
  double guest_us = 58;              // a Linux guest (GuestOs::linux_os)
  double windows_guest_us = 58;      // a Windows guest
  double vscsi_us = 3;
  double dom_client_us = 8;
  double dom_owner_us = 8;
  double component_us = 10;
  double destage_us = 4;
  double net_message_us = 4;         // TCP, per message per end
  double rdma_message_us = 1;
  // us per KiB processed at reference_ghz
  double checksum_us_per_kib = 0.1;
  double compression_us_per_kib = 2.0;
  double decompression_us_per_kib = 0.25;
  double encryption_us_per_kib = 0.25;
  double dedupe_us_per_kib = 0.5;
  double net_us_per_kib = 0.2;       // TCP copy + segmentation per KiB, sending end
  // TCP receive per KiB, one thread (a NIC receive queue's, or a shared core's without
  // queues): 8.192 / 16.5 = 0.4965 us, 16.5 Gbit/s per thread at reference_ghz, the middle
  // of the 15-18 Gbit/s one vMotion worker thread moves before its core saturates (Broadcom
  // KB 323379 [S66]; N. Hagoort, "Auto-Tuning vMotion Streams", 2021 [S67]). Set from the calibration's
  // rx_thread_gbit_s, not scaled by cpu_per_kib_scale.
  double tcp_receive_us_per_kib = tcp_receive_us_per_kib_at(kRxThreadGbitS);
  double rdma_us_per_kib = 0.05;

  /// Throws InvalidArgument naming the first negative or non-finite cost.
  void validate() const;
};

}  // namespace hcisim
