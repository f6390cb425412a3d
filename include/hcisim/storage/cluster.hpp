// A simulated vSAN cluster: hosts (CPU, devices), the network, objects and the I/O path.
//
// How an I/O moves (vsan-model-facts.md sections 1-3, design.md):
//   0. a read may hit the client host's in-memory cache and complete after step 1;
//   1. client host CPU: guest, vSCSI, DOM client (+ checksum; ESA also compression and
//      encryption of writes at the source; ESA reads are decompressed on the component host
//      and cross the network uncompressed);
//   2. OSA writes: the congestion delay of the target disk groups is injected here, and a
//      write waits while a target write buffer has no room;
//   3. to the object's DOM owner (network if the owner is another host), DOM owner CPU;
//   4. the owner fans out component operations; each remote one is a network request, CPU
//      on the component host (network + LSOM/zDOM; OSA's LSOM also checks the checksum of
//      what it reads and, ASSUMED, writes), a device I/O and a network reply:
//        OSA RAID-1 write: FTT+1 writes to the cache (write buffer) devices;
//        OSA RAID-5/6 partial-stripe write: read old data + m parities, then write them
//          (2+2 / 3+3); a full-stripe write: k+m unit writes, no reads;
//        ESA write: FTT+1 performance-leg mirror writes of the compressed bytes;
//        read: one device read on the replica serving the address range (RAID-1) or on the
//          data column (EC): OSA reads the write buffer if the block is still there (else the
//          capacity tier; hybrid: the read cache, else the disk plus a cache fill);
//   5. when all component operations are done the owner acknowledges to the client.
// Background work competes for the same devices, CPU and links:
//   OSA destage: per disk group, batches read from the cache device, deduped/compressed on
//     the host CPU and written to a capacity device (write_buffer.hpp for fill, coalescing,
//     congestion);
//   ESA: the owner gathers each object's compressed writes into full stripes and writes
//     the k+m columns (or FTT+1 copies) to the capacity leg, x the GC factor.
//   resync (after ClusterSpec::failed_hosts, start_resync): copies of absent components
//     from surviving ones to new hosts.
// With failed hosts the path skips absent components (degraded_io.cpp for erasure coding).
// State lives per outstanding request and per pending background batch, never per
// completed I/O, so memory stays flat in simulated time.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hcisim/core/engine.hpp"
#include "hcisim/core/rng.hpp"
#include "hcisim/core/station.hpp"
#include "hcisim/core/units.hpp"
#include "hcisim/hw/host_cpu.hpp"
#include "hcisim/hw/network.hpp"
#include "hcisim/hw/storage_device.hpp"
#include "hcisim/storage/cluster_spec.hpp"
#include "hcisim/storage/io_counters.hpp"
#include "hcisim/storage/data_reduction.hpp"
#include "hcisim/storage/latency_split.hpp"
#include "hcisim/storage/placement.hpp"
#include "hcisim/storage/policy.hpp"
#include "hcisim/storage/write_buffer.hpp"

