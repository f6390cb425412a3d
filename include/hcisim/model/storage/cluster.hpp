// A simulated vSAN cluster: hosts (CPU, devices), the network, objects and the I/O path.
//
// An I/O moves from the VM's host (guest, vSCSI, DOM client and the data services at the
// source) to its object's DOM owner, which fans it out to component operations on the hosts
// holding the object's components (network, CPU, device) and acknowledges when all are done;
// a read may be served by the client host's in-memory cache. Below the owner the cluster has
// one of two back ends: OSA disk groups (write buffer, destage elevator, LSOM worlds,
// congestion) or an ESA storage pool (performance leg, capacity-leg full stripes).
// Background work (destage, ESA stripe writes, resync after failed hosts) competes for the
// same devices, CPU and links. docs/model.md, "Where an I/O goes", maps each step to its
// function; the state of the I/O in flight is private (libsim/storage/).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hcisim/model/core/engine.hpp"
#include "hcisim/model/core/station.hpp"
#include "hcisim/core/units.hpp"
#include "hcisim/model/hw/host_cpu.hpp"
#include "hcisim/model/hw/network.hpp"
#include "hcisim/model/hw/storage_device.hpp"
#include "hcisim/storage/cluster_spec.hpp"
#include "hcisim/storage/data_reduction.hpp"
#include "hcisim/storage/io_counters.hpp"
#include "hcisim/storage/latency_split.hpp"
#include "hcisim/model/storage/placement.hpp"
#include "hcisim/storage/policy.hpp"
#include "hcisim/model/storage/write_buffer.hpp"

namespace hcisim {

class Cluster;
class ClusterCore;

/// Told when a submitted I/O completes (acknowledged to the VM).
class IoClient {
 public:
  virtual void on_io_done(Cluster& cluster, std::uint64_t token) = 0;

 protected:
  IoClient() = default;
  IoClient(const IoClient&) = default;
  IoClient& operator=(const IoClient&) = default;
  ~IoClient() = default;
};

class Cluster final {
 public:
  /// Builds hosts, devices and fabric from `spec` (validated first). `data` says how
  /// reducible the written data is; `seed` drives placement and every random choice.
  /// `replication` changes every random choice but placement: independent runs of one cluster.
  Cluster(Engine& engine, const ClusterSpec& spec, const DataProfile& data, std::uint64_t seed, IoClient& client,
          std::uint64_t replication = 0);
  Cluster(const Cluster&) = delete;
  Cluster& operator=(const Cluster&) = delete;
  ~Cluster();

  /// Creates an object (a VMDK) of `size` owned by `owner_host`, whose I/O will address the
  /// first `working_set` bytes, for a VM running `guest` (its I/O's guest CPU). Returns its index.
  int add_object(int owner_host, Bytes size, Bytes working_set, GuestOs guest = GuestOs::linux_os);

  /// Starts an I/O from a VM on `client_host`. on_io_done(token) when it completes.
  /// `sequential`: the I/O continues its VMDK's stream (the workload's non-random share):
  /// SSDs serve it without the per-command cost of random I/O, and the OSA write buffer
  /// keeps its data as one contiguous run for the elevator.
  /// Returns how many on_io_done(token) calls will follow: 1, or one per RAID-0 unit
  /// (placement.hpp) when the I/O spans several units of a striped OSA object.
  int submit(std::uint64_t token, int object, int client_host, IoOp op, std::uint64_t offset, Bytes size,
             bool sequential = false) {
    return submit_piece(token, object, client_host, op, offset, size, sequential, size);
  }
  /// One piece of a guest I/O that the virtual SCSI adapter split (workload_spec.hpp,
  /// VscsiAdapter): vSCSI and vSAN handle it as an I/O of its own, but the guest's work
  /// (`guest_bytes`: the whole guest I/O on its first piece, zero on the others) is paid once.
  int submit_piece(std::uint64_t token, int object, int client_host, IoOp op, std::uint64_t offset, Bytes size,
                   bool sequential, Bytes guest_bytes);

