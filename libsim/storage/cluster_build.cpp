// Building a cluster's core (cluster_core.hpp): hosts, devices and fabric, the back end its
// architecture has, objects and their placement; and the whole-cluster steps a run takes
// outside the I/O path (draining, aging the buffers, resetting statistics). The I/O path
// itself is in io_path.cpp.
#include "cluster_core.hpp"
#include "hcisim/core/check.hpp"

namespace hcisim {

ClusterCore::ClusterCore(Cluster& facade, Engine& engine, const ClusterSpec& spec, const DataProfile& data,
                         std::uint64_t seed, IoClient& client, std::uint64_t replication)
    : facade_(facade),
      engine_(engine),
      spec_((spec.validate(), spec)),
      layout_(spec.layout()),
      reduction_(reduction_ratios(data, spec.architecture, spec.services.compression, spec.services.dedupe)),
      client_(client),
      seed_(seed),
      replication_(replication),
      two_node_(spec.witness_host),
      rng_(seed, replication, "cluster/io"),
      stack_latency_(Time::round_ns(spec.stack_latency_us * 1e3)),
      client_worlds_(esa_client_worlds(spec)) {
  // The one place that looks at the architecture: every later step reaches the back end
  // through with_back_end().
  if (spec_.architecture == Architecture::osa) osa_.emplace();
  else esa_.emplace();
  network_ = std::make_unique<Network>(engine_, spec_.network, *this);
  std::vector<std::string> names;
  for (const HostSpec& h : spec_.hosts) names.push_back(h.name);
  build_fabric(*network_, spec_.fabric, names);
  const CpuCosts costs = with_back_end([&](const auto& be) { return be.cpu_costs(spec_); });
  for (const HostSpec& h : spec_.hosts) {
    const int pinned = with_back_end([&](const auto& be) { return be.pinned_cores(spec_, h); });
    cpus_.push_back(std::make_unique<HostCpu>(engine_, h.name, h.cpu, costs, *this, pinned));
  }
  // The receive side's per-KiB TCP work runs on the NIC's receive-queue threads (network.hpp);
  // RDMA receives without them.
  receive_threads_ = spec_.network.framing.transport == Transport::tcp && spec_.fabric.rx_queues > 0;
  if (receive_threads_)
    for (std::size_t h = 0; h < cpus_.size(); ++h)
      network_->set_receive(static_cast<int>(h), spec_.fabric.rx_queues, cpus_[h]->tcp_receive_ns_per_byte());
  with_back_end([&](auto& be) { be.build(*this); });
  client_working_set_.assign(spec_.hosts.size(), 0.0);
  client_cache_bytes_.resize(spec_.hosts.size());
  for (std::size_t h = 0; h < spec_.hosts.size(); ++h) client_cache_bytes_[h] = spec_.client_cache_mb_of(h) * 1048576.0;
  down_.assign(spec_.hosts.size(), 0);
  for (int f : spec_.failed_hosts) down_[static_cast<std::size_t>(f)] = 1;
  degraded_ = !spec_.failed_hosts.empty();
  stats_since_ = engine_.now();
}

std::uint32_t ClusterCore::add_device(const DriveSpec& drive, int host, int group, const char* role) {
  const auto index = static_cast<std::uint32_t>(devices_.size());
  io::DeviceSlot slot;
  slot.device = std::make_unique<StorageDevice>(engine_, drive.device, drive.connection, seed_,
                                                "device/" + std::to_string(index), *this, 0.2, replication_);
  slot.host = host;
  slot.group = group;
  slot.role = role;
  devices_.push_back(std::move(slot));
  return index;
}

int ClusterCore::add_object(int owner_host, Bytes size, Bytes working_set, GuestOs guest) {
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
  with_back_end([&](auto& be) { be.add_object(*this, o, size, working_set); });
  client_working_set_[static_cast<std::size_t>(owner_host)] += static_cast<double>(working_set.count());
  objects_.push_back(std::move(o));
  return index;
}

void ClusterCore::add_live(std::uint32_t device, double bytes) {
  io::DeviceSlot& d = devices_[device];
  d.live_bytes += bytes;
  if (FlashArray* nand = d.device->flash()) {
    const Bytes live{static_cast<std::int64_t>(d.live_bytes)};
    nand->set_live(live, live);
  }
}

const ObjectPlacement& ClusterCore::placement(int object) const {
  return objects_[static_cast<std::size_t>(check::in_range(object, 0, static_cast<std::int64_t>(objects_.size()) - 1,
                                                           "object index"))]
      .place;
}

std::vector<Cluster::DeviceInfo> ClusterCore::devices() const {
  std::vector<Cluster::DeviceInfo> out;
  for (const io::DeviceSlot& d : devices_) out.push_back({d.host, d.role, d.device.get()});
  return out;
}

void ClusterCore::reset_stats() {
  counters_ = IoCounters{};
  network_->reset_stats();
  for (auto& c : cpus_) c->reset_stats();
  for (auto& d : devices_) d.device->reset_stats();
  with_back_end([](auto& be) { be.reset_stats(); });
  stats_since_ = engine_.now();
  for (Object& o : objects_) o.client_service_ns = 0;
}

void ClusterCore::set_buffer_time_compression(double k) {
  with_back_end([&](auto& be) { be.set_time_compression(*this, k); });
  for (std::size_t h = 0; h < resync_hosts_.size(); ++h) pump_resync(static_cast<int>(h));   // room changed
}

void ClusterCore::drain() {
  with_back_end([&](auto& be) { be.drain(*this); });
}

}  // namespace hcisim
