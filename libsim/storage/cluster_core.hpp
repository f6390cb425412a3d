// The inside of a Cluster (cluster.hpp), private to the storage layer: the foreground path
// of an I/O (client, owner, network, component operations, replies), resync and degraded
// I/O, over one of two back ends: the OSA disk groups (osa_back_end.hpp) or the ESA storage
// pool (esa_back_end.hpp). The architecture is looked at once, when the core is built; from
// then on the core reaches its back end through with_back_end(), the one dispatch point.
//
// Where each step of an I/O is (docs/model.md, "Where an I/O goes"):
//   io_path.cpp       submit, client CPU, admission, owner, fan-out, component operations,
//                     replies, completion (the hot path, with both back ends' I/O steps
//                     inlined from osa_io_path.hpp and esa_io_path.hpp, and the core steps
//                     they call from core_inline.hpp);
//   osa_back_end.cpp  disk groups built, objects' components on them, buffers prepared and
//                     aged, a degraded read-modify-write, rebuilt components;
//   esa_back_end.cpp  pools built, objects spread over them, partial stripes drained;
//   resync.cpp        rebuilding failed hosts' components;
//   degraded_io.cpp   erasure-coded reads of an absent column;
//   cluster_build.cpp the core built, objects added, accessors;
//   cluster.cpp       the public Cluster, forwarding here.
// The back ends keep their own state (disk groups, pools) and take the core as an argument
// of each step; they read and start the core's requests and operations as friends. The
// per-object fields each back end needs (OSA's disk groups, ESA's pending stripe bytes) sit
// in io::Object beside the placement.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "esa_back_end.hpp"
#include "hcisim/model/core/engine.hpp"
#include "hcisim/model/core/rng.hpp"
#include "hcisim/model/core/station.hpp"
#include "hcisim/model/hw/host_cpu.hpp"
#include "hcisim/model/hw/network.hpp"
#include "hcisim/model/hw/topology.hpp"
#include "hcisim/model/storage/cluster.hpp"
#include "io_state.hpp"
#include "osa_back_end.hpp"