namespace hcisim {

class Cluster;

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

class Cluster final : public EventHandler,
                      public CpuClient,
                      public NetworkClient,
                      public DeviceClient,
                      public StationClient {
 public:
  /// Builds hosts, devices and fabric from `spec` (validated first). `data` says how
  /// reducible the written data is; `seed` drives placement and every random choice.
  /// `replication` changes every random choice but placement: independent runs of one cluster.
  Cluster(Engine& engine, const ClusterSpec& spec, const DataProfile& data, std::uint64_t seed, IoClient& client,
          std::uint64_t replication = 0);
  Cluster(const Cluster&) = delete;
  Cluster& operator=(const Cluster&) = delete;

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
  ResyncStatus resync_status() const { return resync_status_; }
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

  int hosts() const { return static_cast<int>(spec_.hosts.size()); }
  /// False for a failed host (ClusterSpec::failed_hosts): it runs no VM and no component.
  bool host_up(int host) const { return down_[static_cast<std::size_t>(host)] == 0; }
  const ClusterSpec& spec() const { return spec_; }
  const Layout& layout() const { return layout_; }
  const ReductionRatios& reduction() const { return reduction_; }
  const ObjectPlacement& placement(int object) const;
  const IoCounters& counters() const { return counters_; }
  std::size_t in_flight() const { return requests_.size() - free_requests_.size(); }
  /// Inside IoClient::on_io_done: where the completing operation's time went, from its
  /// submit to now (latency_split.hpp; the guest_queue part is the client's and stays 0).
  const LatencyParts& completing_split() const { return completing_; }
  /// Request and component-operation slots ever allocated: bounded by the peak number
  /// outstanding, not by the number completed (memory stays flat in simulated time).
  std::size_t state_slots() const { return requests_.size() + subops_.size(); }
  /// Operations the VMs submitted that have not completed.
  std::uint64_t live_requests() const { return requests_.size() - free_requests_.size(); }
  Network& network() { return *network_; }
  const Network& network() const { return *network_; }
  HostCpu& cpu(int host) { return *cpus_[static_cast<std::size_t>(host)]; }
  const HostCpu& cpu(int host) const { return *cpus_[static_cast<std::size_t>(host)]; }
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
  const std::vector<std::unique_ptr<Station>>& lsom_worlds() const { return lsom_; }
  void reset_stats();

  void on_event(Engine& engine, EventTag tag, std::uint64_t arg) override;
  void on_cpu_done(HostCpu& cpu, std::uint64_t token) override;
  void on_delivered(Network& network, std::uint64_t token) override;
  void on_io_complete(StorageDevice& device, std::uint64_t token) override;
  void on_departure(Station& station, std::uint64_t job, Time arrived, Time started) override;

 private:
  enum Kind : std::uint64_t {
    kClientCpu = 1, kOwnerCpu, kToOwner, kToClient, kSubOut, kSubBack, kSubCpu, kSubDevice,
  };
  // Foreground first, then the resync read (the other kind whose data travels back to the
  // requester), so each test is one comparison on the hot path.
  enum class SubKind : std::uint8_t { foreground, resync_read, resync_write, destage_read, destage_reduce, destage_cpu, destage_write,
                                      stripe, fill };
  enum EventTagKind : EventTag { kAfterDelay = 1, kResyncPump, kIdleCheck };

  struct DeviceSlot {
    std::unique_ptr<StorageDevice> device;
    int host = 0;
    int group = -1;              // OSA disk group (global index), -1 on ESA
    const char* role = "";
    double live_bytes = 0;       // data its components keep on it (after reduction)
  };
  struct DiskGroup {
    int host = 0;
    std::uint32_t cache = 0;                 // device index
    std::vector<std::uint32_t> capacity;     // device indices
    std::uint32_t next_capacity = 0;         // round-robin destage target
    WriteBuffer buffer;
    double read_cache = 0;                   // hybrid read-cache bytes (0 = all-flash)
    bool hybrid = false;
    int destage_in_flight = 0;
    double destage_bytes_in_flight = 0;
    Time last_write = kNeverWritten;         // a write last reserved room here (idle destage)
    bool idle_check_pending = false;         // a kIdleCheck event is scheduled (pump_destage)
    // With an LSOM world, the elevator hands the world one batch at a time (run_destage_cpu):
    // batches read from the cache wait here, in order, while the world holds one.
    struct Parked {
      std::uint32_t sub;
      Time work;
    };
    std::vector<Parked> parked;              // ring, sized for every batch in flight
    std::size_t parked_head = 0;
    std::size_t parked_count = 0;
    bool world_destaging = false;
    std::uint32_t wait_head = kNone;         // requests waiting for room (intrusive FIFO)
    std::uint32_t wait_tail = kNone;
    bool resync_waiting = false;             // a resync piece waits for room (resync.cpp)
  };
  struct Object {
    ObjectPlacement place;
    Bytes working_set;
    std::vector<std::uint32_t> groups;       // OSA: global disk group of each component, column-major
                                             // (column c, chunk h at c * place.chunks + h)
    double stripe_pending = 0;               // ESA: compressed bytes not yet in a full stripe
    GuestOs guest = GuestOs::linux_os;       // the OS of the VM whose disk it is (guest CPU)
  };
  struct Request {
    std::uint64_t token = 0;
    Time mark;                               // where the latency split last cut (latency_split.hpp)
    LatencyParts split{};
    std::uint64_t offset = 0;
    std::int64_t size = 0;
    std::uint32_t object = 0;
    std::uint32_t next_waiting = kNone;
    std::uint16_t client = 0;
    std::uint16_t pending = 0;
    IoOp op = IoOp::read;
    std::uint8_t phase = 0;                  // RMW: 0 = reads, 1 = writes
    bool cached = false;                     // read served by the client cache
    bool sequential = false;                 // continues its VMDK's stream (Cluster::submit)
    bool reconstruct = false;                // degraded RMW: phase 0 rebuilt the lost data column's
                                             // parity inputs; phase 1 keeps that plan
  };
  struct SubOp {
    std::uint32_t parent = kNone;            // request, or disk group for destage
    std::uint32_t device = 0;
    std::int64_t device_bytes = 0;
    std::int64_t out_bytes = 0;              // from -> host
    std::int64_t back_bytes = 0;             // host -> from
    std::uint16_t from = 0;
    std::uint16_t host = 0;
    IoOp op = IoOp::read;
    SubKind kind = SubKind::foreground;
    bool sequential = false;
    bool lookup_first = false;               // OSA dedupe: a metadata read precedes the data read
    // Foreground: when it was sent, reached its host, left the CPU and left the device (its
    // request's latency split takes them from the operation that finishes last).
    Time sent, arrived, cpu_done, device_done;
  };
  static constexpr std::uint32_t kNone = 0xffffffffu;
  static constexpr Time kNeverWritten = Time::ns(std::numeric_limits<std::int64_t>::min() / 2);
  static constexpr std::int64_t kBlock = 4096;   // vSAN's 4 KiB block (write buffer, dedupe map)
  /// `bytes` / `divisor` (a reduction ratio), rounded.
  static std::int64_t scaled(std::int64_t bytes, double divisor) {
    return divisor == 1.0 ? bytes : static_cast<std::int64_t>(std::llround(static_cast<double>(bytes) / divisor));
  }
  static std::uint64_t token(Kind kind, std::uint32_t index) { return (static_cast<std::uint64_t>(kind) << 56) | index; }

  void build_osa();
  void build_esa();
  std::uint32_t add_device(const DriveSpec& drive, int host, int group, const char* role);
  std::uint32_t new_subop(const SubOp& s);
  void start_subop(std::uint32_t sub);
  /// new_subop + start_subop, out of line (both are inlined into cluster.cpp's hot path).
  void launch(const SubOp& s);
  /// Submits component operation `sub` to its device; `extents`: separate address ranges of
  /// a random transfer (a hybrid destage batch), 1 otherwise.
  void subop_device(std::uint32_t sub, std::uint32_t extents = 1);
  Time component_work(HostCpu& cpu, const SubOp& s);
  Time reduction_work(HostCpu& cpu, Bytes b);
  Time batch_work(HostCpu& cpu, std::int64_t bytes);
  bool streams_on(std::uint32_t device) const;
  /// The LSOM worlds of the disk group holding `device`, or null (ESA; OSA on shared cores).
  Station* world_of(std::uint32_t device) const;
  void add_live(std::uint32_t device, double bytes);
  /// LSOM work of component operation `sub`: on its disk group's worlds, else on `cpu`.
  void run_lsom(std::uint32_t sub, HostCpu& cpu, Time work);
  void after_cpu(std::uint64_t token);
  void cut(Request& r, LatencyPart part);
  void subop_done(std::uint32_t sub);
  void after_client_cpu(std::uint32_t req);
  void after_delay(std::uint32_t req);
  void to_owner(std::uint32_t req);
  void fan_out(std::uint32_t req);
  void add_read(std::uint32_t req, const ComponentPlace& c, std::uint32_t group, std::int64_t bytes);
  void add_write(std::uint32_t req, std::uint16_t host, std::uint32_t device, std::int64_t bytes);
  /// Degraded: whether column `col` of object `o` sits on a failed host.
  bool absent(const Object& o, std::size_t col) const { return down_[o.place.data[col].host] != 0; }
  /// Degraded erasure-coded read of absent column `col`: k surviving units of its row.
  void degraded_read(std::uint32_t req, const StripeColumns& cols, int chunk, std::int64_t bytes);
  /// Degraded OSA partial-stripe write whose data column is absent: phase 0 reads the row's
  /// other data (and the parities if another data column is absent too), phase 1 writes the
  /// surviving parities.
  void reconstruct_write(std::uint32_t req, const StripeColumns& cols, int chunk);
  void request_done(std::uint32_t req);
  void complete(std::uint32_t req);
  void send(std::uint64_t tok, int from, int to, std::int64_t bytes, bool background, std::uint64_t flow);
  void charge_stack(int host, std::int64_t bytes);          // a send's stack work, deferred
  void charge_receive_stack(int host, std::int64_t bytes);  // a receive's, deferred
  std::int64_t to_owner_bytes(const Request& r) const;
  // The bytes a receiving host's job is charged per KiB for: none when the NIC's receive-queue
  // threads do that work (network.hpp; defer_received() charges it), all of them otherwise.
  std::int64_t received_on_job(std::int64_t bytes) const { return receive_threads_ ? 0 : bytes; }
  // With receive queues: `bytes` arrived at `host`; the queue's thread did their per-KiB work
  // on one of the host's cores, so the shared cores take it on as deferred work: the host's
  // next CPU job carries it (call it after the job of the message's own handler, which has
  // already waited for the queue).
  void defer_received(int host, std::int64_t bytes);
  std::uint32_t pool_device(int host, int object, std::uint64_t offset) const;
  // OSA write buffers
  /// One request (a unit-bounded part of a submitted I/O): client CPU, then the I/O path.
  /// `guest_bytes` and `vscsi_bytes` are charged to those stages when > 0 (once per guest I/O
  /// and once per adapter piece).
  void start_request(std::uint64_t token, int object, int client_host, IoOp op, std::uint64_t offset, Bytes size,
                     bool sequential, Bytes guest_bytes, Bytes vscsi_bytes);
  /// OSA: the global disk group of component `chunk` of column `column`.
  static std::uint32_t group_of(const Object& o, std::size_t column, int chunk) {
    return o.groups[column * static_cast<std::size_t>(o.place.chunks) + static_cast<std::size_t>(chunk)];
  }
  /// OSA: which component of each column holds object offset `offset` (0 on ESA, unstriped).
  int chunk_at(const ObjectPlacement& p, std::uint64_t offset) const {
    return p.chunks == 1 ? 0 : chunk_of(p, layout_, spec_.osa.stripe_unit, offset);
  }
  /// OSA: which component of each column a request's first byte falls in.
  int chunk(const Request& r) const { return chunk_at(objects_[r.object].place, r.offset); }
  struct Targets {
    std::array<std::uint32_t, 8> group;     // at most k+m = 6 or FTT+1 = 4 disk groups; the
                                            // first `count` set (no zeroing: twice per write)
    int count = 0;
    bool data_first = true;                 // partial EC write: group[0] is the data column
                                            // (false when that column is absent)
    const std::uint32_t* begin() const { return group.data(); }
    const std::uint32_t* end() const { return group.data() + count; }
  };
  Targets write_targets(const Request& r) const;
  bool full_stripe(const Request& r) const;
  std::int64_t strided_parity_bytes(const Request& r) const;
  void pump_destage(std::uint32_t group);
  /// A destage batch's fingerprinting and compression: on the shared cores, or handed to the
  /// group's LSOM world one batch at a time (the elevator is one thread of that world).
  void run_destage_cpu(std::uint32_t sub, HostCpu& cpu, Time work);
  /// The world finished a batch: it takes the next parked one, if any.
  void next_destage_cpu(std::uint32_t group);
  /// No write has reserved room in the group for OsaSettings::destage_idle_after.
  bool idle_group(const DiskGroup& dg) const { return engine_.now() - dg.last_write >= spec_.osa.destage_idle_after; }
  void wake_waiters(std::uint32_t group);
  // ESA capacity leg
  void stripe_out(std::uint32_t object);
  // Resync (resync.cpp)
  struct ResyncJob {
    std::uint32_t object = 0;
    std::uint16_t column = 0;
    std::uint16_t target = 0;                // the new host
    std::vector<ComponentPlace> place;       // the new component(s) of the column, by chunk
    std::int64_t total = 0, issued = 0, done = 0;   // column bytes
  };
  struct ResyncCopy {
    std::uint32_t job = 0;
    std::int64_t column_offset = 0;
    std::int64_t bytes = 0;
    int pending = 0;                         // source reads not yet arrived
  };
  struct ResyncHost {
    std::vector<std::uint32_t> queue;        // jobs rebuilding onto this host, in order
    std::size_t head = 0;
    int in_flight = 0;
    Time next_free = Time::zero();           // throttle: when the next copy may start
    bool pump_scheduled = false;
  };
  void pump_resync(int host);
  /// Surviving components a piece is read from: 1 replica, or k erasure-coding columns.
  int sources_per_copy() const { return layout_.erasure_coded() ? layout_.data : 1; }
  void issue_copy(std::uint32_t job, std::int64_t column_offset, std::int64_t bytes);
  void resync_read_done(std::uint32_t copy);
  void resync_copied(std::uint32_t copy);
  /// subop_done for the two resync kinds (kept out of the foreground path).
  void resync_subop_done(std::uint32_t sub);
  void finish_job(ResyncJob& job);
  /// The object offset of a column offset (for its RAID-0 component) and the disk group of
  /// the new component holding it.
  std::uint64_t object_offset(std::int64_t column_offset) const;
  std::uint32_t resync_group(const ResyncJob& job, std::int64_t column_offset) const;

  Engine& engine_;
  ClusterSpec spec_;
  Layout layout_;
  ReductionRatios reduction_;
  IoClient& client_;
  std::uint64_t seed_;
  std::uint64_t replication_;
  bool two_node_ = false;
  bool degraded_ = false;                                  // some host has failed
  std::vector<std::uint8_t> down_;                         // per host: 1 = failed
  std::vector<ResyncJob> resync_jobs_;
  std::vector<ResyncHost> resync_hosts_;                   // per host; empty until start_resync
  std::vector<ResyncCopy> copies_;
  std::vector<std::uint32_t> free_copies_;
  ResyncStatus resync_status_;
  bool draining_ = false;
  RngStream rng_;
  Time stack_latency_;
  bool receive_threads_ = false;   // NIC receive queues modelled (TCP, fabric.rx_queues > 0)
  std::unique_ptr<Network> network_;
  std::vector<std::unique_ptr<HostCpu>> cpus_;
  std::vector<DeviceSlot> devices_;
  std::vector<DiskGroup> groups_;
  std::vector<std::unique_ptr<Station>> lsom_;             // OSA: per disk group, if enabled
  std::vector<std::vector<std::uint32_t>> host_groups_;   // OSA: global group indices per host
  std::vector<std::vector<std::uint32_t>> pools_;         // ESA: device indices per host
  std::vector<Object> objects_;
  std::vector<double> client_working_set_;   // bytes addressed by the VMDKs of each host
  std::vector<double> client_cache_bytes_;   // each host's DOM client cache (ClusterSpec::client_cache_mb_of)
  std::vector<Request> requests_;
  std::vector<std::uint32_t> free_requests_;
  std::vector<SubOp> subops_;
  std::vector<std::uint32_t> free_subops_;
  IoCounters counters_;
  LatencyParts completing_{};
};

}  // namespace hcisim
