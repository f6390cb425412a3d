// Host CPU: per-stage costs (cpu_spec.hpp) served by a c-core FIFO station.
#include "hcisim/hw/host_cpu.hpp"

#include "hcisim/core/check.hpp"

namespace hcisim {

HostCpu::HostCpu(Engine& engine, const std::string& host, const CpuSpec& spec, const CpuCosts& costs,
                 CpuClient& client)
    : spec_(spec),
      costs_(costs),
      clock_scale_((spec.validate(), costs.validate(), costs.reference_ghz / spec.ghz)),
      client_(client),
      cores_(engine, host + "/cpu", spec.cores(), this) {}

Time HostCpu::cost(CpuStage stage, Bytes bytes, Transport transport) const {
  const double kib = bytes.kib();
  double us = 0;
  switch (stage) {
    case CpuStage::guest: us = costs_.guest_us; break;
    case CpuStage::vscsi: us = costs_.vscsi_us; break;
    case CpuStage::dom_client: us = costs_.dom_client_us; break;
    case CpuStage::dom_owner: us = costs_.dom_owner_us; break;
    case CpuStage::component: us = costs_.component_us; break;
    case CpuStage::destage: us = costs_.destage_us; break;
    case CpuStage::checksum: us = costs_.checksum_us_per_kib * kib; break;
    case CpuStage::compression: us = costs_.compression_us_per_kib * kib; break;
    case CpuStage::decompression: us = costs_.decompression_us_per_kib * kib; break;
    case CpuStage::encryption: us = costs_.encryption_us_per_kib * kib; break;
    case CpuStage::dedupe: us = costs_.dedupe_us_per_kib * kib; break;
    case CpuStage::network:
      us = transport == Transport::tcp ? costs_.net_message_us + costs_.net_us_per_kib * kib
                                       : costs_.rdma_message_us + costs_.rdma_us_per_kib * kib;
      break;
  }
  return Time::round_ns(us * 1e3 * clock_scale_);
}

void HostCpu::execute(std::uint64_t token, CpuStage stage, Bytes bytes, Transport transport) {
  execute_for(token, stage, cost(stage, bytes, transport));
}

void HostCpu::execute_for(std::uint64_t token, CpuStage stage, Time work) {
  stage_ns_[static_cast<std::size_t>(stage)] += work.count_ns();
  run(token, work);
}

Time HostCpu::charge(CpuStage stage, Bytes bytes, Transport transport) {
  const Time t = cost(stage, bytes, transport);
  stage_ns_[static_cast<std::size_t>(stage)] += t.count_ns();
  return t;
}

double HostCpu::usage_pct() const { return 100.0 * cores_.utilisation(); }

double HostCpu::utilization_pct() const { return usage_pct() / spec_.threads_per_core; }

double HostCpu::stage_share(CpuStage stage) const {
  std::int64_t total = 0;
  for (std::int64_t v : stage_ns_) total += v;
  return total > 0 ? static_cast<double>(stage_ns_[static_cast<std::size_t>(stage)]) / static_cast<double>(total)
                   : 0.0;
}

void HostCpu::reset_stats() {
  cores_.reset_stats();
  stage_ns_.fill(0);
}

void HostCpu::on_departure(Station&, std::uint64_t job, Time, Time) { client_.on_cpu_done(*this, job); }

}  // namespace hcisim
