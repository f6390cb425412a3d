// Validation and description of workload specs.
#include "hcisim/workload/workload_spec.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "hcisim/core/check.hpp"

namespace hcisim {

const char* tool_name(WorkloadTool tool) {
  switch (tool) {
    case WorkloadTool::fio: return "fio";
    case WorkloadTool::vdbench: return "vdbench";
    case WorkloadTool::diskspd: return "diskspd";
    case WorkloadTool::custom: return "custom";
  }
  return "?";
}

const char* adapter_name(VscsiAdapter adapter) {
  return adapter == VscsiAdapter::pvscsi ? "pvscsi" : "lsilogic";
}

int default_disk_queue(VscsiAdapter adapter) { return adapter == VscsiAdapter::pvscsi ? 64 : 32; }
int default_adapter_queue(VscsiAdapter adapter) { return adapter == VscsiAdapter::pvscsi ? 254 : 128; }

Bytes max_transfer(VscsiAdapter adapter) {
  return adapter == VscsiAdapter::pvscsi ? Bytes{512 << 10} : Bytes{32 << 20};
}

namespace {
void percent(double v, const char* field) {
  if (!(v >= 0 && v <= 100)) check::fail(std::string("workload ") + field, v, "a percentage 0..100");
}
}  // namespace

void WorkloadSpec::validate() const {
  check::in_range(vms, 0, 10000, "workload vms");
  check::in_range(vmdks_per_vm, 1, 64, "workload vmdks_per_vm");
  check::in_range(outstanding_per_vmdk, 1, 1024, "workload outstanding_per_vmdk");
  check::in_range(vscsi_disk_queue, 0, 1024, "workload vscsi_disk_queue (0: the adapter's default)");
  check::in_range(vscsi_adapter_queue, 0, 4096, "workload vscsi_adapter_queue (0: the adapter's default)");
  check::in_range(vcpus_per_vm, 0, 768, "workload vcpus_per_vm (0: not stated; vSphere 8 allows 768)");
  check::in_range(block.count(), 512, 16 << 20, "workload block_size bytes");
  if (block.count() % 512 != 0) check::fail("workload block_size bytes", block.count(), "a multiple of 512");
  percent(read_pct, "read_pct");
  percent(random_pct, "random_pct");
  if (!(working_set_pct > 0 && working_set_pct <= 100))
    check::fail("workload working_set_pct", working_set_pct, "a percentage in (0, 100]");
  if (vmdk_size.count() < block.count()) check::fail("workload vmdk_size bytes", vmdk_size.count(), "at least one block");
  // The VMDK's region the I/Os cover holds at least one block (1e-300 % would run as a
  // working set of one block, every read a cache hit, without a word).
  if (static_cast<double>(vmdk_size.count()) * working_set_pct / 100.0 < static_cast<double>(block.count())) {
    // The smallest share, printed to 6 significant digits rounded up, so that the value
    // printed is itself accepted.
    const auto holds = [&](double pct) {
      return static_cast<double>(vmdk_size.count()) * pct / 100.0 >= static_cast<double>(block.count());
    };
    char shown[32];
    std::snprintf(shown, sizeof shown, "%.6g", 100.0 * static_cast<double>(block.count()) / static_cast<double>(vmdk_size.count()));
    for (double pct = std::strtod(shown, nullptr); !holds(pct);) {
      pct += std::pow(10.0, std::floor(std::log10(pct)) - 5);   // one in the 6th significant digit
      std::snprintf(shown, sizeof shown, "%.6g", pct);
      pct = std::strtod(shown, nullptr);
    }
    char allowed[160];
    std::snprintf(allowed, sizeof allowed, "at least %s %% (one %lld-byte block of a %lld-byte VMDK)", shown,
                  static_cast<long long>(block.count()), static_cast<long long>(vmdk_size.count()));
    check::fail("workload working_set_pct", working_set_pct, allowed);
  }
  // vSphere's largest virtual disk is 62 TB (binary) on VMFS and vSAN; larger sizes only
  // multiply the placement state per VMDK (64 MB per VMDK at 800,000 TB).
  constexpr std::int64_t kMaxVmdk = std::int64_t{62} << 40;
  if (vmdk_size.count() > kMaxVmdk)
    check::fail("workload vmdk_size bytes", vmdk_size.count(), "at most 62 TiB (vSphere's largest virtual disk)");
  percent(compress_pct, "compress_pct");
  if (!(dedupe_pct >= 0 && dedupe_pct <= 99)) check::fail("workload dedupe_pct", dedupe_pct, "0..99");
  // At least a microsecond: the simulated clock counts nanoseconds, and a window that rounds
  // to nothing would report 0 IOPS and NaN rates.
  if (!(duration_s >= 1e-6 && duration_s <= 86400)) check::fail("workload duration_s", duration_s, "1e-6..86400 seconds");
  if (!(auto_precision_pct >= 0.01 && auto_precision_pct <= 50))
    check::fail("workload auto_precision_pct", auto_precision_pct, "0.01..50 (% of the mean)");
  if (!(auto_max_s >= 1 && auto_max_s <= 86400)) check::fail("workload auto_max_s", auto_max_s, "1..86400 seconds");
  if (!(warmup_s >= 0 && warmup_s <= 86400)) check::fail("workload warmup_s", warmup_s, "0..86400 seconds");
  if (!(history_s >= 0 && history_s <= 1e7)) check::fail("workload history_s", history_s, "0..1e7 seconds");
  check::non_negative(iops_limit_per_vm, "workload iops_limit_per_vm");
  // The open loop releases an I/O every 1e9 / limit ns: between 10 ns and 1000 s apart.
  if (iops_limit_per_vm > 0 && !(iops_limit_per_vm >= 1e-3 && iops_limit_per_vm <= 1e8))
    check::fail("workload iops_limit_per_vm", iops_limit_per_vm, "0 (no limit) or 0.001..1e8 I/O/s per VM");
  check_outstanding(1);
  check::non_negative(latency_target_ms, "workload latency_target_ms");
  if (iops_limit_per_vm > 0 && latency_target_ms > 0)
    throw InvalidArgument("workload: iops_limit_per_vm and latency_target_ms cannot both be set");
}

void WorkloadSpec::check_outstanding(int hosts) const {
  const double total = static_cast<double>(vm_count(hosts)) * vmdks_per_vm * outstanding_per_vmdk;
  if (total > 1e6)
    check::fail("workload vms x vmdks_per_vm x outstanding_per_vmdk", total, "at most 1,000,000 outstanding I/Os");
}

std::string WorkloadSpec::describe() const {
  char buf[256];
  const double kib = block.kib();
  std::snprintf(buf, sizeof buf, "%gk %g%% read %g%% random, %s%d VMDKs per VM x %d outstanding per VMDK", kib, read_pct,
                random_pct, vms > 0 ? (std::to_string(vms) + " VMs x ").c_str() : "one VM per host x ", vmdks_per_vm,
                outstanding_per_vmdk);
  // HCIBench's VMs run Linux; a Windows guest (DiskSpd) is said, as it costs more CPU per I/O.
  return guest_os == GuestOs::windows ? std::string(buf) + ", Windows guests" : std::string(buf);
}

}  // namespace hcisim
