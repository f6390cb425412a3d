// Host CPU: per-stage costs (cpu_spec.hpp) served by a FIFO station of hardware threads.
#include "hcisim/model/hw/host_cpu.hpp"

#include <algorithm>

#include "hcisim/core/check.hpp"

namespace hcisim {

HostCpu::HostCpu(Engine& engine, const std::string& host, const CpuSpec& spec, const CpuCosts& costs,
                 CpuClient& client, int pinned_cores)
    : spec_(spec),
      costs_(costs),
      clock_scale_((spec.validate(), costs.validate(), costs.reference_ghz / spec.ghz)),
      client_(client),
      cores_(engine, host + "/cpu",
             (spec.cores() - static_cast<int>(check::in_range(pinned_cores, 0, spec.cores() - 1,
                                                               "host CPU " + spec.name + " pinned cores"))) *
                 spec.threads_per_core,
             this),
      free_cores_(spec.cores() - pinned_cores),
      shared_slowdown_(spec.threads_per_core > 1 ? spec.threads_per_core / spec.ht_throughput : 1.0) {
  build_cost_table();
}

// Per-stage cost table in ns at this host's clock: a fixed part and a part per KiB. The
// network stage has one row per transport (index kCpuStages for RDMA), the guest stage one
// per guest OS (kWindowsGuestRow for Windows).
void HostCpu::build_cost_table() {
  auto set = [&](int row, double fixed_us, double per_kib_us) {
    fixed_ns_[static_cast<std::size_t>(row)] = fixed_us * 1e3 * clock_scale_;
    per_kib_ns_[static_cast<std::size_t>(row)] = per_kib_us * 1e3 * clock_scale_;
  };
  set(static_cast<int>(CpuStage::guest), costs_.guest_us, 0);
  set(static_cast<int>(CpuStage::vscsi), costs_.vscsi_us, 0);
  set(static_cast<int>(CpuStage::dom_client), costs_.dom_client_us, 0);
  set(static_cast<int>(CpuStage::dom_owner), costs_.dom_owner_us, 0);
  set(static_cast<int>(CpuStage::component), costs_.component_us, 0);
  set(static_cast<int>(CpuStage::destage), costs_.destage_us, 0);
  set(static_cast<int>(CpuStage::checksum), 0, costs_.checksum_us_per_kib);
  set(static_cast<int>(CpuStage::compression), 0, costs_.compression_us_per_kib);
  set(static_cast<int>(CpuStage::decompression), 0, costs_.decompression_us_per_kib);
  set(static_cast<int>(CpuStage::encryption), 0, costs_.encryption_us_per_kib);
  set(static_cast<int>(CpuStage::dedupe), 0, costs_.dedupe_us_per_kib);
  set(static_cast<int>(CpuStage::network), costs_.net_message_us, costs_.net_us_per_kib);
  set(kCpuStages, costs_.rdma_message_us, costs_.rdma_us_per_kib);
  set(static_cast<int>(kWindowsGuestRow), costs_.windows_guest_us, 0);
  tcp_receive_per_kib_ns_ = costs_.tcp_receive_us_per_kib * 1e3 * clock_scale_;
}

void HostCpu::execute(std::uint64_t token, CpuStage stage, Bytes bytes, Transport transport) {
  execute_for(token, stage, cost(stage, bytes, transport));
}

void HostCpu::execute_for(std::uint64_t token, CpuStage stage, Time work) {
  stage_ns_[static_cast<std::size_t>(stage)] += work.count_ns();
  run(token, work);
}

// Busy threads of the shared station; each world runs on a pinned core of its own. The
// counter is frequency-based: ESXi counts a busy core's cycles against its base clock, so a
// core busy at a clock above base reads more than a whole core ("on a host with a 2.80 GHz
// base frequency and 3.50 GHz turbo, a fully busy core reports approximately 125 % usage",
// Broadcom KB 431027 [S78]; "a 50 % utilized PCPU at 60 % CPU usage because of 20 % Turbo Boost",
// KB 335065 [S79]), and one below base less. The host's figure is capped at 100 % (ASSUMED: the
// counter is a percentage of the host's capacity, cores x base clock).
double HostCpu::usage_pct() const {
  double cores = std::min(cores_.utilisation() * cores_.servers(), static_cast<double>(free_cores_));
  for (const Station* w : worlds_) cores += w->utilisation() * w->servers();
  return std::min(100.0, 100.0 * cores * usage_clock_factor() / spec_.cores());
}

double HostCpu::utilization_pct() const {
  double threads = cores_.utilisation() * cores_.servers();
  for (const Station* w : worlds_) threads += w->utilisation() * w->servers();
  return 100.0 * threads / spec_.threads();
}

double HostCpu::stage_share(CpuStage stage) const {
  std::int64_t total = 0;
  for (std::int64_t v : stage_ns_) total += v;
  return total > 0 ? static_cast<double>(stage_ns_[static_cast<std::size_t>(stage)]) / static_cast<double>(total)
                   : 0.0;
}

void HostCpu::reset_stats() {
  cores_.reset_stats();
  stage_ns_.fill(0);
  full_speed_work_ = Time::zero();
}

void HostCpu::on_departure(Station&, std::uint64_t job, Time, Time) { client_.on_cpu_done(*this, job); }

}  // namespace hcisim
