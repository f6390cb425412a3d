// vSAN ESA's back end outside the hot path (esa_back_end.hpp): building the pools, spreading
// objects over them, draining partial stripes, and what resync needs of the pools.
#include "cluster_core.hpp"
#include "esa_io_path.hpp"
#include "hcisim/core/check.hpp"

namespace hcisim {

// ESA keeps vSAN's DOM owner ([S246] names its latency on ESA) and DOM client ([S250]); that
// they cost what OSA's do per I/O is ASSUMED. The saving per I/O VMware names is data services
// done once at the source instead of on each replica ([S42]), their own per-KiB stages here
// (source_services). esa.cpu_per_io_factor (ASSUMED 0.3-1) prices the log-structured back end
// (zDOM/LFS, the component stage) against the component's base cost.
CpuCosts EsaBackEnd::cpu_costs(const ClusterSpec& spec) {
  CpuCosts costs = spec.cpu_costs;
  costs.component_us *= spec.esa.cpu_per_io_factor;
  return costs;
}

void EsaBackEnd::build(ClusterCore& c) {
  large_write_ = esa_large_write(c.spec_).count();
  pools_.resize(c.spec_.hosts.size());
  for (std::size_t h = 0; h < c.spec_.hosts.size(); ++h)
    for (const DriveSpec& d : c.spec_.hosts[h].pool) pools_[h].push_back(c.add_device(d, static_cast<int>(h), -1, "pool"));
}

// Every component spreads over its host's pool by range (performance leg and capacity leg
// alike, an upper bound on what stays live).
void EsaBackEnd::add_object(ClusterCore& c, io::Object& o, Bytes size, Bytes) {
  const double column = static_cast<double>(size.count()) / (c.layout_.erasure_coded() ? c.layout_.data : 1);
  for (std::size_t col = 0; col < o.place.data.size(); ++col) {
    const auto& pool = pools_[o.place.component(static_cast<int>(col), 0).host];
    for (std::uint32_t d : pool) c.add_live(d, column / static_cast<double>(pool.size()) / c.reduction_.total());
  }
}

// Flushes each partial stripe as if full (a drain writes whatever is pending).
void EsaBackEnd::drain(ClusterCore& c) {
  for (std::uint32_t o = 0; o < c.objects_.size(); ++o) {
    if (c.objects_[o].stripe_pending >= 1.0) {
      const double unit_bytes = static_cast<double>(c.spec_.esa.stripe_unit.count());
      const double stripe = c.layout_.erasure_coded() ? unit_bytes * c.layout_.data : unit_bytes;
      c.objects_[o].stripe_pending = stripe;
      stripe_out(c, o);
    }
  }
}

const WriteBuffer& EsaBackEnd::write_buffer(const ClusterCore&, int, int) const {
  throw InvalidArgument("write_buffer: ESA clusters have no write buffers");
}

// A rebuilt component spreads over the new host's pool.
void EsaBackEnd::place_rebuild(ClusterCore&, io::ResyncJob& job, const io::Object&, RngStream&) {
  job.place.push_back(ComponentPlace{job.target, 0, 0});
}

std::uint32_t EsaBackEnd::resync_source(ClusterCore&, std::uint32_t object, std::size_t, int, const ComponentPlace& from,
                                        std::uint64_t offset) {
  return pool_device(from.host, static_cast<int>(object), offset);
}

void EsaBackEnd::on_rebuilt(ClusterCore&, io::Object& o, const io::ResyncJob& job, int old_host) {
  for (ComponentPlace& p : o.place.perf)
    if (p.host == old_host) p.host = job.target;
}

std::uint32_t EsaBackEnd::resync_target(ClusterCore& c, const io::ResyncJob& job, const io::ResyncCopy& copy) {
  return pool_device(job.target, static_cast<int>(job.object), c.object_offset(copy.column_offset));
}

}  // namespace hcisim
