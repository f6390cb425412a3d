// What the VMs do, in the terms of the tools people run (HCIBench with fio or vdbench,
// DiskSpd): VMs x VMDKs per VM x outstanding I/Os per VMDK in a closed loop, block size,
// read %, random %, working set, data reducibility, duration and warm-up; optionally an IOPS
// cap per VM (open loop) or HCIBench's latency-target mode.
//
// Parsers for what users actually ran (workload_parsers.hpp) produce this struct.
#pragma once

#include <cstdint>
#include <string>

#include "hcisim/core/units.hpp"
#include "hcisim/hw/cpu_spec.hpp"

namespace hcisim {

enum class WorkloadTool : std::uint8_t { fio, vdbench, diskspd, custom };
const char* tool_name(WorkloadTool tool);

/// The virtual SCSI adapter the VMDKs hang off. It bounds one I/O's transfer: ESXi splits a
/// larger guest I/O into pieces of at most that size, issued together, and the guest I/O
/// completes with its last piece (VMware vSphere blog "PVSCSI and Large IO's", 2014-03 [S85]:
/// PVSCSI passes at most 512 KB, the LSI Logic adapter up to 32 MB).
enum class VscsiAdapter : std::uint8_t { pvscsi, lsilogic };
const char* adapter_name(VscsiAdapter adapter);
Bytes max_transfer(VscsiAdapter adapter);
/// The adapter's default queue depths (VMware KB 2053145 [S84]): PVSCSI 64 per disk and 254 per
/// adapter; LSI Logic SAS 32 and 128.
int default_disk_queue(VscsiAdapter adapter);
int default_adapter_queue(VscsiAdapter adapter);

struct WorkloadSpec {
  std::string name = "custom";      // job name as the tool shows it
  WorkloadTool tool = WorkloadTool::custom;
  int vms = 0;                      // total VMs; 0 = one per host (spread evenly over hosts)
  int vmdks_per_vm = 1;
  int outstanding_per_vmdk = 4;     // fio iodepth x numjobs, vdbench threads, DiskSpd -t x -o
  int threads_per_vmdk = 1;         // DiskSpd -t: threads sharing a VMDK's outstanding I/Os
  Bytes block = Bytes{4096};
  double read_pct = 70;
  double random_pct = 100;
  double working_set_pct = 100;     // share of each VMDK addressed
  Bytes vmdk_size = Bytes{std::int64_t{10} << 30};
  double compress_pct = 0;          // fio buffer_compress_percentage
  double dedupe_pct = 0;            // fio dedupe_percentage
  double duration_s = 30;
  double warmup_s = 5;
  // duration_s: auto. After the warm-up a pilot runs until MSER finds the
  // rate settled; then the measured window runs until the 95 % confidence half-widths of the
  // IOPS and the mean latency are both within auto_precision_pct of their means, or until the
  // pilot and the window together reach auto_max_s (model/core/batch_means.hpp).
  bool auto_duration = false;
  double auto_precision_pct = 1;
  double auto_max_s = 600;
  // Seconds of this workload the cluster ran before the measured window (HCIBench: 1800 s of
  // warm-up after disk preparation; a DiskSpd command line: its -W warm-up when above 0;
  // fio options: their ramp_time when above 0; workload groups: the run's). The simulated
  // warm-up ages the OSA write buffers by that long, time-compressed (write_buffer.hpp
  // "Aging"); 0 = start from empty buffers.
  double history_s = 1800;
  double iops_limit_per_vm = 0;     // > 0: open loop, I/Os issued at this rate per VM
  double latency_target_ms = 0;     // > 0: raise outstanding I/O until p95 reaches it (HCIBench)
  // PVSCSI: VMware's adapter for I/O-intensive data disks. Which one HCIBench's test VMs use
  // is not confirmed; no seed runs blocks above 512 KB, so the choice moves no fitted number.
  VscsiAdapter vscsi = VscsiAdapter::pvscsi;
  // The guest's queue limits in front of the virtual adapter (0: the adapter's default): at
  // most this many of a disk's, and of the adapter's, I/Os are out of the guest at once; the
  // rest wait in the guest, and their latency counts that wait. One adapter per VM.
  int vscsi_disk_queue = 0;
  int vscsi_adapter_queue = 0;
  // The benchmark VM's operating system, whose storage stack sets the guest's CPU per I/O
  // (CpuCosts::guest_us, windows_guest_us): DiskSpd runs on Windows (parse_diskspd sets it),
  // HCIBench's fio and vdbench VMs on Linux.
  GuestOs guest_os = GuestOs::linux_os;
  // The benchmark VM's vCPUs (DiskSpd prints them as "proc count"): only to compare the
  // guest's own CPU table with the model's guest stage (hcisim accuracy); the guest's work
  // runs on the host's cores either way. 0: not stated.
  int vcpus_per_vm = 0;

  /// Throws InvalidArgument naming the field and the allowed range.
  void validate() const;
  /// VMs on a cluster of `hosts` hosts (vms = 0: one per host).
  int vm_count(int hosts) const { return vms > 0 ? vms : hosts; }
  /// Throws InvalidArgument when the outstanding I/Os on `hosts` hosts (each a slot held in
  /// memory) exceed 1,000,000; validate() checks it for one host.
  void check_outstanding(int hosts) const;
  /// e.g. "4k 70% read 100% random, 8 VMs x 8 VMDKs x 4 outstanding".
  std::string describe() const;
};

}  // namespace hcisim
