// The I/O path of a vSAN cluster (cluster.hpp): request and component-operation state
// machines over the host CPUs, the network and the devices, plus OSA destage and ESA
// capacity-leg stripe writes. Building the cluster is in cluster_build.cpp, degraded
// erasure-coded I/O in degraded_io.cpp, resync in resync.cpp.
#include "hcisim/storage/cluster.hpp"

#include <algorithm>
#include <cmath>

#include "hcisim/core/check.hpp"
#include "hcisim/core/slot_pool.hpp"

namespace hcisim {

// The steps of the request path marked always_inline are small and called from one or a
// few places; as calls they cost about 80 instructions per simulated I/O (measured with the
// osa4 benchmark cluster; inlining the larger steps as well made it slower). This file holds
// the hot path only: with the setup code in it too, GCC's unit-growth limit stopped inlining
// the free lists' push_back and cost 1.8 % more instructions per I/O.

namespace {
constexpr std::uint64_t kIndexMask = (std::uint64_t{1} << 56) - 1;

}  // namespace

// The latency split (latency_split.hpp): the time since the request's last cut goes to `part`.
[[gnu::always_inline]] inline void Cluster::cut(Request& r, LatencyPart part) {
  const Time now = engine_.now();
  r.split[part_index(part)] += now - r.mark;
  r.mark = now;
}

// ---------------------------------------------------------------------------------------
// Requests

[[gnu::always_inline]] inline void Cluster::start_request(std::uint64_t tok, int object, int client_host, IoOp op,
                                                          std::uint64_t offset, Bytes size, bool sequential,
                                                          Bytes guest_bytes, Bytes vscsi_bytes) {
  const Object& o = objects_[static_cast<std::size_t>(object)];
  Request r;
  r.token = tok;
  r.mark = engine_.now();
  r.offset = offset;
  r.size = size.count();
  r.object = static_cast<std::uint32_t>(object);
  r.client = static_cast<std::uint16_t>(client_host);
  r.op = op;
  r.sequential = sequential;
  const std::uint32_t idx = take_slot(requests_, free_requests_, r);
  ++counters_.submitted;
  (op == IoOp::read ? counters_.host_read_bytes : counters_.host_write_bytes) += size.count();
  if (op == IoOp::read) {
    const double cache = client_cache_bytes_[static_cast<std::size_t>(client_host)];
    const double ws = client_working_set_[static_cast<std::size_t>(client_host)];
    const double hit = cache > 0 && ws > 0 ? std::min(1.0, cache / ws) : 0.0;
    requests_[idx].cached = hit >= 1.0 || (hit > 0 && rng_.uniform01() < hit);
  }

  // Client host: guest, vSCSI, DOM client; data services at the source.
  HostCpu& cpu = *cpus_[static_cast<std::size_t>(client_host)];
  const bool esa = spec_.architecture == Architecture::esa;
  const bool owner_here = o.place.owner == client_host;
  Time work = (guest_bytes.count() > 0 ? cpu.charge_guest(guest_bytes, o.guest) : Time::zero()) +
              (vscsi_bytes.count() > 0 ? cpu.charge(CpuStage::vscsi, vscsi_bytes) : Time::zero()) +
              cpu.charge(CpuStage::dom_client, size);
  if (owner_here) work += cpu.charge(CpuStage::dom_owner, size);
  const Bytes stored{esa ? scaled(size.count(), reduction_.compression) : size.count()};
  if (op == IoOp::write) {
    if (esa && spec_.services.compression) work += cpu.charge(CpuStage::compression, size);
    if (spec_.policy.checksum) work += cpu.charge(CpuStage::checksum, stored);
    if (esa && spec_.policy.encryption) work += cpu.charge(CpuStage::encryption, stored);
  } else {
    if (spec_.policy.checksum) work += cpu.charge(CpuStage::checksum, stored);
    if (esa && spec_.policy.encryption) work += cpu.charge(CpuStage::encryption, stored);   // decrypt at the source
  }
  cpu.run(token(kClientCpu, idx), work);
}

int Cluster::submit_piece(std::uint64_t tok, int object, int client_host, IoOp op, std::uint64_t offset, Bytes size,
                          bool sequential, Bytes guest_bytes) {
  check::in_range(object, 0, static_cast<std::int64_t>(objects_.size()) - 1, "submit object");
  check::in_range(client_host, 0, hosts() - 1, "submit client host");
  const Object& o = objects_[static_cast<std::size_t>(object)];
  if (size.count() <= 0 || size.count() > (64 << 20)) check::fail("submit size bytes", size.count(), "1 B .. 64 MiB");
  if (guest_bytes.count() < 0) check::fail("submit guest bytes", guest_bytes.count(), ">= 0");
  if (offset + static_cast<std::uint64_t>(size.count()) > static_cast<std::uint64_t>(o.place.size.count()))
    check::fail("submit offset", offset, "an I/O inside the object");
  const auto bytes = static_cast<std::uint64_t>(size.count());
  const auto span = o.place.chunks > 1 ? static_cast<std::uint64_t>(raid0_span(layout_, spec_.osa.stripe_unit)) : 0;
  if (span == 0 || offset / span == (offset + bytes - 1) / span) {
    start_request(tok, object, client_host, op, offset, size, sequential, guest_bytes, size);
    return 1;
  }
  // An I/O across RAID-0 units becomes one operation per unit, each to its own component;
  // vSCSI and the guest see it once.
  int n = 0;
  for (std::uint64_t at = offset, end = offset + bytes; at < end; ++n) {
    const std::uint64_t next = std::min(end, (at / span + 1) * span);
    start_request(tok, object, client_host, op, at, Bytes{static_cast<std::int64_t>(next - at)}, sequential,
                  n == 0 ? guest_bytes : Bytes{0}, n == 0 ? size : Bytes{0});
    at = next;
  }
  return n;
}

// The stack's fixed software latency, and for OSA writes the congestion delay of the most
// congested target disk group, are injected at the client (one event for both).
void Cluster::after_client_cpu(std::uint32_t req) {
  Request& r = requests_[req];
  cut(r, LatencyPart::host_cpu);
  if (r.cached) {
    ++counters_.client_cache_hits;
    complete(req);
    return;
  }
  Time delay = stack_latency_;
  if (r.op == IoOp::write && spec_.architecture == Architecture::osa) {
    Time congestion = Time::zero();
    for (std::uint32_t g : write_targets(r)) congestion = std::max(congestion, groups_[g].buffer.congestion_delay());
    if (congestion > Time::zero()) ++counters_.congestion_delays;
    delay += congestion;
  }
  if (delay > Time::zero()) {
    engine_.schedule_after(delay, *this, kAfterDelay, req);
    return;
  }
  after_delay(req);
}

// OSA writes reserve room in every target write buffer, or wait for destage to free some.
[[gnu::always_inline]] inline void Cluster::after_delay(std::uint32_t req) {
  Request& r = requests_[req];
  if (r.op == IoOp::write && spec_.architecture == Architecture::osa) {
    const auto targets = write_targets(r);
    const Bytes per_target{r.size};
    for (std::uint32_t g : targets) {
      DiskGroup& dg = groups_[g];
      if (!dg.buffer.has_room(per_target)) {
        ++counters_.waited_for_buffer;
        r.next_waiting = kNone;
        if (dg.wait_tail == kNone) dg.wait_head = req;
        else requests_[dg.wait_tail].next_waiting = req;
        dg.wait_tail = req;
        pump_destage(g);
        return;
      }
    }
    const double runs_per_byte = r.sequential ? 0.0 : 1.0 / static_cast<double>(r.size);
    // A strided (sequential erasure-coded) write puts 1/k of its bytes on each parity column.
    const bool strided = r.sequential && layout_.erasure_coded() && !full_stripe(r);
    const Bytes parity = strided ? Bytes{strided_parity_bytes(r)} : per_target;
    for (int i = 0; i < targets.count; ++i) {
      const std::uint32_t g = targets.group[static_cast<std::size_t>(i)];
      groups_[g].buffer.write(i == 0 && targets.data_first ? per_target : parity, runs_per_byte);
      groups_[g].last_write = engine_.now();
      pump_destage(g);
    }
  }
  to_owner(req);
}

// What a client sends its object's owner: a write's data (ESA compresses it at the source).
std::int64_t Cluster::to_owner_bytes(const Request& r) const {
  if (r.op != IoOp::write) return 0;
  return spec_.architecture == Architecture::esa ? scaled(r.size, reduction_.compression) : r.size;
}

[[gnu::always_inline]] inline void Cluster::to_owner(std::uint32_t req) {
  Request& r = requests_[req];
  cut(r, LatencyPart::admission);
  const int owner = objects_[r.object].place.owner;
  if (owner == r.client) {
    fan_out(req);
    return;
  }
  const std::int64_t bytes = to_owner_bytes(r);
  charge_stack(r.client, bytes);
  send(token(kToOwner, req), r.client, owner, bytes, false, r.object);
}

// The owner's component operations for one request (or one RMW phase).
void Cluster::fan_out(std::uint32_t req) {
  Request& r = requests_[req];
  Object& o = objects_[r.object];
  const bool esa = spec_.architecture == Architecture::esa;
  const int h = esa ? 0 : chunk(r);
  r.pending = 0;
  if (r.op == IoOp::read) {
    // ESA stores compressed blocks but returns them decompressed by the component host.
    // FITTED CHOICE (docs/accuracy.md, "Choices made with the data in view"): chosen because
    // seed 001's 512K random read at 25 GbE (20,359 MB/s over 6 hosts) sits within 1 % of the
    // link limit for uncompressed bytes with 5/6 of reads remote; its scenarios take the data
    // as incompressible, so there the choice changes nothing. OSA reads move and store the
    // bytes as written.
    const std::int64_t bytes = r.size;
    if (!layout_.erasure_coded()) {
      int rep = read_replica(o.place, static_cast<int>(r.object), r.offset, r.client, two_node_);
      // Degraded: the next surviving replica (validate() leaves at least one).
      while (degraded_ && absent(o, static_cast<std::size_t>(rep))) rep = (rep + 1) % static_cast<int>(o.place.data.size());
      add_read(req, o.place.component(rep, h), esa ? kNone : group_of(o, static_cast<std::size_t>(rep), h), bytes);
    } else {
      const Bytes unit = esa ? spec_.esa.stripe_unit : spec_.osa.stripe_unit;
      const StripeColumns cols = stripe_columns(layout_, unit, r.offset);
      const int col = cols.data_column;
      if (degraded_ && absent(o, static_cast<std::size_t>(col))) {
        degraded_read(req, cols, h, bytes);
        return;
      }
      add_read(req, o.place.component(col, h), esa ? kNone : group_of(o, static_cast<std::size_t>(col), h), bytes);
    }
    return;
  }
  if (esa) {
    // Performance-leg mirrors of the compressed bytes; the capacity leg is written later.
    const std::int64_t bytes = scaled(r.size, reduction_.compression);
    for (const ComponentPlace& c : o.place.perf)
      if (!degraded_ || down_[c.host] == 0) add_write(req, c.host, pool_device(c.host, static_cast<int>(r.object), r.offset), bytes);
    o.stripe_pending += static_cast<double>(bytes);
    stripe_out(r.object);
    return;
  }
  if (!layout_.erasure_coded()) {
    for (std::size_t i = 0; i < o.place.data.size(); ++i)
      if (!degraded_ || !absent(o, i)) add_write(req, o.place.data[i].host, groups_[group_of(o, i, h)].cache, r.size);
    return;
  }
  const std::int64_t unit = spec_.osa.stripe_unit.count();
  const std::int64_t row = unit * layout_.data;
  if (full_stripe(r)) {
    // Full stripes: k + m unit writes per row, no reads.
    for (std::int64_t rows = r.size / row; rows > 0; --rows)
      for (std::size_t i = 0; i < o.place.data.size(); ++i)
        if (!degraded_ || !absent(o, i)) add_write(req, o.place.data[i].host, groups_[group_of(o, i, h)].cache, unit);
    return;
  }
  const StripeColumns cols = stripe_columns(layout_, spec_.osa.stripe_unit, r.offset);
  int touched[3] = {cols.data_column, cols.parity_columns[0], cols.parity_columns[1]};
  if (r.sequential) {
    // A sequential stream: vSAN 7 U2+ gathers it into full-stripe ("strided") writes
    // (vsan-model-facts.md section 3, [38][39]), so no reads, and each parity column receives
    // 1/k of the data written: per row, k data units and m parity units.
    // Degraded: absent columns are skipped (the parities still cover the lost data).
    const std::int64_t parity = strided_parity_bytes(r);
    for (int i = 0; i <= cols.parity_count; ++i) {
      const auto col = static_cast<std::size_t>(touched[i]);
      if (degraded_ && absent(o, col)) continue;
      add_write(req, o.place.data[col].host, groups_[group_of(o, col, h)].cache, i == 0 ? r.size : parity);
    }
    return;
  }
  // Degraded: a lost data column. The plan chosen in phase 0 holds for phase 1 even if
  // resync brings the column back in between.
  if (degraded_ && (r.reconstruct || absent(o, static_cast<std::size_t>(cols.data_column)))) {
    r.reconstruct = true;
    reconstruct_write(req, cols, h);
    return;
  }
  // Partial stripe: read-modify-write of the data column and the m parity columns (degraded:
  // of those that survive).
  for (int i = 0; i <= cols.parity_count; ++i) {
    const auto col = static_cast<std::size_t>(touched[i]);
    if (degraded_ && absent(o, col)) continue;
    if (r.phase == 0) add_read(req, o.place.component(touched[i], h), group_of(o, col, h), r.size);
    else add_write(req, o.place.data[col].host, groups_[group_of(o, col, h)].cache, r.size);
  }
}

// A foreground device read on component `c`: OSA looks in the write buffer, then (hybrid)
// the read cache, then the capacity tier.
void Cluster::add_read(std::uint32_t req, const ComponentPlace& c, std::uint32_t group, std::int64_t bytes) {
  Request& r = requests_[req];
  const int owner = objects_[r.object].place.owner;
  SubOp s;
  s.parent = req;
  s.from = static_cast<std::uint16_t>(owner);
  s.host = c.host;
  s.op = IoOp::read;
  s.device_bytes = group == kNone ? scaled(bytes, reduction_.compression) : bytes;
  s.back_bytes = bytes;
  if (group == kNone) {
    s.device = pool_device(c.host, static_cast<int>(r.object), r.offset);
  } else {
    DiskGroup& dg = groups_[group];
    if (rng_.uniform01() < dg.buffer.hit_probability()) {
      s.device = dg.cache;
    } else if (dg.hybrid && rng_.uniform01() < std::min(1.0, dg.read_cache / std::max(1.0, dg.buffer.working_set()))) {
      s.device = dg.cache;
    } else {
      s.device = dg.capacity[c.device];
      s.lookup_first = spec_.services.dedupe && spec_.osa.dedupe_lookup_miss > 0 &&
                       rng_.uniform01() < spec_.osa.dedupe_lookup_miss;
      if (dg.hybrid) {
        // Read-cache fill: the block read from disk is written to the cache device.
        SubOp fill;
        fill.kind = SubKind::fill;
        fill.device = dg.cache;
        fill.from = c.host;
        fill.host = c.host;
        fill.op = IoOp::write;
        fill.device_bytes = bytes;
        subop_device(new_subop(fill));
      }
    }
  }
  s.sequential = r.sequential && streams_on(s.device);
  ++r.pending;
  start_subop(new_subop(s));
}

// A VMDK's sequential stream stays sequential on an SSD (no per-command mapping cost). On a
// disk it does not: the streams of the many components a disk holds interleave and the head
// seeks between them, so disks serve foreground I/O as random.
bool Cluster::streams_on(std::uint32_t device) const {
  return devices_[device].device->spec().kind == DeviceKind::ssd;
}

void Cluster::add_write(std::uint32_t req, std::uint16_t host, std::uint32_t device, std::int64_t bytes) {
  Request& r = requests_[req];
  SubOp s;
  s.parent = req;
  s.from = static_cast<std::uint16_t>(objects_[r.object].place.owner);
  s.host = host;
  s.device = device;
  s.op = IoOp::write;
  s.device_bytes = bytes;
  s.out_bytes = bytes;
  s.sequential = r.sequential && streams_on(device);
  ++r.pending;
  start_subop(new_subop(s));
}

[[gnu::always_inline]] inline void Cluster::request_done(std::uint32_t req) {
  Request& r = requests_[req];
  if (r.op == IoOp::write && spec_.architecture == Architecture::osa && layout_.erasure_coded() && r.phase == 0 &&
      !full_stripe(r) && !r.sequential) {
    r.phase = 1;   // RMW: reads done, now the writes
    fan_out(req);
    return;
  }
  const int owner = objects_[r.object].place.owner;
  if (owner == r.client) {
    complete(req);
    return;
  }
  const std::int64_t bytes = r.op == IoOp::read ? r.size : 0;
  charge_stack(owner, bytes);
  send(token(kToClient, req), owner, r.client, bytes, false, r.object);
}

[[gnu::always_inline]] inline void Cluster::complete(std::uint32_t req) {
  ++counters_.completed;
  const std::uint64_t tok = requests_[req].token;
  completing_ = requests_[req].split;
  free_requests_.push_back(req);
  client_.on_io_done(*this, tok);
}

// ---------------------------------------------------------------------------------------
// Component operations: [network out] -> CPU at host -> device -> [network back]

[[gnu::always_inline]] inline std::uint32_t Cluster::new_subop(const SubOp& s) { return take_slot(subops_, free_subops_, s); }

[[gnu::always_inline]] inline void Cluster::start_subop(std::uint32_t sub) {
  SubOp& s = subops_[sub];
  s.sent = engine_.now();
  if (s.from == s.host) {
    s.arrived = s.sent;
    HostCpu& cpu = *cpus_[s.host];
    run_lsom(sub, cpu, component_work(cpu, s));
    return;
  }
  charge_stack(s.from, s.out_bytes);
  send(token(kSubOut, sub), s.from, s.host, s.out_bytes, s.kind != SubKind::foreground, sub);
}

void Cluster::launch(const SubOp& s) { start_subop(new_subop(s)); }

// LSOM/zDOM work for a component operation; a read of data stored compressed also
// decompresses there: every ESA read, and an OSA read served by the capacity tier (the write
// buffer holds data as written), a resync read too (OSA copies data as written and the new
// host reduces it again at destage; ESA copies it compressed). Data that does not compress
// is stored as is (OSA: unless a 4 KB block fits in 2 KB; ESA: unless it saves a 512-byte
// sector; vsan-model-facts.md sections 1 and 2) and costs no decompression. OSA
// data-at-rest encryption is per device write and read, on the component's host: blocks are
// encrypted into the cache tier, decrypted for destage (dedupe and compression need the
// plain text) and encrypted again into the capacity tier (linuxpark.com, "vSAN encryption,
// checksum and data reduction features in I/O flow"); ESA encrypts once at the source
// instead (client CPU; vsan-model-facts.md section 2, "Data services at ingest").
Time Cluster::component_work(HostCpu& cpu, const SubOp& s) {
  Time work = cpu.charge(CpuStage::component, Bytes{s.device_bytes});
  const bool esa = spec_.architecture == Architecture::esa;
  const bool data_read = s.op == IoOp::read && (s.kind == SubKind::foreground || (!esa && s.kind == SubKind::resync_read));
  if (data_read && spec_.services.compression && reduction_.compression > 1) {
    const int group = devices_[s.device].group;
    if (esa || (group >= 0 && groups_[static_cast<std::size_t>(group)].cache != s.device))
      work += cpu.charge(CpuStage::decompression, Bytes{s.back_bytes});
  }
  if (!esa && spec_.policy.encryption && s.kind == SubKind::foreground)
    work += cpu.charge(CpuStage::encryption, Bytes{s.device_bytes});
  // OSA's end-to-end checksum is checked by the component's LSOM too. On a read, LSOM
  // computes the CRC of what it read and compares it with the stored one (its error log,
  // "computed CRC != saved CRC", comes from LSOM on the component's host; C. Hogan, "VSAN 6.2
  // Part 3 - Software Checksum", 2016); the client checks it too (start_request; the order of
  // the two is not modelled). ASSUMED on a write: the CRC computed at the source is checked
  // before the data reaches the media, so that a bit flipped on the network is detected
  // (D. Epping, "VSAN 6.2, checksumming where you should", 2016, says it is detected, not
  // where; Hogan says a write's checksum is verified on the host where the data originates).
  // Per byte of the data as written (before any compression), as at the client. ESA checksums
  // once, at the source (facts section 2).
  if (!esa && spec_.policy.checksum && s.kind == SubKind::foreground)
    work += cpu.charge(CpuStage::checksum, Bytes{s.device_bytes});   // OSA: a read's back_bytes are its device_bytes
  return work;
}

// The elevator's data reduction of a destage batch of `b` logical bytes: SHA-1 fingerprints
// and LZ4, as the cluster's data services have them.
Time Cluster::reduction_work(HostCpu& cpu, Bytes b) {
  Time work = Time::zero();
  if (spec_.services.dedupe) work += cpu.charge(CpuStage::dedupe, b);
  if (spec_.services.compression) work += cpu.charge(CpuStage::compression, b);
  return work;
}

// A destage batch's own work: the elevator's bookkeeping, and on encrypted disk groups the
// decryption of what it read and the encryption of what it writes back (see component_work).
Time Cluster::batch_work(HostCpu& cpu, std::int64_t bytes) {
  Time work = cpu.charge(CpuStage::destage, Bytes{bytes});
  if (spec_.policy.encryption)
    work += cpu.charge(CpuStage::encryption, Bytes{bytes}) +
            cpu.charge(CpuStage::encryption, Bytes{scaled(bytes, reduction_.total())});
  return work;
}

void Cluster::run_lsom(std::uint32_t sub, HostCpu& cpu, Time work) {
  if (Station* world = world_of(subops_[sub].device)) world->arrive(token(kSubCpu, sub), work);
  else cpu.run(token(kSubCpu, sub), work);
}

// ASSUMED: the elevator is one thread of the group's LSOM world, so the world holds at most one
// destage batch at a time and a foreground operation waits behind at most one (VMware
// publishes neither the elevator's threads nor its batch size). With every batch in flight
// queued at the world at once, a write waited behind up to destage_depth batches even at
// light load: seed 000's write p95 came out at 5 ms against 1-2 ms measured, and its p95 knee at
// 5 ms fell to about 1,100 IOPS. The batches' device I/O still overlaps (destage_depth).
void Cluster::run_destage_cpu(std::uint32_t sub, HostCpu& cpu, Time work) {
  DiskGroup& dg = groups_[subops_[sub].parent];
  if (dg.parked.empty()) {   // no LSOM world: the shared cores, FIFO
    cpu.run(token(kSubCpu, sub), work);
    return;
  }
  if (dg.world_destaging) {
    // Bounded: every batch in flight fits (sized in build_osa).
    dg.parked[(dg.parked_head + dg.parked_count++) % dg.parked.size()] = {sub, work};
    ++counters_.destage_waits;
    return;
  }
  dg.world_destaging = true;
  run_lsom(sub, cpu, work);   // the batch's device is the group's cache device
}

void Cluster::next_destage_cpu(std::uint32_t group) {
  DiskGroup& dg = groups_[group];
  if (dg.parked.empty()) return;
  if (dg.parked_count == 0) {
    dg.world_destaging = false;
    return;
  }
  const DiskGroup::Parked next = dg.parked[dg.parked_head];
  dg.parked_head = (dg.parked_head + 1) % dg.parked.size();
  --dg.parked_count;
  run_lsom(next.sub, *cpus_[static_cast<std::size_t>(dg.host)], next.work);
}

Station* Cluster::world_of(std::uint32_t device) const {
  if (lsom_.empty()) return nullptr;
  const int g = devices_[device].group;
  return g < 0 ? nullptr : lsom_[static_cast<std::size_t>(g)].get();
}

void Cluster::subop_device(std::uint32_t sub, std::uint32_t extents) {
  SubOp& s = subops_[sub];
  if (s.lookup_first) {
    // The dedupe map lookup: a 4 KiB read on the same capacity device, then the data read.
    ++counters_.fg_device_reads;
    counters_.fg_device_read_bytes += kBlock;
    devices_[s.device].device->submit(token(kSubDevice, sub), IoOp::read, Bytes{kBlock}, false);
    return;
  }
  const bool fg = s.kind == SubKind::foreground;
  if (s.op == IoOp::read) {
    ++(fg ? counters_.fg_device_reads : counters_.bg_device_reads);
    (fg ? counters_.fg_device_read_bytes : counters_.bg_device_read_bytes) += s.device_bytes;
  } else {
    ++(fg ? counters_.fg_device_writes : counters_.bg_device_writes);
    (fg ? counters_.fg_device_write_bytes : counters_.bg_device_write_bytes) += s.device_bytes;
  }
  devices_[s.device].device->submit(token(kSubDevice, sub), s.op, Bytes{std::max<std::int64_t>(s.device_bytes, 1)},
                                    s.sequential, extents);
}

void Cluster::subop_done(std::uint32_t sub) {
  SubOp& s = subops_[sub];
  if (s.kind == SubKind::foreground) [[likely]] {
    const std::uint32_t req = s.parent;
    free_subops_.push_back(sub);   // `s` stays readable: only its slot is freed
    Request& r = requests_[req];
    if (--r.pending == 0) {
      // The last component operation: the one the request waited for.
      const Time now = engine_.now();
      r.split[part_index(LatencyPart::network)] += (s.arrived - s.sent) + (now - s.device_done);
      r.split[part_index(LatencyPart::component)] += s.cpu_done - s.arrived;
      r.split[part_index(LatencyPart::device)] += s.device_done - s.cpu_done;
      r.mark = now;
      request_done(req);
    }
    return;
  }
  switch (s.kind) {
    case SubKind::foreground: return;   // above
    case SubKind::destage_read: {
      // Fingerprint and compress on the disk group's host, then write to capacity.
      HostCpu& cpu = *cpus_[s.host];
      const Time reduction = reduction_work(cpu, Bytes{s.device_bytes});
      if (!spec_.osa.reduction_on_world && !groups_[s.parent].parked.empty() &&
          (spec_.services.dedupe || spec_.services.compression)) {
        // osa.destage_reduction: shared. The reduction runs on the shared cores first; the
        // batch's own work then takes the world (destage_reduce, below).
        s.kind = SubKind::destage_reduce;
        cpu.run(token(kSubCpu, sub), reduction);
        return;
      }
      s.kind = SubKind::destage_cpu;
      run_destage_cpu(sub, cpu, batch_work(cpu, s.device_bytes) + reduction);
      return;
    }
    case SubKind::destage_reduce: {
      // Reduced on the shared cores: the batch's own work on the world.
      s.kind = SubKind::destage_cpu;
      HostCpu& cpu = *cpus_[s.host];
      run_destage_cpu(sub, cpu, batch_work(cpu, s.device_bytes));
      return;
    }
    case SubKind::destage_cpu: {
      next_destage_cpu(s.parent);
      DiskGroup& dg = groups_[s.parent];
      s.kind = SubKind::destage_write;
      s.op = IoOp::write;
      s.device = dg.capacity[dg.next_capacity++ % dg.capacity.size()];
      s.out_bytes = s.device_bytes;   // logical bytes destaged, remembered for the buffer
      s.device_bytes = scaled(s.device_bytes, reduction_.total());
      // A disk receives the batch as the dirty extents it holds, sorted by address: one seek and
      // rotation per extent (WriteBuffer::mean_extent), so scattered random writes cost what
      // they cost on a disk however the elevator orders them. An SSD takes the batch as one
      // write. FITTED CHOICE (docs/accuracy.md, "Choices made with the data in view"): per
      // extent at the datasheet's full-drive random-write rate made seed 003's S4500 capacity
      // drives its limit at half the measured 8K IOPS. A drive with NAND internals
      // (flash_array.hpp) charges the batch's bytes with garbage collection at its own fill.
      s.sequential = false;
      subop_device(sub, dg.hybrid ? static_cast<std::uint32_t>(dg.buffer.extents_in(static_cast<double>(s.out_bytes))) : 1);
      return;
    }
    case SubKind::destage_write: {
      const std::uint32_t g = s.parent;
      DiskGroup& dg = groups_[g];
      dg.buffer.destaged(static_cast<double>(s.out_bytes));
      dg.destage_bytes_in_flight -= static_cast<double>(s.out_bytes);
      --dg.destage_in_flight;
      free_subops_.push_back(sub);
      wake_waiters(g);
      pump_destage(g);
      return;
    }
    case SubKind::stripe:
    case SubKind::fill:
      free_subops_.push_back(sub);
      return;
    case SubKind::resync_read:
    case SubKind::resync_write:
      resync_subop_done(sub);
      return;
  }
}

void Cluster::send(std::uint64_t tok, int from, int to, std::int64_t bytes, bool background, std::uint64_t flow) {
  ++counters_.network_messages;
  (background ? counters_.bg_network_bytes : counters_.fg_network_bytes) += bytes;
  network_->send(tok, from, to, Bytes{bytes}, flow);
}

void Cluster::defer_received(int host, std::int64_t bytes) {
  if (!receive_threads_ || bytes == 0) return;
  HostCpu& cpu = *cpus_[static_cast<std::size_t>(host)];
  cpu.defer(cpu.charge_tcp_receive(Bytes{bytes}));
}

// Network-stack CPU nobody waits for (a send, or a reply's receive at the owner or the
// client): it occupies a core as part of the host's next CPU visit (HostCpu::defer).
void Cluster::charge_stack(int host, std::int64_t bytes) {
  HostCpu& cpu = *cpus_[static_cast<std::size_t>(host)];
  cpu.defer(cpu.charge(CpuStage::network, Bytes{bytes}, spec_.network.framing.transport));
}

void Cluster::charge_receive_stack(int host, std::int64_t bytes) {
  HostCpu& cpu = *cpus_[static_cast<std::size_t>(host)];
  cpu.defer(cpu.charge_receive(Bytes{bytes}, spec_.network.framing.transport));
}

std::uint32_t Cluster::pool_device(int host, int object, std::uint64_t offset) const {
  const auto& pool = pools_[static_cast<std::size_t>(host)];
  return pool[range_hash(object, offset >> 20) % pool.size()];
}

// ---------------------------------------------------------------------------------------
// OSA write buffers: targets, destage elevator, waiting writers

// An OSA erasure-coded write covering whole stripe rows (no read-modify-write).
bool Cluster::full_stripe(const Request& r) const {
  const std::int64_t row = spec_.osa.stripe_unit.count() * layout_.data;
  return r.size % row == 0 && r.offset % static_cast<std::uint64_t>(row) == 0;
}

// A strided write's share on each parity column: 1/k of its bytes (rounded up, at least 1).
std::int64_t Cluster::strided_parity_bytes(const Request& r) const {
  return std::max<std::int64_t>(1, (r.size + layout_.data - 1) / layout_.data);
}

Cluster::Targets Cluster::write_targets(const Request& r) const {
  const Object& o = objects_[r.object];
  Targets t;
  auto add = [&t](std::uint32_t g) { t.group[static_cast<std::size_t>(t.count++)] = g; };
  const int h = chunk(r);
  if (!layout_.erasure_coded() || full_stripe(r)) {
    for (std::size_t i = 0; i < o.place.data.size(); ++i)
      if (!degraded_ || !absent(o, i)) add(group_of(o, i, h));
    return t;
  }
  const StripeColumns cols = stripe_columns(layout_, spec_.osa.stripe_unit, r.offset);
  if (!degraded_ || !absent(o, static_cast<std::size_t>(cols.data_column)))
    add(group_of(o, static_cast<std::size_t>(cols.data_column), h));
  else
    t.data_first = false;
  for (int i = 0; i < cols.parity_count; ++i) {
    const auto col = static_cast<std::size_t>(cols.parity_columns[i]);
    if (!degraded_ || !absent(o, col)) add(group_of(o, col, h));
  }
  return t;
}


// The elevator: destage_depth batches per capacity device while the buffer is above its
// start fill (or must free room); when no write has come for destage_idle_after, one batch per
// capacity device down to the idle fill (cluster_spec.hpp, OsaSettings).
void Cluster::pump_destage(std::uint32_t g) {
  DiskGroup& dg = groups_[g];
  const bool pressed = dg.buffer.wants_destage(false) || draining_ || dg.wait_head != kNone || dg.resync_waiting;
  const bool above_idle_fill = !pressed && dg.buffer.wants_destage(true);
  const bool idle = above_idle_fill && idle_group(dg);   // no write for destage_idle_after
  const int per_device = pressed ? spec_.osa.destage_depth : 1;
  const int depth = per_device * static_cast<int>(dg.capacity.size());
  const double batch = static_cast<double>(spec_.osa.destage_batch_blocks) * kBlock;
  // Writes came within destage_idle_after and the buffer is above its idle fill: look again
  // when that time has passed (one event per group at a time), so the drain starts even if
  // nothing else calls this pump.
  if (above_idle_fill && !idle && !dg.idle_check_pending) {
    dg.idle_check_pending = true;
    engine_.schedule_at(dg.last_write + spec_.osa.destage_idle_after, *this, kIdleCheck, g);
  }
  // Nothing in the loop changes `pressed` or `idle`: its destage I/O completes in later events.
  while (dg.destage_in_flight < depth && (pressed || idle)) {
    // Real bytes not yet claimed by a destage (dirty bytes count k-fold while aging).
    const double k = dg.buffer.time_compression();
    const double available = (dg.buffer.dirty() - k * dg.destage_bytes_in_flight) / k;
    if (available < 1.0) break;
    const auto bytes = static_cast<std::int64_t>(std::ceil(std::min(batch, available)));
    SubOp s;
    s.kind = SubKind::destage_read;
    s.parent = g;
    s.device = dg.cache;
    s.from = static_cast<std::uint16_t>(dg.host);
    s.host = static_cast<std::uint16_t>(dg.host);
    s.op = IoOp::read;
    s.device_bytes = bytes;
    s.sequential = true;   // the elevator reads the log in order
    ++dg.destage_in_flight;
    dg.destage_bytes_in_flight += static_cast<double>(bytes);
    subop_device(new_subop(s));
  }
}

// Room was freed in group g: its waiters that now fit here go on. A waiter that fits here
// but not in another of its target groups moves to that group's queue (after_delay queues it
// at the first group without room): left at the head here it would block this queue and,
// once this group had nothing left to destage, never be looked at again while the other
// group freed room (fuzz review D8: closed-loop VMs stuck for good).
void Cluster::wake_waiters(std::uint32_t g) {
  DiskGroup& dg = groups_[g];
  while (dg.wait_head != kNone && dg.buffer.has_room(Bytes{requests_[dg.wait_head].size})) {
    const std::uint32_t req = dg.wait_head;
    dg.wait_head = requests_[req].next_waiting;
    if (dg.wait_head == kNone) dg.wait_tail = kNone;
    after_delay(req);
  }
  if (dg.resync_waiting) {   // a resync piece waits for room too
    dg.resync_waiting = false;
    pump_resync(dg.host);
  }
}

// ---------------------------------------------------------------------------------------
// ESA capacity leg: full stripes from the owner to the capacity-leg components.

void Cluster::stripe_out(std::uint32_t object) {
  Object& o = objects_[object];
  const std::int64_t unit = spec_.esa.stripe_unit.count();
  const double stripe = static_cast<double>(layout_.erasure_coded() ? unit * layout_.data : unit);
  const auto column = static_cast<std::int64_t>(std::llround(static_cast<double>(unit) * spec_.esa.gc_factor));
  while (o.stripe_pending + 1e-6 >= stripe) {
    o.stripe_pending -= stripe;
    for (const ComponentPlace& c : o.place.data) {
      if (down_[c.host] != 0) continue;   // degraded: an absent column is not written
      SubOp s;
      s.kind = SubKind::stripe;
      s.from = static_cast<std::uint16_t>(o.place.owner);
      s.host = c.host;
      s.op = IoOp::write;
      s.device = pool_device(c.host, static_cast<int>(object), static_cast<std::uint64_t>(rng_.next_u64() >> 8));
      s.device_bytes = column;
      s.out_bytes = column;
      s.sequential = true;   // full-stripe segment writes
      start_subop(new_subop(s));
    }
  }
}

// ---------------------------------------------------------------------------------------
// Callbacks

void Cluster::on_event(Engine&, EventTag tag, std::uint64_t arg) {
  if (tag == kAfterDelay) {
    after_delay(static_cast<std::uint32_t>(arg));
  } else if (tag == kResyncPump) {
    resync_hosts_[arg].pump_scheduled = false;
    pump_resync(static_cast<int>(arg));
  } else if (tag == kIdleCheck) {
    const auto g = static_cast<std::uint32_t>(arg);
    groups_[g].idle_check_pending = false;
    if (host_up(groups_[g].host)) pump_destage(g);
  }
}

void Cluster::on_cpu_done(HostCpu&, std::uint64_t tok) { after_cpu(tok); }

void Cluster::on_departure(Station&, std::uint64_t job, Time, Time) { after_cpu(job); }

void Cluster::after_cpu(std::uint64_t tok) {
  const auto index = static_cast<std::uint32_t>(tok & kIndexMask);
  switch (static_cast<Kind>(tok >> 56)) {
    case kClientCpu: after_client_cpu(index); break;
    case kOwnerCpu:
      cut(requests_[index], LatencyPart::host_cpu);
      fan_out(index);
      break;
    case kSubCpu:
      if (subops_[index].kind == SubKind::destage_cpu || subops_[index].kind == SubKind::destage_reduce) {
        subop_done(index);
      } else {
        subops_[index].cpu_done = engine_.now();
        subop_device(index);
      }
      break;
    default: break;   // kIgnore: fire-and-forget stack work
  }
}

void Cluster::on_delivered(Network&, std::uint64_t tok) {
  const auto index = static_cast<std::uint32_t>(tok & kIndexMask);
  switch (static_cast<Kind>(tok >> 56)) {
    case kToOwner: {
      Request& r = requests_[index];
      cut(r, LatencyPart::network);
      const int owner = objects_[r.object].place.owner;
      HostCpu& cpu = *cpus_[static_cast<std::size_t>(owner)];
      const std::int64_t bytes = to_owner_bytes(r);
      cpu.run(token(kOwnerCpu, index), cpu.charge_receive(Bytes{received_on_job(bytes)}, spec_.network.framing.transport) +
                                           cpu.charge(CpuStage::dom_owner, Bytes{r.size}));
      defer_received(owner, bytes);   // after the run: the owner's job above does not pay it
      break;
    }
    case kToClient: {
      // The client receives the owner's reply (a read's data), as the owner receives a
      // component's (kSubBack): cost nobody waits for, on the client's next CPU visit.
      Request& r = requests_[index];
      cut(r, LatencyPart::network);
      const std::int64_t bytes = r.op == IoOp::read ? r.size : 0;
      charge_receive_stack(r.client, received_on_job(bytes));
      defer_received(r.client, bytes);
      complete(index);
      break;
    }
    case kSubOut: {
      // Component host: receive, LSOM/zDOM work, and the reply's send cost.
      SubOp& s = subops_[index];
      s.arrived = engine_.now();
      HostCpu& cpu = *cpus_[s.host];
      const Transport t = spec_.network.framing.transport;
      Time stack = cpu.charge_receive(Bytes{received_on_job(s.out_bytes)}, t);
      if (s.kind <= SubKind::resync_read)   // foreground and resync reads: the reply's send
        stack += cpu.charge(CpuStage::network, Bytes{s.back_bytes}, t);
      const Time lsom = component_work(cpu, s);
      Station* world = world_of(s.device);
      if (world == nullptr) {
        cpu.run(token(kSubCpu, index), stack + lsom);
        defer_received(s.host, s.out_bytes);   // after the run: the operation's job does not pay it
        break;
      }
      // With LSOM worlds the stack work is a shared-core job nobody waits for (token kind 0).
      defer_received(s.host, s.out_bytes);
      cpu.run(0, stack);
      world->arrive(token(kSubCpu, index), lsom);
      break;
    }
    case kSubBack: {
      // Owner: the reply's receive cost occupies a core; the operation is done.
      defer_received(subops_[index].from, subops_[index].back_bytes);
      charge_receive_stack(subops_[index].from, received_on_job(subops_[index].back_bytes));
      subop_done(index);
      break;
    }
    default: break;
  }
}

void Cluster::on_io_complete(StorageDevice&, std::uint64_t tok) {
  const auto sub = static_cast<std::uint32_t>(tok & kIndexMask);
  if (subops_[sub].lookup_first) {
    subops_[sub].lookup_first = false;
    subop_device(sub);
    return;
  }
  SubOp& s = subops_[sub];
  s.device_done = engine_.now();
  if (s.from == s.host || s.kind > SubKind::resync_read) {
    // Local and background operations finish here (a stripe column's ack is not waited for);
    // a resync read returns its data to the rebuilding host.
    subop_done(sub);
    return;
  }
  send(token(kSubBack, sub), s.host, s.from, s.back_bytes, s.kind != SubKind::foreground, sub);
}

}  // namespace hcisim