namespace hcisim {

class ClusterCore final : public EventHandler,
                          public CpuClient,
                          public NetworkClient,
                          public DeviceClient,
                          public StationClient {
 public:
  ClusterCore(Cluster& facade, Engine& engine, const ClusterSpec& spec, const DataProfile& data, std::uint64_t seed,
              IoClient& client, std::uint64_t replication);
  ClusterCore(const ClusterCore&) = delete;
  ClusterCore& operator=(const ClusterCore&) = delete;

  /// The one dispatch point between the architectures: runs `f` on the cluster's back end.
  template <class F>
  [[gnu::always_inline]] decltype(auto) with_back_end(F&& f) {
    return osa_ ? f(*osa_) : f(*esa_);
  }
  template <class F>
  [[gnu::always_inline]] decltype(auto) with_back_end(F&& f) const {
    return osa_ ? f(*osa_) : f(*esa_);
  }

  // The public Cluster's operations (cluster.hpp says what each does).
  int add_object(int owner_host, Bytes size, Bytes working_set, GuestOs guest);
  int submit_piece(std::uint64_t token, int object, int client_host, IoOp op, std::uint64_t offset, Bytes size,
                   bool sequential, Bytes guest_bytes);
  void start_resync();
  void drain();
  void set_buffer_time_compression(double k);
  void reset_stats();
  const ObjectPlacement& placement(int object) const;
  /// ESA: the share of object `object`'s DOM client worlds' time their jobs were served since
  /// the last reset (not waiting for a core); 0 on OSA.
  double client_world_utilisation(int object) const;
  int client_worlds() const { return client_worlds_; }
  int objects() const { return static_cast<int>(objects_.size()); }
  /// The host the object's worlds run on (its VM's), -1 before its first I/O.
  int object_client_host(int object) const {
    const std::uint16_t h = objects_[static_cast<std::size_t>(object)].client_host;
    return h == Object::kNoHost ? -1 : h;
  }
  std::vector<Cluster::DeviceInfo> devices() const;
  int hosts() const { return static_cast<int>(spec_.hosts.size()); }
  bool host_up(int host) const { return down_[static_cast<std::size_t>(host)] == 0; }

  void on_event(Engine& engine, EventTag tag, std::uint64_t arg) override;
  void on_cpu_done(HostCpu& cpu, std::uint64_t token) override;
  void on_delivered(Network& network, std::uint64_t token) override;
  void on_io_complete(StorageDevice& device, std::uint64_t token) override;
  void on_departure(Station& station, std::uint64_t job, Time arrived, Time started) override;

 private:
  friend class Cluster;
  friend class OsaBackEnd;
  friend class EsaBackEnd;
  using Request = io::Request;
  using SubOp = io::SubOp;
  using Object = io::Object;
  enum EventTagKind : EventTag { kAfterDelay = 1, kResyncPump, kIdleCheck };

  std::uint32_t add_device(const DriveSpec& drive, int host, int group, const char* role);
  /// Live data on a NAND device: its map misses, pSLC cache and garbage collection follow it.
  void add_live(std::uint32_t device, double bytes);
  bool streams_on(std::uint32_t device) const;

  // The foreground path (io_path.cpp), in the order an I/O takes it.
  /// One request (a unit-bounded part of a submitted I/O): client CPU, then the I/O path.
  /// `guest_bytes` and `vscsi_bytes` are charged to those stages when > 0 (once per guest I/O
  /// and once per adapter piece).
  void start_request(std::uint64_t token, int object, int client_host, IoOp op, std::uint64_t offset, Bytes size,
                     bool sequential, Bytes guest_bytes, Bytes vscsi_bytes);
  /// The DOM client's work for `r` and the data services at the source, charged to `cpu`.
  Time client_work(const Request& r, HostCpu& cpu);
  /// The latency split's cut at the end of a client-side CPU job (owner's share included).
  void cut_client_job(Request& r);
  /// ESA: the guest's and vSCSI's job is done; the request takes one of its object's DOM
  /// client worlds, or waits for one in FIFO order.
  void to_client_world(std::uint32_t req);
  void start_client_world(std::uint32_t req);
  /// ESA: request `r`'s DOM client job is done; the next waiting request takes its world.
  void release_client_world(const Request& r);
  void after_client_cpu(std::uint32_t req);
  /// Admission (the back end may hold a write: OSA's write buffers), then to the owner.
  void after_delay(std::uint32_t req);
  /// after_delay, out of line: a request that waited for room tries again (wake_waiters).
  void readmit(std::uint32_t req);
  void to_owner(std::uint32_t req);
  std::int64_t to_owner_bytes(const Request& r) const;
  void fan_out(std::uint32_t req);
  /// A foreground device read of component (`column`, `chunk`) of the request's object.
  void add_read(std::uint32_t req, int column, int chunk, std::int64_t bytes);
  void add_write(std::uint32_t req, std::uint16_t host, std::uint32_t device, std::int64_t bytes);
  /// Degraded erasure-coded read of absent column `col`: k surviving units of its row.
  void degraded_read(std::uint32_t req, const StripeColumns& cols, int chunk, std::int64_t bytes);
  void request_done(std::uint32_t req);
  void complete(std::uint32_t req);
  void cut(Request& r, LatencyPart part);

  // Component operations: [network out] -> CPU at host -> device -> [network back].
  std::uint32_t new_subop(const SubOp& s);
  void start_subop(std::uint32_t sub);
  /// new_subop + start_subop, out of line (both are inlined into io_path.cpp's hot path).
  void launch(const SubOp& s);
  /// Submits component operation `sub` to its device; `extents`: separate address ranges of
  /// a random transfer (a hybrid destage batch), 1 otherwise.
  void subop_device(std::uint32_t sub, std::uint32_t extents = 1);
  /// LSOM work of component operation `sub`: on its disk group's worlds, else on `cpu`.
  void run_lsom(std::uint32_t sub, HostCpu& cpu, Time work);
  void subop_done(std::uint32_t sub);
  void after_cpu(std::uint64_t token);

  // Network and its stack's CPU.
  void send(std::uint64_t tok, int from, int to, std::int64_t bytes, bool background, std::uint64_t flow);
  void charge_stack(int host, std::int64_t bytes);          // a send's stack work, deferred
  void charge_receive_stack(int host, std::int64_t bytes);  // a receive's, deferred
  // The bytes a receiving host's job is charged per KiB for: none when the NIC's receive-queue
  // threads do that work (network.hpp; defer_received() charges it), all of them otherwise.
  std::int64_t received_on_job(std::int64_t bytes) const { return receive_threads_ ? 0 : bytes; }
  // With receive queues: `bytes` arrived at `host`; the queue's thread did their per-KiB work
  // on one of the host's cores, so the shared cores take it on as deferred work: the host's
  // next CPU job carries it (call it after the job of the message's own handler, which has
  // already waited for the queue).
  void defer_received(int host, std::int64_t bytes);

  /// Degraded: whether column `col` of object `o` sits on a failed host.
  bool absent(const Object& o, std::size_t col) const { return down_[o.place.data[col].host] != 0; }
  /// Which component of each column holds object offset `offset` (0 when unstriped).
  int chunk_at(const ObjectPlacement& p, std::uint64_t offset) const {
    return p.chunks == 1 ? 0 : chunk_of(p, layout_, spec_.osa.stripe_unit, offset);
  }
  /// Which component of each column a request's first byte falls in.
  int chunk(const Request& r) const { return chunk_at(objects_[r.object].place, r.offset); }

  // Resync (resync.cpp)
  void pump_resync(int host);
  /// Surviving components a piece is read from: 1 replica, or k erasure-coding columns.
  int sources_per_copy() const { return layout_.erasure_coded() ? layout_.data : 1; }
  void issue_copy(std::uint32_t job, std::int64_t column_offset, std::int64_t bytes);
  void resync_read_done(std::uint32_t copy);
  void resync_copied(std::uint32_t copy);
  /// subop_done for the two resync kinds (kept out of the foreground path).
  void resync_subop_done(std::uint32_t sub);
  void finish_job(io::ResyncJob& job);
  /// The object offset of a column offset (for its RAID-0 component).
  std::uint64_t object_offset(std::int64_t column_offset) const;

  Cluster& facade_;
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
  std::vector<io::ResyncJob> resync_jobs_;
  std::vector<io::ResyncHost> resync_hosts_;               // per host; empty until start_resync
  std::vector<io::ResyncCopy> copies_;
  std::vector<std::uint32_t> free_copies_;
  ResyncStatus resync_status_;
  RngStream rng_;
  Time stack_latency_;
  int client_worlds_ = 0;          // ESA: worlds per object's DOM client (esa_client_worlds); 0: OSA, no limit
  Time stats_since_;               // the last reset_stats
  bool receive_threads_ = false;   // NIC receive queues modelled (TCP, fabric.rx_queues > 0)
  std::unique_ptr<Network> network_;
  std::vector<std::unique_ptr<HostCpu>> cpus_;
  std::vector<io::DeviceSlot> devices_;
  std::optional<OsaBackEnd> osa_;                          // exactly one of the two is set
  std::optional<EsaBackEnd> esa_;
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
