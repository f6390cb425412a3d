// vSAN OSA's back end (cluster_core.hpp): disk groups of one cache device (write buffer;
// hybrid: also read cache) and capacity devices, the destage elevator with its data
// reduction, each group's LSOM worlds, the congestion delay and the writes that wait for
// buffer room. The foreground path calls it through ClusterCore::with_back_end; its I/O
// steps are in osa_io_path.hpp (inlined into io_path.cpp), the rest in osa_back_end.cpp.
//   Writes: RAID-1 puts FTT+1 copies in the target groups' write buffers; RAID-5/6 a
//   partial-stripe write reads old data + m parities, then writes them (2+2 / 3+3), a full
//   stripe or a sequential stream writes k+m units without reads.
//   Reads: the write buffer if the block is still there, else the capacity tier (hybrid:
//   the read cache, else the disk plus a cache fill).
//   Destage: per disk group, batches read from the cache device, deduped and compressed on
//   the host CPU or the group's LSOM world, written to a capacity device (write_buffer.hpp
//   for fill, coalescing, congestion).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "hcisim/model/core/station.hpp"
#include "hcisim/model/hw/host_cpu.hpp"
#include "hcisim/storage/cluster_spec.hpp"
#include "hcisim/model/storage/write_buffer.hpp"
#include "io_state.hpp"

namespace hcisim {

class ClusterCore;

class OsaBackEnd {
 public:
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
    Time last_write = io::kNeverWritten;     // a write last reserved room here (idle destage)
    bool idle_check_pending = false;         // an idle-check event is scheduled (pump_destage)
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
    io::WaitQueue waiting;                   // requests waiting for room
    bool resync_waiting = false;             // a resync piece waits for room (resync.cpp)
  };

  // Built (osa_back_end.cpp).
  /// The CPU costs of an OSA host: with LSOM worlds, the per-operation stages that run only
  /// on them at lsom_cost_factor.
  static CpuCosts cpu_costs(const ClusterSpec& spec);
  /// Cores each host pins for its groups' LSOM worlds.
  static int pinned_cores(const ClusterSpec& spec, const HostSpec& host);
  void build(ClusterCore& c);
  void add_object(ClusterCore& c, io::Object& o, Bytes size, Bytes working_set);

  // The I/O path (osa_io_path.hpp).
  /// ESA compresses at the source; OSA stores and sends data as written (reduction at destage).
  static std::int64_t stored_bytes(const ClusterCore&, std::int64_t bytes) { return bytes; }
  Bytes stripe_unit(const ClusterCore& c) const;
  /// Data services the client host runs on an I/O of `size` bytes: the checksum.
  Time source_services(const ClusterCore& c, HostCpu& cpu, IoOp op, Bytes size) const;
  /// A write's congestion delay: the most congested of its target groups.
  Time admission_delay(ClusterCore& c, const io::Request& r);
  /// Reserves room in every target write buffer; false when the request waits for room.
  bool admit(ClusterCore& c, std::uint32_t req);
  void fan_out_write(ClusterCore& c, std::uint32_t req);
  /// Which device serves a foreground read of component (`column`, `chunk`), and how.
  void place_read(ClusterCore& c, io::SubOp& s, const io::Request& r, int column, int chunk);
  /// RMW: the reads are done, the writes follow (true), or the request is done.
  bool next_phase(ClusterCore& c, io::Request& r) const;
  Time component_work(const ClusterCore& c, HostCpu& cpu, const io::SubOp& s) const;
  Station* world_of(const ClusterCore& c, std::uint32_t device) const;
  /// A destage or read-cache fill operation finished a step.
  void background_done(ClusterCore& c, std::uint32_t sub);
  void pump_destage(ClusterCore& c, std::uint32_t group);
  /// Room was freed in `group`: its waiters that now fit go on.
  void wake_waiters(ClusterCore& c, std::uint32_t group);

