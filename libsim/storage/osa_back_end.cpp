// vSAN OSA's back end outside the hot path (osa_back_end.hpp): building the disk groups,
// placing objects' components on them, preparing, aging and draining the write buffers, a
// degraded read-modify-write, and what resync needs of the disk groups.
#include <algorithm>

#include "cluster_core.hpp"
#include "hcisim/core/check.hpp"
#include "osa_io_path.hpp"

namespace hcisim {

CpuCosts OsaBackEnd::cpu_costs(const ClusterSpec& spec) {
  CpuCosts costs = spec.cpu_costs;
  if (spec.osa.lsom_worlds_per_dg > 0)
    // The per-operation stages that then run only on the LSOM worlds. Their per-KiB work
    // (OSA compresses and dedupes at destage) also runs there, at the algorithms' own rates.
    for (double* f : {&costs.component_us, &costs.destage_us}) *f *= spec.osa.lsom_cost_factor;
  return costs;
}

// Each disk group's LSOM worlds pin a core each (lsom_worlds_per_dg, cluster_spec.hpp).
int OsaBackEnd::pinned_cores(const ClusterSpec& spec, const HostSpec& host) {
  return static_cast<int>(host.disk_groups.size()) * spec.osa.lsom_worlds_per_dg;
}

void OsaBackEnd::build(ClusterCore& c) {
  const ClusterSpec& spec = c.spec_;
  host_groups_.resize(spec.hosts.size());
  for (std::size_t h = 0; h < spec.hosts.size(); ++h) {
    for (const DiskGroupSpec& dgs : spec.hosts[h].disk_groups) {
      const auto g = static_cast<std::uint32_t>(groups_.size());
      DiskGroup dg;
      dg.host = static_cast<int>(h);
      dg.hybrid = dgs.hybrid();
      dg.cache = c.add_device(dgs.cache, dg.host, static_cast<int>(g), "cache");
      for (const DriveSpec& d : dgs.capacity) dg.capacity.push_back(c.add_device(d, dg.host, static_cast<int>(g), "capacity"));
      // All-flash: the cache device is all write buffer, capped at the logical limit (600 GB).
      // Hybrid: 30 % write buffer, 70 % read cache.
      const double cache_bytes = dgs.cache.device.capacity_gb * 1e9;
      const double wb = dgs.write_buffer_bytes(spec.osa);
      dg.buffer = WriteBuffer(Bytes{static_cast<std::int64_t>(wb)}, spec.osa);
      dg.buffer.track_runs(dg.hybrid);   // only disks pay per extent (pump_destage)
      if (spec.osa.lsom_worlds_per_dg > 0)
        dg.parked.resize(static_cast<std::size_t>(spec.osa.destage_depth) * dg.capacity.size());
      dg.read_cache = dg.hybrid ? cache_bytes * spec.osa.hybrid_read_cache_share : 0.0;
      groups_.push_back(std::move(dg));
      host_groups_[h].push_back(g);
      if (spec.osa.lsom_worlds_per_dg > 0) {
        lsom_.push_back(std::make_unique<Station>(
            c.engine_, spec.hosts[h].name + "/dg" + std::to_string(host_groups_[h].size() - 1) + "/lsom",
            spec.osa.lsom_worlds_per_dg, &c));
        c.cpus_[h]->add_world(*lsom_.back());
      }
    }
  }
}

// Each RAID-1 replica serves the whole working set; each EC column 1/k of it (data or parity).
// RAID-0 components share a column's working set equally (to within a stripe unit).
void OsaBackEnd::add_object(ClusterCore& c, io::Object& o, Bytes size, Bytes working_set) {
  const Layout& layout = c.layout_;
  const std::int64_t share = layout.erasure_coded() ? working_set.count() / layout.data : working_set.count();
  const std::int64_t each = share / o.place.chunks;
  for (std::size_t col = 0; col < o.place.data.size(); ++col)
    for (int h = 0; h < o.place.chunks; ++h) {
      const ComponentPlace& cp = o.place.component(static_cast<int>(col), h);
      const std::uint32_t g = host_groups_[cp.host][cp.group];
      groups_[g].buffer.add_working_set(Bytes{h == 0 ? share - each * (o.place.chunks - 1) : each});
      o.groups.push_back(g);
      // The component's data, reduced, lives on its capacity device (a prepared VMDK).
      const double column = static_cast<double>(size.count()) / (layout.erasure_coded() ? layout.data : 1);
      c.add_live(groups_[g].capacity[cp.device], column / o.place.chunks / c.reduction_.total());
    }
}

void OsaBackEnd::idle_check(ClusterCore& c, std::uint32_t g) {
  groups_[g].idle_check_pending = false;
  if (c.host_up(groups_[g].host)) pump_destage(c, g);
}

void OsaBackEnd::prepare_write_buffers(const ClusterCore& c) {
  // A group that holds no component was never written: it has nothing to destage.
  for (DiskGroup& dg : groups_)
    if (dg.buffer.working_set() > 0) dg.buffer.set_dirty(c.spec_.osa.destage_start_fill * dg.buffer.capacity());
}

void OsaBackEnd::set_time_compression(ClusterCore& c, double k) {
  const double batch = static_cast<double>(c.spec_.osa.destage_batch_blocks) * io::kBlock;
  for (std::uint32_t g = 0; g < groups_.size(); ++g) {
    WriteBuffer& b = groups_[g].buffer;
    b.set_time_compression(std::max(1.0, std::min(k, b.capacity() / (200.0 * batch))), idle_group(c, groups_[g]));
    if (c.host_up(groups_[g].host)) pump_destage(c, g);   // a failed host does nothing
  }
}

void OsaBackEnd::drain(ClusterCore& c) {
  draining_ = true;
  for (std::uint32_t g = 0; g < groups_.size(); ++g)
    if (c.host_up(groups_[g].host)) pump_destage(c, g);   // a failed host does nothing
}

void OsaBackEnd::reset_stats() {
  for (auto& w : lsom_) w->reset_stats();
}

const WriteBuffer& OsaBackEnd::write_buffer(const ClusterCore& c, int host, int group) const {
  check::in_range(host, 0, c.hosts() - 1, "write_buffer host");
  const auto& g = host_groups_[static_cast<std::size_t>(host)];
  check::in_range(group, 0, static_cast<std::int64_t>(g.size()) - 1, "write_buffer disk group");
  return groups_[g[static_cast<std::size_t>(group)]].buffer;
}

double OsaBackEnd::smallest_write_buffer() const {
  double smallest = 0;
  for (const DiskGroup& dg : groups_)
    if (smallest == 0 || dg.buffer.capacity() < smallest) smallest = dg.buffer.capacity();
  return smallest;
}

// ---------------------------------------------------------------------------------------
// Degraded erasure-coded writes

// New parity = f(new data, the row's other data units): read those (rebuilding any absent one
// needs the parities as well), then write the surviving parities.
void OsaBackEnd::reconstruct_write(ClusterCore& c, std::uint32_t req, const StripeColumns& cols, int h) {
  const io::Request& r = c.requests_[req];
  const io::Object& o = c.objects_[r.object];
  if (r.phase == 0) {
    bool other_absent = false;
    for (std::size_t col = 0; col < o.place.data.size(); ++col) {
      if (static_cast<int>(col) == cols.data_column || cols.is_parity(col)) continue;
      if (c.absent(o, col)) other_absent = true;
      else c.add_read(req, static_cast<int>(col), h, r.size);
    }
    if (other_absent)
      for (int j = 0; j < cols.parity_count; ++j) {
        const auto col = static_cast<std::size_t>(cols.parity_columns[j]);
        if (!c.absent(o, col)) c.add_read(req, static_cast<int>(col), h, r.size);
      }
    return;
  }
  for (int j = 0; j < cols.parity_count; ++j) {
    const auto col = static_cast<std::size_t>(cols.parity_columns[j]);
    if (!c.absent(o, col)) write_buffered(c, req, o, col, h, r.size);
  }
}

// ---------------------------------------------------------------------------------------
// Resync

// The new components: drawn like the originals (placement.hpp: the policy's stripes on
// distinct capacity devices), each joining its disk group's working set.
void OsaBackEnd::place_rebuild(ClusterCore& c, io::ResyncJob& job, const io::Object& o, RngStream& rng) {
  job.place.push_back(draw_device(c.spec_, rng, job.target));
  for (const ComponentPlace& cp : place_split(c.spec_, job.place.front(), o.place.chunks, rng)) job.place.push_back(cp);
  const std::int64_t each = job.total / o.place.chunks;
  for (int h = 0; h < o.place.chunks; ++h)
    groups_[host_groups_[job.target][job.place[static_cast<std::size_t>(h)].group]].buffer.add_working_set(
        Bytes{h == 0 ? job.total - each * (o.place.chunks - 1) : each});
}

std::uint32_t OsaBackEnd::resync_group(const ClusterCore& c, const io::ResyncJob& job, std::int64_t column_offset) const {
  const int h = c.chunk_at(c.objects_[job.object].place, c.object_offset(column_offset));
  return host_groups_[job.target][job.place[static_cast<std::size_t>(h)].group];
}

// The piece goes into the new component's write buffer: it waits for room (destage wakes the
// pump; the waiting flag keeps that destage running). A buffer too small for 1 MiB takes
// quarter-buffer pieces.
bool OsaBackEnd::resync_room(ClusterCore& c, const io::ResyncJob& job, std::int64_t& bytes) {
  const std::uint32_t g = resync_group(c, job, job.issued);
  DiskGroup& dg = groups_[g];
  bytes = std::min(bytes, std::max<std::int64_t>(io::kBlock, static_cast<std::int64_t>(dg.buffer.capacity() / 4)));
  if (dg.buffer.has_room(Bytes{bytes})) return true;
  dg.resync_waiting = true;
  pump_destage(c, g);
  return false;
}

// A surviving component is read from its write buffer while the block is there, else from
// its capacity device.
std::uint32_t OsaBackEnd::resync_source(ClusterCore& c, std::uint32_t object, std::size_t column, int chunk,
                                        const ComponentPlace& from, std::uint64_t) {
  const DiskGroup& dg = groups_[group_of(c.objects_[object], column, chunk)];
  return c.rng_.uniform01() < dg.buffer.hit_probability() ? dg.cache : dg.capacity[from.device];
}

std::uint32_t OsaBackEnd::resync_target(ClusterCore& c, const io::ResyncJob& job, const io::ResyncCopy& copy) {
  const std::uint32_t g = resync_group(c, job, copy.column_offset);
  groups_[g].buffer.write_new(Bytes{copy.bytes});   // blocks it has never held; destaged like any write
  groups_[g].last_write = c.engine_.now();
  pump_destage(c, g);
  return groups_[g].cache;
}

// o.groups is column-major, as group_of reads it.
void OsaBackEnd::on_rebuilt(ClusterCore&, io::Object& o, const io::ResyncJob& job, int) {
  for (int h = 0; h < o.place.chunks; ++h)
    o.groups[static_cast<std::size_t>(job.column * o.place.chunks + h)] =
        host_groups_[job.target][job.place[static_cast<std::size_t>(h)].group];
}

}  // namespace hcisim
