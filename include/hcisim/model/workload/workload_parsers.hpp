// Parsers turning what users ran into a WorkloadSpec. Each throws InvalidArgument naming the
// offending token and what is allowed.
//   HCIBench job names (fioconfig / vdbench naming of vmware-labs/hci-benchmark-appliance):
//     fio-8vmdk-100ws-4k-70rdpct-100randompct-4threads-50compress-50dedupe
//     vdb-8vmdk-100ws-4k-100rdpct-100randompct-8threads
//   DiskSpd command lines: -d60 -W15 -C15 -c128M -t4 -o4 -b8k -L -r -Sh -w50 [targets]
//   fio job options: bs=4k rw=randrw rwmixread=70 iodepth=4 numjobs=2 size=10g
//   presets: oltp32k (32 KiB, 70 % read, 100 % random)
//   HCIBench Easy Run: VMs, VMDKs and outstanding I/O derived from the cluster the way
//     easy-run.rb does (docs/sources.md [S89]).
#pragma once

#include <string>
#include <string_view>

#include "hcisim/storage/cluster_spec.hpp"
#include "hcisim/workload/workload_spec.hpp"

namespace hcisim {

/// "4k", "256K", "1m", "512", "128M", "10g" -> bytes (binary units). Throws naming `what`.
Bytes parse_size(std::string_view text, std::string_view what);

WorkloadSpec parse_hcibench_name(std::string_view name);
WorkloadSpec parse_diskspd(std::string_view command_line);
WorkloadSpec parse_fio_options(std::string_view options);
/// Named presets: "oltp32k".
WorkloadSpec preset(std::string_view name);

/// Easy Run profiles: 4k 100 % read, 4k 0 % read, 4k 70/30, 8k 50/50 (random), and
/// sequential 256k (OSA) / 512k (ESA) read or write.
enum class EasyRunProfile { read_4k, write_4k, mixed_4k_70r, mixed_8k_50r, seq_read, seq_write };
EasyRunProfile parse_easy_run_profile(std::string_view name);
/// Easy Run's layout changed in HCIBench 2.8.4 (8 data disks per VM before, 4 since; see
/// libsim/workload/easy_run.cpp). "2.8.1", "2.8.3", "3.0" -> the layout; throws otherwise.
enum class EasyRunRelease { hcibench_2_8, hcibench_2_8_4 };
EasyRunRelease parse_easy_run_release(std::string_view version);
WorkloadSpec easy_run(const ClusterSpec& cluster, EasyRunProfile profile,
                      EasyRunRelease release = EasyRunRelease::hcibench_2_8_4);

}  // namespace hcisim
