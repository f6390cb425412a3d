// The public Cluster (cluster.hpp): each operation forwards to the cluster's core
// (cluster_core.hpp), which holds the I/O path, its state and the back end.
#include "hcisim/model/storage/cluster.hpp"

#include "cluster_core.hpp"

namespace hcisim {

Cluster::Cluster(Engine& engine, const ClusterSpec& spec, const DataProfile& data, std::uint64_t seed, IoClient& client,
                 std::uint64_t replication)
    : core_(std::make_unique<ClusterCore>(*this, engine, spec, data, seed, client, replication)) {}

Cluster::~Cluster() = default;

int Cluster::add_object(int owner_host, Bytes size, Bytes working_set, GuestOs guest) {
  return core_->add_object(owner_host, size, working_set, guest);
}

int Cluster::submit_piece(std::uint64_t token, int object, int client_host, IoOp op, std::uint64_t offset, Bytes size,
                          bool sequential, Bytes guest_bytes) {
  return core_->submit_piece(token, object, client_host, op, offset, size, sequential, guest_bytes);
}

void Cluster::start_resync() { core_->start_resync(); }
Cluster::ResyncStatus Cluster::resync_status() const { return core_->resync_status_; }
void Cluster::drain() { core_->drain(); }
void Cluster::prepare_write_buffers() {
  core_->with_back_end([&](auto& be) { be.prepare_write_buffers(*core_); });
}
void Cluster::set_buffer_time_compression(double k) { core_->set_buffer_time_compression(k); }

int Cluster::hosts() const { return core_->hosts(); }
bool Cluster::host_up(int host) const { return core_->host_up(host); }
const ClusterSpec& Cluster::spec() const { return core_->spec_; }
const Layout& Cluster::layout() const { return core_->layout_; }
const ReductionRatios& Cluster::reduction() const { return core_->reduction_; }
const ObjectPlacement& Cluster::placement(int object) const { return core_->placement(object); }
const IoCounters& Cluster::counters() const { return core_->counters_; }
std::size_t Cluster::in_flight() const { return core_->requests_.size() - core_->free_requests_.size(); }
const LatencyParts& Cluster::completing_split() const { return core_->completing_; }
std::size_t Cluster::state_slots() const { return core_->requests_.size() + core_->subops_.size(); }
std::uint64_t Cluster::live_requests() const { return core_->requests_.size() - core_->free_requests_.size(); }
Network& Cluster::network() { return *core_->network_; }
const Network& Cluster::network() const { return *core_->network_; }
HostCpu& Cluster::cpu(int host) { return *core_->cpus_[static_cast<std::size_t>(host)]; }
const HostCpu& Cluster::cpu(int host) const { return *core_->cpus_[static_cast<std::size_t>(host)]; }

const WriteBuffer& Cluster::write_buffer(int host, int group) const {
  return core_->with_back_end([&](const auto& be) -> const WriteBuffer& { return be.write_buffer(*core_, host, group); });
}
double Cluster::smallest_write_buffer() const {
  return core_->with_back_end([](const auto& be) { return be.smallest_write_buffer(); });
}
std::vector<Cluster::DeviceInfo> Cluster::devices() const { return core_->devices(); }
const std::vector<std::unique_ptr<Station>>& Cluster::lsom_worlds() const {
  return core_->with_back_end(
      [](const auto& be) -> const std::vector<std::unique_ptr<Station>>& { return be.lsom_worlds(); });
}
void Cluster::reset_stats() { core_->reset_stats(); }
int Cluster::client_worlds() const { return core_->client_worlds(); }
double Cluster::client_world_utilisation(int object) const { return core_->client_world_utilisation(object); }
int Cluster::object_client_host(int object) const { return core_->object_client_host(object); }
int Cluster::objects() const { return core_->objects(); }

}  // namespace hcisim
