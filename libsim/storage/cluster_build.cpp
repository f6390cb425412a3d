// Building a cluster (cluster.hpp): hosts, devices, OSA disk groups and ESA pools, objects
// and their placement; the accessors reports use; and the whole-cluster steps a run takes
// outside the I/O path (preparing, aging and draining the write buffers). The I/O path
// itself is in cluster.cpp.
#include <algorithm>
#include <cmath>

#include "hcisim/core/check.hpp"
#include "hcisim/storage/cluster.hpp"

namespace hcisim {

Cluster::Cluster(Engine& engine, const ClusterSpec& spec, const DataProfile& data, std::uint64_t seed,
                 IoClient& client, std::uint64_t replication)
    : engine_(engine),
      spec_((spec.validate(), spec)),
      layout_(spec.layout()),
      reduction_(reduction_ratios(data, spec.architecture, spec.services.compression, spec.services.dedupe)),
      client_(client),
      seed_(seed),
      replication_(replication),
      two_node_(spec.witness_host),
      rng_(seed, replication, "cluster/io"),
      stack_latency_(Time::round_ns(spec.stack_latency_us * 1e3)) {
  network_ = std::make_unique<Network>(engine_, spec_.network, *this);
  std::vector<std::string> names;
  for (const HostSpec& h : spec_.hosts) names.push_back(h.name);
  build_fabric(*network_, spec_.fabric, names);
  CpuCosts costs = spec_.cpu_costs;
  if (spec_.architecture == Architecture::esa)
    for (double* f : {&costs.dom_client_us, &costs.dom_owner_us, &costs.component_us}) *f *= spec_.esa.cpu_per_io_factor;
  if (spec_.architecture == Architecture::osa && spec_.osa.lsom_worlds_per_dg > 0)
    // The per-operation stages that then run only on the LSOM worlds. Their per-KiB work
    // (OSA compresses and dedupes at destage) also runs there, at the algorithms' own rates.
    for (double* f : {&costs.component_us, &costs.destage_us}) *f *= spec_.osa.lsom_cost_factor;
  for (const HostSpec& h : spec_.hosts) {
    // OSA LSOM worlds each pin a core (lsom_worlds_per_dg, cluster_spec.hpp); ESA hosts have
    // no disk groups.
    const int pinned = static_cast<int>(h.disk_groups.size()) * spec_.osa.lsom_worlds_per_dg;
    cpus_.push_back(std::make_unique<HostCpu>(engine_, h.name, h.cpu, costs, *this, pinned));
  }
  // The receive side's per-KiB TCP work runs on the NIC's receive-queue threads (network.hpp);
  // RDMA receives without them.
  receive_threads_ = spec_.network.framing.transport == Transport::tcp && spec_.fabric.rx_queues > 0;
  if (receive_threads_)
    for (std::size_t h = 0; h < cpus_.size(); ++h)
      network_->set_receive(static_cast<int>(h), spec_.fabric.rx_queues, cpus_[h]->tcp_receive_ns_per_byte());
  if (spec_.architecture == Architecture::osa) build_osa();
  else build_esa();
  client_working_set_.assign(spec_.hosts.size(), 0.0);
  client_cache_bytes_.resize(spec_.hosts.size());
  for (std::size_t h = 0; h < spec_.hosts.size(); ++h) client_cache_bytes_[h] = spec_.client_cache_mb_of(h) * 1048576.0;
  down_.assign(spec_.hosts.size(), 0);
  for (int f : spec_.failed_hosts) down_[static_cast<std::size_t>(f)] = 1;
  degraded_ = !spec_.failed_hosts.empty();
}

std::uint32_t Cluster::add_device(const DriveSpec& drive, int host, int group, const char* role) {
  const auto index = static_cast<std::uint32_t>(devices_.size());
  DeviceSlot slot;
  slot.device = std::make_unique<StorageDevice>(engine_, drive.device, drive.connection, seed_,
                                                "device/" + std::to_string(index), *this, 0.2, replication_);
  slot.host = host;
  slot.group = group;
  slot.role = role;
  devices_.push_back(std::move(slot));
  return index;
}

void Cluster::build_osa() {
  host_groups_.resize(spec_.hosts.size());
  for (std::size_t h = 0; h < spec_.hosts.size(); ++h) {
    for (const DiskGroupSpec& dgs : spec_.hosts[h].disk_groups) {
      const auto g = static_cast<std::uint32_t>(groups_.size());
      DiskGroup dg;
      dg.host = static_cast<int>(h);
      dg.hybrid = dgs.hybrid();
      dg.cache = add_device(dgs.cache, dg.host, static_cast<int>(g), "cache");
      for (const DriveSpec& c : dgs.capacity) dg.capacity.push_back(add_device(c, dg.host, static_cast<int>(g), "capacity"));
      // All-flash: the cache device is all write buffer, capped at the logical limit (600 GB).
      // Hybrid: 30 % write buffer, 70 % read cache.
      const double cache_bytes = dgs.cache.device.capacity_gb * 1e9;
      const double wb_share = dg.hybrid ? 1.0 - spec_.osa.hybrid_read_cache_share : 1.0;
      const double wb = std::min(cache_bytes * wb_share, static_cast<double>(spec_.osa.write_buffer.count()));
      dg.buffer = WriteBuffer(Bytes{static_cast<std::int64_t>(wb)}, spec_.osa);
      dg.buffer.track_runs(dg.hybrid);   // only disks pay per extent (pump_destage)
      if (spec_.osa.lsom_worlds_per_dg > 0)
        dg.parked.resize(static_cast<std::size_t>(spec_.osa.destage_depth) * dg.capacity.size());
      dg.read_cache = dg.hybrid ? cache_bytes * spec_.osa.hybrid_read_cache_share : 0.0;
      groups_.push_back(std::move(dg));
      host_groups_[h].push_back(g);
      if (spec_.osa.lsom_worlds_per_dg > 0) {
        lsom_.push_back(std::make_unique<Station>(
            engine_, spec_.hosts[h].name + "/dg" + std::to_string(host_groups_[h].size() - 1) + "/lsom",
            spec_.osa.lsom_worlds_per_dg, this));
        cpus_[h]->add_world(*lsom_.back());
      }
    }
  }
}

void Cluster::build_esa() {
  pools_.resize(spec_.hosts.size());
  for (std::size_t h = 0; h < spec_.hosts.size(); ++h)
    for (const DriveSpec& d : spec_.hosts[h].pool) pools_[h].push_back(add_device(d, static_cast<int>(h), -1, "pool"));
}

int Cluster::add_object(int owner_host, Bytes size, Bytes working_set, GuestOs guest) {
  check::in_range(owner_host, 0, hosts() - 1, "object owner host");
  if (!host_up(owner_host))
    throw InvalidArgument("object owner host " + spec_.hosts[static_cast<std::size_t>(owner_host)].name +
                          " has failed; a VM and its objects' DOM owner run on a host that is up");
  if (size.count() <= 0) check::fail("object size bytes", size.count(), "> 0");
  if (working_set.count() <= 0 || working_set > size)
    check::fail("object working_set bytes", working_set.count(), "in (0, object size]");
  const int index = static_cast<int>(objects_.size());
  Object o;
  o.place = place_object(spec_, layout_, index, owner_host, size, seed_);
  o.working_set = working_set;
  o.guest = guest;
  if (spec_.architecture == Architecture::osa) {
    // Each RAID-1 replica serves the whole working set; each EC column 1/k of it (data or parity).
    // RAID-0 components share a column's working set equally (to within a stripe unit).
    const std::int64_t share = layout_.erasure_coded() ? working_set.count() / layout_.data : working_set.count();
    const std::int64_t each = share / o.place.chunks;
    for (std::size_t col = 0; col < o.place.data.size(); ++col)
      for (int h = 0; h < o.place.chunks; ++h) {
        const ComponentPlace& c = o.place.component(static_cast<int>(col), h);
        const std::uint32_t g = host_groups_[c.host][c.group];
        groups_[g].buffer.add_working_set(Bytes{h == 0 ? share - each * (o.place.chunks - 1) : each});
        o.groups.push_back(g);
        // The component's data, reduced, lives on its capacity device (a prepared VMDK).
        const double column = static_cast<double>(size.count()) / (layout_.erasure_coded() ? layout_.data : 1);
        add_live(groups_[g].capacity[c.device], column / o.place.chunks / reduction_.total());
      }
  } else {
    // ESA: every component spreads over its host's pool by range (performance leg and
    // capacity leg alike, an upper bound on what stays live).
    const double column = static_cast<double>(size.count()) / (layout_.erasure_coded() ? layout_.data : 1);
    for (std::size_t col = 0; col < o.place.data.size(); ++col) {
      const auto& pool = pools_[o.place.component(static_cast<int>(col), 0).host];
      for (std::uint32_t d : pool) add_live(d, column / static_cast<double>(pool.size()) / reduction_.total());
    }
  }
  client_working_set_[static_cast<std::size_t>(owner_host)] += static_cast<double>(working_set.count());
  objects_.push_back(std::move(o));
  return index;
}

// Live data on a NAND device: its map misses, pSLC cache and garbage collection follow it.
void Cluster::add_live(std::uint32_t device, double bytes) {
  DeviceSlot& d = devices_[device];
  d.live_bytes += bytes;
  if (FlashArray* nand = d.device->flash()) {
    const Bytes live{static_cast<std::int64_t>(d.live_bytes)};
    nand->set_live(live, live);
  }
}

const ObjectPlacement& Cluster::placement(int object) const {
  return objects_[static_cast<std::size_t>(check::in_range(object, 0, static_cast<std::int64_t>(objects_.size()) - 1,
                                                           "object index"))]
      .place;
}

const WriteBuffer& Cluster::write_buffer(int host, int group) const {
  if (spec_.architecture != Architecture::osa) throw InvalidArgument("write_buffer: ESA clusters have no write buffers");
  check::in_range(host, 0, hosts() - 1, "write_buffer host");
  const auto& g = host_groups_[static_cast<std::size_t>(host)];
  check::in_range(group, 0, static_cast<std::int64_t>(g.size()) - 1, "write_buffer disk group");
  return groups_[g[static_cast<std::size_t>(group)]].buffer;
}

double Cluster::smallest_write_buffer() const {
  double smallest = 0;
  for (const DiskGroup& dg : groups_)
    if (smallest == 0 || dg.buffer.capacity() < smallest) smallest = dg.buffer.capacity();
  return smallest;
}

std::vector<Cluster::DeviceInfo> Cluster::devices() const {
  std::vector<DeviceInfo> out;
  for (const DeviceSlot& d : devices_) out.push_back({d.host, d.role, d.device.get()});
  return out;
}

void Cluster::reset_stats() {
  counters_ = IoCounters{};
  network_->reset_stats();
  for (auto& c : cpus_) c->reset_stats();
  for (auto& d : devices_) d.device->reset_stats();
  for (auto& w : lsom_) w->reset_stats();
}

void Cluster::prepare_write_buffers() {
  // A group that holds no component was never written: it has nothing to destage.
  for (DiskGroup& dg : groups_)
    if (dg.buffer.working_set() > 0) dg.buffer.set_dirty(spec_.osa.destage_start_fill * dg.buffer.capacity());
}

void Cluster::set_buffer_time_compression(double k) {
  const double batch = static_cast<double>(spec_.osa.destage_batch_blocks) * kBlock;
  for (std::uint32_t g = 0; g < groups_.size(); ++g) {
    WriteBuffer& b = groups_[g].buffer;
    b.set_time_compression(std::max(1.0, std::min(k, b.capacity() / (200.0 * batch))), idle_group(groups_[g]));
    if (host_up(groups_[g].host)) pump_destage(g);   // a failed host does nothing
  }
  for (std::size_t h = 0; h < resync_hosts_.size(); ++h) pump_resync(static_cast<int>(h));   // room changed
}

void Cluster::drain() {
  draining_ = true;
  for (std::uint32_t g = 0; g < groups_.size(); ++g)
    if (host_up(groups_[g].host)) pump_destage(g);   // a failed host does nothing
  for (std::uint32_t o = 0; o < objects_.size(); ++o) {
    if (objects_[o].stripe_pending >= 1.0) {
      // Flush the partial stripe as if full (a drain writes whatever is pending).
      const double unit_bytes = static_cast<double>(spec_.esa.stripe_unit.count());
      const double stripe = layout_.erasure_coded() ? unit_bytes * layout_.data : unit_bytes;
      objects_[o].stripe_pending = stripe;
      stripe_out(o);
    }
  }
}

}  // namespace hcisim
