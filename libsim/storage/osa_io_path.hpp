// OSA's steps on an I/O's path and its destage elevator (osa_back_end.hpp), defined inline so
// that io_path.cpp, which calls them on every I/O, compiles them into its own unit.
#pragma once

#include <algorithm>
#include <cmath>

#include "cluster_core.hpp"
#include "core_inline.hpp"
#include "osa_back_end.hpp"

namespace hcisim {

inline Bytes OsaBackEnd::stripe_unit(const ClusterCore& c) const { return c.spec_.osa.stripe_unit; }

inline Time OsaBackEnd::source_services(const ClusterCore& c, HostCpu& cpu, IoOp, Bytes size) const {
  return c.spec_.policy.checksum ? cpu.charge(CpuStage::checksum, size) : Time::zero();
}

// An OSA erasure-coded write covering whole stripe rows (no read-modify-write).
inline bool OsaBackEnd::full_stripe(const ClusterCore& c, const io::Request& r) const {
  const std::int64_t row = c.spec_.osa.stripe_unit.count() * c.layout_.data;
  return r.size % row == 0 && r.offset % static_cast<std::uint64_t>(row) == 0;
}

// A strided write's share on each parity column: 1/k of its bytes (rounded up, at least 1).
inline std::int64_t OsaBackEnd::strided_parity_bytes(const ClusterCore& c, const io::Request& r) const {
  return std::max<std::int64_t>(1, (r.size + c.layout_.data - 1) / c.layout_.data);
}

inline OsaBackEnd::Targets OsaBackEnd::write_targets(const ClusterCore& c, const io::Request& r) const {
  const io::Object& o = c.objects_[r.object];
  Targets t;
  auto add = [&t](std::uint32_t g) { t.group[static_cast<std::size_t>(t.count++)] = g; };
  const int h = c.chunk(r);
  if (!c.layout_.erasure_coded() || full_stripe(c, r)) {
    for (std::size_t i = 0; i < o.place.data.size(); ++i)
      if (!c.degraded_ || !c.absent(o, i)) add(group_of(o, i, h));
    return t;
  }
  const StripeColumns cols = stripe_columns(c.layout_, c.spec_.osa.stripe_unit, r.offset);
  if (!c.degraded_ || !c.absent(o, static_cast<std::size_t>(cols.data_column)))
    add(group_of(o, static_cast<std::size_t>(cols.data_column), h));
  else
    t.data_first = false;
  for (int i = 0; i < cols.parity_count; ++i) {
    const auto col = static_cast<std::size_t>(cols.parity_columns[i]);
    if (!c.degraded_ || !c.absent(o, col)) add(group_of(o, col, h));
  }
  return t;
}

// The congestion delay of the most congested target disk group, injected at the client.
inline Time OsaBackEnd::admission_delay(ClusterCore& c, const io::Request& r) {
  if (r.op != IoOp::write) return Time::zero();
  Time congestion = Time::zero();
  for (std::uint32_t g : write_targets(c, r)) congestion = std::max(congestion, groups_[g].buffer.congestion_delay());
  if (congestion > Time::zero()) ++c.counters_.congestion_delays;
  return congestion;
}

// Writes reserve room in every target write buffer, or wait for destage to free some.
[[gnu::always_inline]] inline bool OsaBackEnd::admit(ClusterCore& c, std::uint32_t req) {
  io::Request& r = c.requests_[req];
  if (r.op != IoOp::write) return true;
  const auto targets = write_targets(c, r);
  const Bytes per_target{r.size};
  for (std::uint32_t g : targets) {
    DiskGroup& dg = groups_[g];
    if (!dg.buffer.has_room(per_target)) {
      ++c.counters_.waited_for_buffer;
      dg.waiting.push(c.requests_, req);
      pump_destage(c, g);
      return false;
    }
  }
  const double runs_per_byte = r.sequential ? 0.0 : 1.0 / static_cast<double>(r.size);
  // A strided (sequential erasure-coded) write puts 1/k of its bytes on each parity column.
  const bool strided = r.sequential && c.layout_.erasure_coded() && !full_stripe(c, r);
  const Bytes parity = strided ? Bytes{strided_parity_bytes(c, r)} : per_target;
  for (int i = 0; i < targets.count; ++i) {
    const std::uint32_t g = targets.group[static_cast<std::size_t>(i)];
    groups_[g].buffer.write(i == 0 && targets.data_first ? per_target : parity, runs_per_byte);
    groups_[g].last_write = c.engine_.now();
    pump_destage(c, g);
  }
  return true;
}

// A foreground write of `bytes` to the write buffer (the cache device) of component (`col`, `h`).
inline void OsaBackEnd::write_buffered(ClusterCore& c, std::uint32_t req, const io::Object& o, std::size_t col, int h,
                                       std::int64_t bytes) {
  c.add_write(req, o.place.data[col].host, groups_[group_of(o, col, h)].cache, bytes);
}

// The owner's component operations for a write (or one RMW phase).
inline void OsaBackEnd::fan_out_write(ClusterCore& c, std::uint32_t req) {
  io::Request& r = c.requests_[req];
  const io::Object& o = c.objects_[r.object];
  const bool degraded = c.degraded_;
  const int h = c.chunk(r);
  if (!c.layout_.erasure_coded()) {
    for (std::size_t i = 0; i < o.place.data.size(); ++i)
      if (!degraded || !c.absent(o, i)) write_buffered(c, req, o, i, h, r.size);
    return;
  }
  const std::int64_t unit = c.spec_.osa.stripe_unit.count();
  const std::int64_t row = unit * c.layout_.data;
  if (full_stripe(c, r)) {
    // Full stripes: k + m unit writes per row, no reads.
    for (std::int64_t rows = r.size / row; rows > 0; --rows)
      for (std::size_t i = 0; i < o.place.data.size(); ++i)
        if (!degraded || !c.absent(o, i)) write_buffered(c, req, o, i, h, unit);
    return;
  }
  const StripeColumns cols = stripe_columns(c.layout_, c.spec_.osa.stripe_unit, r.offset);
  int touched[3] = {cols.data_column, cols.parity_columns[0], cols.parity_columns[1]};
  if (r.sequential) {
    // A sequential stream: vSAN 7 U2+ gathers it into full-stripe ("strided") writes
    // ([S48] [S49]), so no reads, and each parity column receives
    // 1/k of the data written: per row, k data units and m parity units.
    // Degraded: absent columns are skipped (the parities still cover the lost data).
    const std::int64_t parity = strided_parity_bytes(c, r);
    for (int i = 0; i <= cols.parity_count; ++i) {
      const auto col = static_cast<std::size_t>(touched[i]);
      if (degraded && c.absent(o, col)) continue;
      write_buffered(c, req, o, col, h, i == 0 ? r.size : parity);
    }
    return;
  }
  // Degraded: a lost data column. The plan chosen in phase 0 holds for phase 1 even if
  // resync brings the column back in between.
  if (degraded && (r.reconstruct || c.absent(o, static_cast<std::size_t>(cols.data_column)))) {
    r.reconstruct = true;
    reconstruct_write(c, req, cols, h);
    return;
  }
  // Partial stripe: read-modify-write of the data column and the m parity columns (degraded:
  // of those that survive).
  for (int i = 0; i <= cols.parity_count; ++i) {
    const auto col = static_cast<std::size_t>(touched[i]);
    if (degraded && c.absent(o, col)) continue;
    if (r.phase == 0) c.add_read(req, touched[i], h, r.size);
    else write_buffered(c, req, o, col, h, r.size);
  }
}

// A foreground read looks in the write buffer, then (hybrid) the read cache, then the
// capacity tier, where a dedupe group may first read its map.
inline void OsaBackEnd::place_read(ClusterCore& c, io::SubOp& s, const io::Request& r, int column, int chunk) {
  const io::Object& o = c.objects_[r.object];
  const ComponentPlace& cp = o.place.component(column, chunk);
  DiskGroup& dg = groups_[group_of(o, static_cast<std::size_t>(column), chunk)];
  s.device_bytes = s.back_bytes;
  if (c.rng_.uniform01() < dg.buffer.hit_probability()) {
    s.device = dg.cache;
  } else if (dg.hybrid && c.rng_.uniform01() < std::min(1.0, dg.read_cache / std::max(1.0, dg.buffer.working_set()))) {
    s.device = dg.cache;
  } else {
    s.device = dg.capacity[cp.device];
    s.lookup_first = c.spec_.services.dedupe && c.spec_.osa.dedupe_lookup_miss > 0 &&
                     c.rng_.uniform01() < c.spec_.osa.dedupe_lookup_miss;
    if (dg.hybrid) {
      // Read-cache fill: the block read from disk is written to the cache device.
      io::SubOp fill;
      fill.kind = io::SubKind::fill;
      fill.device = dg.cache;
      fill.from = cp.host;
      fill.host = cp.host;
      fill.op = IoOp::write;
      fill.device_bytes = s.back_bytes;
      c.subop_device(c.new_subop(fill));
    }
  }
}

// RMW: the reads of phase 0 are done; phase 1 writes.
inline bool OsaBackEnd::next_phase(ClusterCore& c, io::Request& r) const {
  if (!c.layout_.erasure_coded() || r.phase != 0 || full_stripe(c, r) || r.sequential) return false;
  r.phase = 1;
  return true;
}

// LSOM work for a component operation. A read of data stored compressed also decompresses
// there: a read served by the capacity tier (the write buffer holds data as written), a
// resync read too (OSA copies data as written and the new host reduces it again at destage).
// Data that does not compress is stored as is (unless a 4 KB block fits in 2 KB;
// [S16] [S17]) and costs no decompression. Data-at-rest encryption is per
// device write and read, on the component's host: blocks are encrypted into the cache tier,
// decrypted for destage (dedupe and compression need the plain text) and encrypted again
// into the capacity tier (linuxpark.com, "vSAN encryption, checksum and data reduction
// features in I/O flow").
inline Time OsaBackEnd::component_work(const ClusterCore& c, HostCpu& cpu, const io::SubOp& s) const {
  Time work = cpu.charge(CpuStage::component, Bytes{s.device_bytes});
  const bool data_read = s.op == IoOp::read && (s.kind == io::SubKind::foreground || s.kind == io::SubKind::resync_read);
  if (data_read && c.spec_.services.compression && c.reduction_.compression > 1) {
    const int group = c.devices_[s.device].group;
    if (group >= 0 && groups_[static_cast<std::size_t>(group)].cache != s.device)
      work += cpu.charge(CpuStage::decompression, Bytes{s.back_bytes});
  }
  if (c.spec_.policy.encryption && s.kind == io::SubKind::foreground)
    work += cpu.charge(CpuStage::encryption, Bytes{s.device_bytes});
  // The end-to-end checksum is checked by the component's LSOM too. On a read, LSOM computes
  // the CRC of what it read and compares it with the stored one (its error log, "computed CRC
  // != saved CRC", comes from LSOM on the component's host; C. Hogan, "VSAN 6.2 Part 3 -
  // Software Checksum", 2016); the client checks it too (source_services; the order of the
  // two is not modelled). ASSUMED on a write: the CRC computed at the source is checked
  // before the data reaches the media, so that a bit flipped on the network is detected
  // (D. Epping, "VSAN 6.2, checksumming where you should", 2016, says it is detected, not
  // where; Hogan says a write's checksum is verified on the host where the data originates).
  // Per byte of the data as written (before any compression), as at the client.
  if (c.spec_.policy.checksum && s.kind == io::SubKind::foreground)
    work += cpu.charge(CpuStage::checksum, Bytes{s.device_bytes});   // a read's back_bytes are its device_bytes
  return work;
}

inline Station* OsaBackEnd::world_of(const ClusterCore& c, std::uint32_t device) const {
  if (lsom_.empty()) return nullptr;
  const int g = c.devices_[device].group;
  return g < 0 ? nullptr : lsom_[static_cast<std::size_t>(g)].get();
}

// The elevator's data reduction of a destage batch: SHA-1 fingerprints and LZ4, as the
// cluster's data services have them.
inline Time OsaBackEnd::reduction_work(const ClusterCore& c, HostCpu& cpu, Bytes b) const {
  Time work = Time::zero();
  if (c.spec_.services.dedupe) work += cpu.charge(CpuStage::dedupe, b);
  if (c.spec_.services.compression) work += cpu.charge(CpuStage::compression, b);
  return work;
}

// A destage batch's own work: the elevator's bookkeeping, and on encrypted disk groups the
// decryption of what it read and the encryption of what it writes back (see component_work).
inline Time OsaBackEnd::batch_work(const ClusterCore& c, HostCpu& cpu, std::int64_t bytes) const {
  Time work = cpu.charge(CpuStage::destage, Bytes{bytes});
  if (c.spec_.policy.encryption)
    work += cpu.charge(CpuStage::encryption, Bytes{bytes}) +
            cpu.charge(CpuStage::encryption, Bytes{io::scaled(bytes, c.reduction_.total())});
  return work;
}

// ASSUMED: the elevator is one thread of the group's LSOM world, so the world holds at most one
// destage batch at a time and a foreground operation waits behind at most one (VMware
// publishes neither the elevator's threads nor its batch size). With every batch in flight
// queued at the world at once, a write waited behind up to destage_depth batches even at
// light load: seed 000's write p95 came out at 5 ms against 1-2 ms measured, and its p95 knee at
// 5 ms fell to about 1,100 IOPS. The batches' device I/O still overlaps (destage_depth).
inline void OsaBackEnd::run_destage_cpu(ClusterCore& c, std::uint32_t sub, HostCpu& cpu, Time work) {
  DiskGroup& dg = groups_[c.subops_[sub].parent];
  if (dg.parked.empty()) {   // no LSOM world: the shared cores, FIFO
    cpu.run(io::token(io::kSubCpu, sub), work);
    return;
  }
  if (dg.world_destaging) {
    // Bounded: every batch in flight fits (sized in build).
    dg.parked[(dg.parked_head + dg.parked_count++) % dg.parked.size()] = {sub, work};
    ++c.counters_.destage_waits;
    return;
  }
  dg.world_destaging = true;
  c.run_lsom(sub, cpu, work);   // the batch's device is the group's cache device
}

inline void OsaBackEnd::next_destage_cpu(ClusterCore& c, std::uint32_t group) {
  DiskGroup& dg = groups_[group];
  if (dg.parked.empty()) return;
  if (dg.parked_count == 0) {
    dg.world_destaging = false;
    return;
  }
  const DiskGroup::Parked next = dg.parked[dg.parked_head];
  dg.parked_head = (dg.parked_head + 1) % dg.parked.size();
  --dg.parked_count;
  c.run_lsom(next.sub, *c.cpus_[static_cast<std::size_t>(dg.host)], next.work);
}

inline void OsaBackEnd::background_done(ClusterCore& c, std::uint32_t sub) {
  io::SubOp& s = c.subops_[sub];
  switch (s.kind) {
    case io::SubKind::destage_read: {
      // Fingerprint and compress on the disk group's host, then write to capacity.
      HostCpu& cpu = *c.cpus_[s.host];
      const Time reduction = reduction_work(c, cpu, Bytes{s.device_bytes});
      if (c.spec_.osa.destage_reduction == DestageReduction::shared && !groups_[s.parent].parked.empty() &&
          (c.spec_.services.dedupe || c.spec_.services.compression)) {
        // osa.destage_reduction: shared. The reduction runs on the shared cores first; the
        // batch's own work then takes the world (destage_reduce, below).
        s.kind = io::SubKind::destage_reduce;
        cpu.run(io::token(io::kSubCpu, sub), reduction);
        return;
      }
      s.kind = io::SubKind::destage_cpu;
      run_destage_cpu(c, sub, cpu, batch_work(c, cpu, s.device_bytes) + reduction);
      return;
    }
    case io::SubKind::destage_reduce: {
      // Reduced on the shared cores: the batch's own work on the world.
      s.kind = io::SubKind::destage_cpu;
      HostCpu& cpu = *c.cpus_[s.host];
      run_destage_cpu(c, sub, cpu, batch_work(c, cpu, s.device_bytes));
      return;
    }
    case io::SubKind::destage_cpu: {
      next_destage_cpu(c, s.parent);
      DiskGroup& dg = groups_[s.parent];
      s.kind = io::SubKind::destage_write;
      s.op = IoOp::write;
      s.device = dg.capacity[dg.next_capacity++ % dg.capacity.size()];
      s.out_bytes = s.device_bytes;   // logical bytes destaged, remembered for the buffer
      s.device_bytes = io::scaled(s.device_bytes, c.reduction_.total());
      // A disk receives the batch as the dirty extents it holds, sorted by address: one seek and
      // rotation per extent (WriteBuffer::mean_extent), so scattered random writes cost what
      // they cost on a disk however the elevator orders them. An SSD takes the batch as one
      // write. FITTED CHOICE (docs/accuracy.md, "Choices made with the data in view"): per
      // extent at the datasheet's full-drive random-write rate made seed 003's S4500 capacity
      // drives its limit at half the measured 8K IOPS. A drive with NAND internals
      // (flash_array.hpp) charges the batch's bytes with garbage collection at its own fill.
      s.sequential = false;
      c.subop_device(sub, dg.hybrid ? static_cast<std::uint32_t>(dg.buffer.extents_in(static_cast<double>(s.out_bytes))) : 1);
      return;
    }
    case io::SubKind::destage_write: {
      const std::uint32_t g = s.parent;
      DiskGroup& dg = groups_[g];
      dg.buffer.destaged(static_cast<double>(s.out_bytes));
      dg.destage_bytes_in_flight -= static_cast<double>(s.out_bytes);
      --dg.destage_in_flight;
      c.free_subops_.push_back(sub);
      wake_waiters(c, g);
      pump_destage(c, g);
      return;
    }
    default:   // a read-cache fill
      c.free_subops_.push_back(sub);
      return;
  }
}

inline bool OsaBackEnd::idle_group(const ClusterCore& c, const DiskGroup& dg) const {
  return c.engine_.now() - dg.last_write >= c.spec_.osa.destage_idle_after;
}

// The elevator: destage_depth batches per capacity device while the buffer is above its
// start fill (or must free room); when no write has come for destage_idle_after, one batch per
// capacity device down to the idle fill (cluster_spec.hpp, OsaSettings).
inline void OsaBackEnd::pump_destage(ClusterCore& c, std::uint32_t g) {
  DiskGroup& dg = groups_[g];
  const bool pressed = dg.buffer.wants_destage(false) || draining_ || !dg.waiting.empty() || dg.resync_waiting;
  const bool above_idle_fill = !pressed && dg.buffer.wants_destage(true);
  const bool idle = above_idle_fill && idle_group(c, dg);   // no write for destage_idle_after
  const int per_device = pressed ? c.spec_.osa.destage_depth : 1;
  const int depth = per_device * static_cast<int>(dg.capacity.size());
  const double batch = static_cast<double>(c.spec_.osa.destage_batch_blocks) * io::kBlock;
  // Writes came within destage_idle_after and the buffer is above its idle fill: look again
  // when that time has passed (one event per group at a time), so the drain starts even if
  // nothing else calls this pump.
  if (above_idle_fill && !idle && !dg.idle_check_pending) {
    dg.idle_check_pending = true;
    c.engine_.schedule_at(dg.last_write + c.spec_.osa.destage_idle_after, c, ClusterCore::kIdleCheck, g);
  }
  // Nothing in the loop changes `pressed` or `idle`: its destage I/O completes in later events.
  while (dg.destage_in_flight < depth && (pressed || idle)) {
    // Real bytes not yet claimed by a destage (dirty bytes count k-fold while aging).
    const double k = dg.buffer.time_compression();
    const double available = (dg.buffer.dirty() - k * dg.destage_bytes_in_flight) / k;
    if (available < 1.0) break;
    const auto bytes = static_cast<std::int64_t>(std::ceil(std::min(batch, available)));
    io::SubOp s;
    s.kind = io::SubKind::destage_read;
    s.parent = g;
    s.device = dg.cache;
    s.from = static_cast<std::uint16_t>(dg.host);
    s.host = static_cast<std::uint16_t>(dg.host);
    s.op = IoOp::read;
    s.device_bytes = bytes;
    s.sequential = true;   // the elevator reads the log in order
    ++dg.destage_in_flight;
    dg.destage_bytes_in_flight += static_cast<double>(bytes);
    c.subop_device(c.new_subop(s));
  }
}

// Room was freed in group g: its waiters that now fit here go on. A waiter that fits here
// but not in another of its target groups moves to that group's queue (admit queues it at
// the first group without room): left at the head here it would block this queue and, once
// this group had nothing left to destage, never be looked at again while the other group
// freed room (closed-loop VMs would stop for good).
inline void OsaBackEnd::wake_waiters(ClusterCore& c, std::uint32_t g) {
  DiskGroup& dg = groups_[g];
  while (!dg.waiting.empty() && dg.buffer.has_room(Bytes{c.requests_[dg.waiting.head].size}))
    c.readmit(dg.waiting.pop(c.requests_));
  if (dg.resync_waiting) {   // a resync piece waits for room too
    dg.resync_waiting = false;
    c.pump_resync(dg.host);
  }
}

}  // namespace hcisim