  /// Starts rebuilding every component on a failed host (ClusterSpec::failed_hosts) onto a
  /// host that is up and holds no other component or witness of its object, as background
  /// copies of `kResyncCopy` bytes: read from a surviving replica (erasure coding: from k
  /// surviving columns, rebuilt on the new host), sent to the new host and written there
  /// (OSA: into a disk group's write buffer, destaged like any write; ESA: to its pool).
  /// At most ResyncSettings::outstanding copies per new host, paced by its throttle. A
  /// component whose copy is complete takes over (the object is then whole again).
  /// Simplification: writes that arrive during its copy do not go to the new component.
  /// Call once, after the objects are added.
  void start_resync();
  using ResyncStatus = hcisim::ResyncStatus;
  ResyncStatus resync_status() const;
  static constexpr std::int64_t kResyncCopy = std::int64_t{1} << 20;   // bytes per copy (our assumption)

  /// Destages every OSA write buffer and writes out ESA partial stripes (like HCIBench's
  /// cache-drop step); background work then runs until the buffers are empty.
  void drain();

  /// OSA: puts every write buffer at the elevator's start fill (bounded by its working set),
  /// the state a prepared disk is left in once the elevator has caught up; a group that holds
  /// no component stays empty.
  void prepare_write_buffers();
  /// OSA: ages the write buffers `k` (>= 1) times faster than simulated time (WriteBuffer
  /// "Aging"); capped per buffer so one destage batch stays under 0.5 % of its capacity.
  void set_buffer_time_compression(double k);

  int hosts() const;
  /// False for a failed host (ClusterSpec::failed_hosts): it runs no VM and no component.
  bool host_up(int host) const;
  const ClusterSpec& spec() const;
  const Layout& layout() const;
  const ReductionRatios& reduction() const;
  const ObjectPlacement& placement(int object) const;
  const IoCounters& counters() const;
  std::size_t in_flight() const;
  /// Inside IoClient::on_io_done: where the completing operation's time went, from its
  /// submit to now (latency_split.hpp; the guest_queue part is the client's and stays 0).
  const LatencyParts& completing_split() const;
  /// Request and component-operation slots ever allocated: bounded by the peak number
  /// outstanding, not by the number completed (memory stays flat in simulated time).
  std::size_t state_slots() const;
  /// Operations the VMs submitted that have not completed.
  std::uint64_t live_requests() const;
  Network& network();
  const Network& network() const;
  HostCpu& cpu(int host);
  const HostCpu& cpu(int host) const;
  /// OSA: the write buffer of disk group `group` on `host`.
  const WriteBuffer& write_buffer(int host, int group) const;
  /// OSA: the bytes of the smallest write buffer (a larger write could never fit and would
  /// wait forever); 0 for ESA.
  double smallest_write_buffer() const;
  /// Every device with its host and role, for utilisation reports.
  struct DeviceInfo {
    int host;
    std::string role;   // "cache", "capacity", "pool"
    const StorageDevice* device;
  };
  std::vector<DeviceInfo> devices() const;
  /// OSA with osa.lsom_worlds_per_dg > 0: each disk group's LSOM worlds (one station per
  /// disk group, named host/dgN/lsom), in global disk-group order; empty otherwise.
  const std::vector<std::unique_ptr<Station>>& lsom_worlds() const;
  /// ESA: the worlds that run each object's DOM client work (esa_client_worlds); 0 on OSA.
  int client_worlds() const;
  /// ESA: the share of object `object`'s DOM client worlds' time their jobs were served since
  /// the last reset (0 on OSA; a job's wait for a core is not counted), and the host they run
  /// on (the host of the VM whose disk it is; -1 before the object's first I/O).
  double client_world_utilisation(int object) const;
  int object_client_host(int object) const;
  int objects() const;
  void reset_stats();

 private:
  std::unique_ptr<ClusterCore> core_;
};

}  // namespace hcisim