  // Whole-cluster steps and reports (osa_back_end.cpp).
  void idle_check(ClusterCore& c, std::uint32_t group);
  void prepare_write_buffers(const ClusterCore& c);
  void set_time_compression(ClusterCore& c, double k);
  void drain(ClusterCore& c);
  void reset_stats();
  const WriteBuffer& write_buffer(const ClusterCore& c, int host, int group) const;
  double smallest_write_buffer() const;
  const std::vector<std::unique_ptr<Station>>& lsom_worlds() const { return lsom_; }

  // Degraded and resync (osa_back_end.cpp).
  /// Degraded partial-stripe write whose data column is absent: phase 0 reads the row's
  /// other data (and the parities if another data column is absent too), phase 1 writes the
  /// surviving parities.
  void reconstruct_write(ClusterCore& c, std::uint32_t req, const StripeColumns& cols, int chunk);
  /// Places the new components of a rebuilt column on its new host, drawn like the originals.
  void place_rebuild(ClusterCore& c, io::ResyncJob& job, const io::Object& o, RngStream& rng);
  /// Whether a resync piece of `bytes` (cut to a quarter buffer if the buffer is small) fits
  /// the new component's write buffer now; if not, the piece waits for destage.
  bool resync_room(ClusterCore& c, const io::ResyncJob& job, std::int64_t& bytes);
  std::uint32_t resync_source(ClusterCore& c, std::uint32_t object, std::size_t column, int chunk,
                              const ComponentPlace& from, std::uint64_t offset);
  std::uint32_t resync_target(ClusterCore& c, const io::ResyncJob& job, const io::ResyncCopy& copy);
  /// The rebuilt components' disk groups (on the new host).
  void on_rebuilt(ClusterCore& c, io::Object& o, const io::ResyncJob& job, int old_host);

 private:
  struct Targets {
    std::array<std::uint32_t, 8> group;     // at most k+m = 6 or FTT+1 = 4 disk groups; the
                                            // first `count` set (no zeroing: twice per write)
    int count = 0;
    bool data_first = true;                 // partial EC write: group[0] is the data column
                                            // (false when that column is absent)
    const std::uint32_t* begin() const { return group.data(); }
    const std::uint32_t* end() const { return group.data() + count; }
  };
  /// The global disk group of component `chunk` of column `column`.
  static std::uint32_t group_of(const io::Object& o, std::size_t column, int chunk) {
    return o.groups[column * static_cast<std::size_t>(o.place.chunks) + static_cast<std::size_t>(chunk)];
  }
  Targets write_targets(const ClusterCore& c, const io::Request& r) const;
  /// A foreground write of `bytes` to the write buffer of component (`col`, `h`).
  void write_buffered(ClusterCore& c, std::uint32_t req, const io::Object& o, std::size_t col, int h, std::int64_t bytes);
  bool full_stripe(const ClusterCore& c, const io::Request& r) const;
  std::int64_t strided_parity_bytes(const ClusterCore& c, const io::Request& r) const;
  /// The elevator's data reduction of a destage batch of `b` logical bytes.
  Time reduction_work(const ClusterCore& c, HostCpu& cpu, Bytes b) const;
  /// A destage batch's own work (bookkeeping; encrypted groups: decrypt and encrypt again).
  Time batch_work(const ClusterCore& c, HostCpu& cpu, std::int64_t bytes) const;
  /// A destage batch's fingerprinting and compression: on the shared cores, or handed to the
  /// group's LSOM world one batch at a time (the elevator is one thread of that world).
  void run_destage_cpu(ClusterCore& c, std::uint32_t sub, HostCpu& cpu, Time work);
  /// The world finished a batch: it takes the next parked one, if any.
  void next_destage_cpu(ClusterCore& c, std::uint32_t group);
  /// No write has reserved room in the group for OsaSettings::destage_idle_after.
  bool idle_group(const ClusterCore& c, const DiskGroup& dg) const;
  /// The disk group of the new component holding column offset `column_offset`.
  std::uint32_t resync_group(const ClusterCore& c, const io::ResyncJob& job, std::int64_t column_offset) const;

  std::vector<DiskGroup> groups_;
  std::vector<std::unique_ptr<Station>> lsom_;             // per disk group, if enabled
  std::vector<std::vector<std::uint32_t>> host_groups_;   // global group indices per host
  bool draining_ = false;
};

}  // namespace hcisim
