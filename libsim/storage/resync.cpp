// Rebuilding the components of failed hosts (cluster.hpp, Cluster::start_resync;
// [S32] [S53] [S57]): per absent component a job on a new host, copied in
// kResyncCopy pieces. A copy reads the piece from a surviving replica (erasure coding: the
// same column range of k surviving columns, from which the new host rebuilds it), carries it
// over the network to the new host and writes it there; resync traffic competes with the
// VMs' I/O for the same devices, CPUs and links (docs/model.md, Storage layer, "Failed hosts and resync").
#include <algorithm>
#include <string>

#include "cluster_core.hpp"
#include "esa_io_path.hpp"
#include "hcisim/core/check.hpp"
#include "hcisim/model/core/slot_pool.hpp"
#include "osa_io_path.hpp"

namespace hcisim {

using io::ResyncCopy;
using io::ResyncHost;
using io::ResyncJob;
using io::SubKind;

void ClusterCore::start_resync() {
  if (!resync_hosts_.empty()) throw InvalidArgument("Cluster::start_resync called twice");
  resync_hosts_.resize(spec_.hosts.size());
  RngStream rng(seed_, replication_, "resync");
  for (std::uint32_t oi = 0; oi < objects_.size(); ++oi) {
    Object& o = objects_[oi];
    // Hosts this object already uses: its data components and witnesses (vSAN keeps every
    // component of an object in a fault domain of its own).
    std::vector<bool> used(spec_.hosts.size(), false);
    for (const ComponentPlace& c : o.place.data) used[c.host] = true;
    for (int w : o.place.witnesses)
      if (w >= 0) used[static_cast<std::size_t>(w)] = true;
    for (std::size_t col = 0; col < o.place.data.size(); ++col) {
      if (!absent(o, col)) continue;
      resync_status_.components += o.place.chunks;   // the column's RAID-0 components
      std::vector<int> spare;
      for (int h = 0; h < hosts(); ++h)
        if (host_up(h) && !used[static_cast<std::size_t>(h)]) spare.push_back(h);
      if (spare.empty()) {
        resync_status_.stranded += o.place.chunks;   // e.g. 3 hosts at FTT 1: nowhere to rebuild
        continue;
      }
      ResyncJob job;
      job.object = oi;
      job.column = static_cast<std::uint16_t>(col);
      job.target = static_cast<std::uint16_t>(spare[rng.below(spare.size())]);
      used[job.target] = true;
      // Its written data: the column's share of the working set (add_object).
      job.total = layout_.erasure_coded() ? o.working_set.count() / layout_.data : o.working_set.count();
      // The new components on the new host, each joining its disk group's working set (OSA).
      with_back_end([&](auto& be) { be.place_rebuild(*this, job, o, rng); });
      resync_status_.total_bytes += job.total;
      if (job.total == 0) {   // nothing written to copy (a working set under k bytes)
        finish_job(job);
        continue;
      }
      resync_hosts_[job.target].queue.push_back(static_cast<std::uint32_t>(resync_jobs_.size()));
      resync_jobs_.push_back(std::move(job));
    }
  }
  for (int h = 0; h < hosts(); ++h) pump_resync(h);
}

std::uint64_t ClusterCore::object_offset(std::int64_t column_offset) const {
  if (!layout_.erasure_coded()) return static_cast<std::uint64_t>(column_offset);
  // Column unit u of an erasure-coded object lies in stripe row u.
  const std::int64_t unit = with_back_end([&](const auto& be) { return be.stripe_unit(*this); }).count();
  return static_cast<std::uint64_t>(column_offset / unit * unit * layout_.data);
}

// Starts copies onto `host` while it has fewer than `outstanding` in flight, the throttle
// allows and the back end has room for the piece (OSA: the new component's write buffer;
// destage wakes it again, wake_waiters), so does the throttle's timer.
void ClusterCore::pump_resync(int host) {
  ResyncHost& rh = resync_hosts_[static_cast<std::size_t>(host)];
  while (rh.in_flight < spec_.resync.outstanding && rh.head < rh.queue.size()) {
    const std::uint32_t j = rh.queue[rh.head];
    ResyncJob& job = resync_jobs_[j];
    if (job.issued >= job.total) {
      ++rh.head;
      continue;
    }
    std::int64_t bytes = std::min(Cluster::kResyncCopy, job.total - job.issued);
    if (!with_back_end([&](auto& be) { return be.resync_room(*this, job, bytes); })) return;
    if (spec_.resync.throttle_mbit_s > 0) {
      if (engine_.now() < rh.next_free) {
        if (!rh.pump_scheduled) {
          rh.pump_scheduled = true;
          engine_.schedule_at(rh.next_free, *this, kResyncPump, static_cast<std::uint64_t>(host));
        }
        return;
      }
      // The throttle caps the resync traffic into the host: the piece from each source
      // (k for erasure coding), as stored. bytes x 8 / (Mb/s x 1e6) s = bytes x 8000 / Mb/s ns.
      const double traffic = static_cast<double>(sources_per_copy()) *
                             static_cast<double>(with_back_end([&](const auto& be) { return be.stored_bytes(*this, bytes); }));
      rh.next_free = engine_.now() + Time::round_ns(traffic * 8000.0 / spec_.resync.throttle_mbit_s);
    }
    const std::int64_t at = job.issued;
    job.issued += bytes;
    ++rh.in_flight;
    issue_copy(j, at, bytes);
  }
}

void ClusterCore::issue_copy(std::uint32_t j, std::int64_t column_offset, std::int64_t bytes) {
  const ResyncJob& job = resync_jobs_[j];
  const Object& o = objects_[job.object];
  const std::uint64_t offset = object_offset(column_offset);
  const int h = chunk_at(o.place, offset);
  // The blocks as stored (ESA: compressed; OSA: as written).
  const std::int64_t stored = with_back_end([&](const auto& be) { return be.stored_bytes(*this, bytes); });
  const std::uint32_t copy = take_slot(copies_, free_copies_, ResyncCopy{j, column_offset, bytes, 0});
  // Sources: one surviving replica, or k surviving columns.
  const int need = sources_per_copy();
  std::vector<std::size_t> sources;
  for (std::size_t c = 0; c < o.place.data.size() && static_cast<int>(sources.size()) < need; ++c)
    if (c != job.column && !absent(o, c)) sources.push_back(c);
  copies_[copy].pending = static_cast<int>(sources.size());
  for (std::size_t c : sources) {
    const ComponentPlace& from = o.place.component(static_cast<int>(c), h);
    SubOp s;
    s.kind = SubKind::resync_read;
    s.parent = copy;
    s.from = job.target;
    s.host = from.host;
    s.op = IoOp::read;
    s.device_bytes = stored;
    s.back_bytes = stored;
    s.device = with_back_end([&](auto& be) { return be.resync_source(*this, job.object, c, h, from, offset); });
    s.sequential = streams_on(s.device);   // a component is copied in address order
    launch(s);
  }
}

void ClusterCore::resync_subop_done(std::uint32_t sub) {
  const std::uint32_t copy = subops_[sub].parent;
  const bool read = subops_[sub].kind == SubKind::resync_read;
  free_subops_.push_back(sub);
  if (read) resync_read_done(copy);
  else resync_copied(copy);
}

// Every source piece is on the new host: write the rebuilt piece there.
void ClusterCore::resync_read_done(std::uint32_t copy) {
  if (--copies_[copy].pending > 0) return;
  const ResyncCopy& c = copies_[copy];
  const ResyncJob& job = resync_jobs_[c.job];
  SubOp s;
  s.kind = SubKind::resync_write;
  s.parent = copy;
  s.from = job.target;
  s.host = job.target;
  s.op = IoOp::write;
  s.device_bytes = with_back_end([&](const auto& be) { return be.stored_bytes(*this, c.bytes); });
  s.device = with_back_end([&](auto& be) { return be.resync_target(*this, job, c); });   // OSA: into its write buffer
  s.sequential = streams_on(s.device);
  launch(s);
}

void ClusterCore::resync_copied(std::uint32_t copy) {
  const ResyncCopy c = copies_[copy];
  free_copies_.push_back(copy);
  ResyncJob& job = resync_jobs_[c.job];
  job.done += c.bytes;
  counters_.resync_bytes += c.bytes;
  resync_status_.done_bytes += c.bytes;
  --resync_hosts_[job.target].in_flight;
  if (job.done == job.total) finish_job(job);
  pump_resync(job.target);
}

// The copy is complete: the new component replaces the absent one. A write already past its
// write-buffer reservation then also reaches the new component without having reserved room
// there (one I/O per write in flight at this instant; a degraded read-modify-write keeps its
// plan, Request::reconstruct).
void ClusterCore::finish_job(ResyncJob& job) {
  Object& o = objects_[job.object];
  const int old_host = o.place.data[job.column].host;
  for (int h = 0; h < o.place.chunks; ++h) {
    const ComponentPlace& c = job.place[static_cast<std::size_t>(h)];
    o.place.component(job.column, h) = c;
  }
  // OSA: the components' disk groups; ESA: the performance-leg mirror on the old host too.
  with_back_end([&](auto& be) { be.on_rebuilt(*this, o, job, old_host); });
  resync_status_.rebuilt += o.place.chunks;
}

}  // namespace hcisim
