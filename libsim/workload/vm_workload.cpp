// Benchmark VMs driving a Cluster (vm_workload.hpp).
#include "hcisim/model/workload/vm_workload.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "hcisim/core/check.hpp"

namespace hcisim {

namespace {
constexpr Time kLatencyWindow = Time::ns(100'000'000);   // 100 ms (fio's default window is 1 s)
}

VmWorkload::VmWorkload(Engine& engine, const WorkloadSpec& spec, std::uint64_t seed, int threads_per_vmdk,
                       std::uint64_t replication, int group, int first_vm)
    : engine_(engine),
      spec_((spec.validate(), spec)),
      threads_per_vmdk_(static_cast<int>(check::in_range(threads_per_vmdk, 1, spec.outstanding_per_vmdk,
                                                         "workload threads per VMDK"))),
      // The first group keeps the stream of a single workload (its results stay bit for bit).
      rng_(seed, replication, group == 0 ? std::string("workload") : "workload/group" + std::to_string(group)),
      token_tag_(static_cast<std::uint64_t>(check::in_range(group, 0, kMaxGroups - 1, "workload group")) << 32),
      first_vm_(static_cast<int>(check::in_range(first_vm, 0, 1 << 24, "workload first VM"))) {}

void VmWorkload::start(Cluster& cluster) {
  if (cluster_) throw InvalidArgument("VmWorkload::start called twice");
  cluster_ = &cluster;
  const int hosts = cluster.hosts();
  const int vms = spec_.vm_count(hosts);
  // VMs go round-robin over the hosts; a failed host's VMs run on the surviving ones (vSphere
  // HA restarts them there), which then also own their objects.
  std::vector<int> up;
  for (int h = 0; h < hosts; ++h)
    if (cluster.host_up(h)) up.push_back(h);
  const auto ws = static_cast<std::int64_t>(static_cast<double>(spec_.vmdk_size.count()) * spec_.working_set_pct / 100.0);
  const std::int64_t blocks = std::max<std::int64_t>(1, ws / spec_.block.count());
  const int per_thread = spec_.outstanding_per_vmdk / threads_per_vmdk_;
  vms_.resize(static_cast<std::size_t>(vms));
  backlog_.assign(static_cast<std::size_t>(vms), 0);
  for (int v = 0; v < vms; ++v) {
    vm_first_slot_.push_back(static_cast<std::uint32_t>(slots_.size()));
    const int host = up[static_cast<std::size_t>(first_vm_ + v) % up.size()];
    vms_[static_cast<std::size_t>(v)].host = host;
    for (int d = 0; d < spec_.vmdks_per_vm; ++d) {
      Vmdk k;
      k.vm = v;
      k.host = host;
      k.object = cluster.add_object(host, spec_.vmdk_size, Bytes{blocks * spec_.block.count()}, spec_.guest_os);
      k.span_blocks = static_cast<std::uint64_t>(blocks);
      k.next_block = rng_.below(k.span_blocks);
      k.first_slot = static_cast<std::uint32_t>(slots_.size());
      k.slots = static_cast<std::uint32_t>(spec_.outstanding_per_vmdk);
      const auto vmdk = static_cast<std::uint32_t>(vmdks_.size());
      vmdks_.push_back(k);
      for (int t = 0; t < threads_per_vmdk_; ++t) {
        threads_.push_back(ThreadStats{v, d, t, {0, 0}, {0, 0}, {0, 0}, {0, 0}});
        // DiskSpd threads own -o slots each; the remainder of an uneven split goes to the last.
        const int n = t + 1 < threads_per_vmdk_ ? per_thread : spec_.outstanding_per_vmdk - per_thread * t;
        for (int s = 0; s < n; ++s)
          slots_.push_back(Slot{Time::zero(), Time::zero(), vmdk, static_cast<std::uint32_t>(threads_.size() - 1), IoOp::read, false});
      }
    }
  }
  vm_first_slot_.push_back(static_cast<std::uint32_t>(slots_.size()));
  piece_bytes_ = std::min(spec_.block.count(), max_transfer(spec_.vscsi).count());
  disk_queue_ = spec_.vscsi_disk_queue > 0 ? spec_.vscsi_disk_queue : default_disk_queue(spec_.vscsi);
  adapter_queue_ = spec_.vscsi_adapter_queue > 0 ? spec_.vscsi_adapter_queue : default_adapter_queue(spec_.vscsi);
  queues_bind_ = spec_.outstanding_per_vmdk > disk_queue_ || spec_.outstanding_per_vmdk * spec_.vmdks_per_vm > adapter_queue_;
  vm_dispatched_.assign(static_cast<std::size_t>(vms), 0);
  waiting_.assign(static_cast<std::size_t>(vms), {});
  for (int v = 0; v < vms; ++v)
    waiting_[static_cast<std::size_t>(v)].reserve(vm_first_slot_[static_cast<std::size_t>(v) + 1] - vm_first_slot_[static_cast<std::size_t>(v)]);
  open_loop_ = spec_.iops_limit_per_vm > 0;
  latency_target_ = spec_.latency_target_ms > 0;
  depth_ = latency_target_ ? 1 : spec_.outstanding_per_vmdk;
  busy_bits_.assign((slots_.size() + 63) / 64, 0);
  if (open_loop_) {
    release_gap_ = std::max(Time::ns(1), Time::round_ns(1e9 / spec_.iops_limit_per_vm));
    next_release_.assign(static_cast<std::size_t>(vms), Time::zero());
    clock_running_.assign(static_cast<std::size_t>(vms), 1);
    for (int v = 0; v < vms; ++v) {
      // Stagger the VMs' release clocks evenly over one interval.
      const double gap_ns = 1e9 / spec_.iops_limit_per_vm;
      next_release_[static_cast<std::size_t>(v)] = engine_.now() + Time::round_ns(gap_ns * v / vms);
      engine_.schedule_at(next_release_[static_cast<std::size_t>(v)], *this, kRelease, static_cast<std::uint64_t>(v));
    }
  } else {
    const std::size_t per_vmdk = static_cast<std::size_t>(spec_.outstanding_per_vmdk);
    for (std::uint32_t s = 0; s < slots_.size(); ++s)
      if (s % per_vmdk < static_cast<std::size_t>(depth_)) issue(s);
  }
  if (latency_target_) engine_.schedule_after(kLatencyWindow, *this, kWindow, 0);
  reset_stats();
}

void VmWorkload::issue(std::uint32_t slot) {
  Slot& s = slots_[slot];
  Vmdk& k = vmdks_[s.vmdk];
  std::uint64_t block;
  const bool random = spec_.random_pct >= 100 || (spec_.random_pct > 0 && rng_.uniform01() * 100 < spec_.random_pct);
  if (random) {
    block = rng_.below(k.span_blocks);
  } else {
    block = k.next_block;
    k.next_block = (k.next_block + 1) % k.span_blocks;
  }
  s.op = rng_.uniform01() * 100 < spec_.read_pct ? IoOp::read : IoOp::write;
  s.block = block;
  s.random = random;
  s.issued = engine_.now();
  set_busy(slot, true);
  ++k.active;
  ++issued_;
  in_flight_.add(engine_.now(), 1);
  vms_[static_cast<std::size_t>(k.vm)].in_flight.add(engine_.now(), 1);
  if (queues_bind_ && (k.dispatched >= disk_queue_ || vm_dispatched_[static_cast<std::size_t>(k.vm)] >= adapter_queue_)) {
    waiting_[static_cast<std::size_t>(k.vm)].push_back(slot);   // in the guest, behind the full queue
    return;
  }
  dispatch(slot);
}

// The guest I/O in `slot` passes the virtual adapter to the cluster.
void VmWorkload::dispatch(std::uint32_t slot) {
  Slot& s = slots_[slot];
  Vmdk& k = vmdks_[s.vmdk];
  s.dispatched = engine_.now();
  ++k.dispatched;
  ++vm_dispatched_[static_cast<std::size_t>(k.vm)];
  const bool random = s.random;
  const std::uint64_t block = s.block;
  const std::int64_t size = spec_.block.count();
  const std::uint64_t offset = block * static_cast<std::uint64_t>(size);
  vms_[static_cast<std::size_t>(k.vm)].dispatched_bytes[static_cast<std::size_t>(s.op)] += size;
  // The guest I/O completes with the last of its operations: the cluster says how many it
  // made of each submit (RAID-0 units of a striped object). One piece is the usual case and
  // skips the loop (about 30 instructions per I/O).
  if (piece_bytes_ == size) {
    s.pieces_left = static_cast<std::uint16_t>(cluster_->submit(token_tag_ | slot, k.object, k.host, s.op, offset, spec_.block, !random));
    return;
  }
  // The virtual adapter splits a guest I/O above its transfer limit into pieces issued
  // together (workload_spec.hpp, VscsiAdapter).
  int operations = 0;
  for (std::int64_t at = 0; at < size; at += piece_bytes_)
    operations += cluster_->submit_piece(token_tag_ | slot, k.object, k.host, s.op, offset + static_cast<std::uint64_t>(at),
                                         Bytes{std::min(piece_bytes_, size - at)}, !random, Bytes{at == 0 ? size : 0});
  s.pieces_left = static_cast<std::uint16_t>(operations);
}

void VmWorkload::on_io_done(Cluster& cluster, std::uint64_t token) {
  const auto slot = static_cast<std::uint32_t>(token);
  Slot& s = slots_[slot];
  if (--s.pieces_left > 0) return;
  // Copied before release() below can hand the cluster new I/O.
  const LatencyParts parts = cluster.completing_split();
  Vmdk& k = vmdks_[s.vmdk];
  const Time latency = engine_.now() - s.issued;
  set_busy(slot, false);
  --k.active;
  --k.dispatched;
  --vm_dispatched_[static_cast<std::size_t>(k.vm)];
  if (queues_bind_) release(k.vm);
  in_flight_.add(engine_.now(), -1);
  ++completed_;
  completed_latency_ns_ += latency.count_ns();
  VmStats& vm = vms_[static_cast<std::size_t>(k.vm)];
  vm.in_flight.add(engine_.now(), -1);
  if (s.issued < since_) {
    vm.carried_in_ns += static_cast<double>((engine_.now() - since_).count_ns());
  } else {
    const auto op = static_cast<std::size_t>(s.op);
    const auto ns = static_cast<double>(latency.count_ns());
    vm.latency[op].record(latency);
    vm.sum_ns[op] += ns;
    vm.sum_sq_ns[op] += ns * ns;
    ++vm.ios[op];
    vm.bytes[op] += spec_.block.count();
    // The guest I/O's last operation: its parts run from the dispatch to now.
    LatencyParts& split = vm.split[op];
    split[part_index(LatencyPart::guest_queue)] += s.dispatched - s.issued;
    for (std::size_t p = 1; p < kLatencyParts; ++p) split[p] += parts[p];
    ThreadStats& t = threads_[s.thread];
    ++t.ios[op];
    t.bytes[op] += spec_.block.count();
    t.sum_ns[op] += ns;
    t.sum_sq_ns[op] += ns * ns;
    if (latency_target_) window_hist_.record(latency);
  }
  if (open_loop_) {
    const auto v = static_cast<std::size_t>(k.vm);
    catch_up(k.vm);
    if (backlog_[v] > 0) {
      // Every slot was busy, so the one just freed is the VM's only idle slot.
      --backlog_[v];
      issue(slot);
    } else if (!clock_running_[v]) {
      clock_running_[v] = 1;   // a slot is idle again: releases resume at their times
      engine_.schedule_at(next_release_[v], *this, kRelease, static_cast<std::uint64_t>(k.vm));
    }
    return;
  }
  if (k.active < depth_) issue(slot);
}

void VmWorkload::release(int vm) {
  std::vector<std::uint32_t>& q = waiting_[static_cast<std::size_t>(vm)];
  for (std::size_t i = 0; i < q.size() && vm_dispatched_[static_cast<std::size_t>(vm)] < adapter_queue_;) {
    const std::uint32_t slot = q[i];
    if (vmdks_[slots_[slot].vmdk].dispatched < disk_queue_) {
      q.erase(q.begin() + static_cast<std::ptrdiff_t>(i));
      dispatch(slot);
    } else {
      ++i;
    }
  }
}

void VmWorkload::set_busy(std::uint32_t slot, bool busy) {
  slots_[slot].busy = busy;
  const std::uint64_t bit = std::uint64_t{1} << (slot % 64);
  if (busy) busy_bits_[slot / 64] |= bit;
  else busy_bits_[slot / 64] &= ~bit;
}

// Any idle slot of the VM, preferring the VMDK with the fewest I/Os in flight (the first such
// VMDK, then its lowest idle slot). A VMDK's slots are contiguous and it has an idle one when
// fewer than all are active: a scan of the VM's VMDKs, then a word scan of one VMDK's bits.
std::uint32_t VmWorkload::free_slot_of_vm(int vm) {
  const auto v = static_cast<std::size_t>(vm);
  const std::uint32_t first = vm_first_slot_[v];
  if (first == vm_first_slot_[v + 1]) return 0xffffffffu;
  const std::uint32_t first_vmdk = slots_[first].vmdk;
  const Vmdk* best = nullptr;
  for (std::uint32_t d = first_vmdk; d < vmdks_.size() && vmdks_[d].vm == vm; ++d) {
    const Vmdk& k = vmdks_[d];
    if (static_cast<std::uint32_t>(k.active) < k.slots && (best == nullptr || k.active < best->active)) best = &k;
  }
  if (best == nullptr) return 0xffffffffu;
  const std::uint32_t end = best->first_slot + best->slots;
  for (std::uint32_t s = best->first_slot; s < end;) {
    const std::uint64_t idle = ~busy_bits_[s / 64] >> (s % 64);
    if (idle != 0) {
      const std::uint32_t found = s + static_cast<std::uint32_t>(__builtin_ctzll(idle));
      return found < end ? found : 0xffffffffu;
    }
    s = (s / 64 + 1) * 64;
  }
  return 0xffffffffu;
}

void VmWorkload::catch_up(int vm) {
  const auto v = static_cast<std::size_t>(vm);
  if (clock_running_[v] || engine_.now() < next_release_[v]) return;
  const std::int64_t due = (engine_.now() - next_release_[v]).count_ns() / release_gap_.count_ns() + 1;
  backlog_[v] += static_cast<std::uint64_t>(due);
  next_release_[v] += release_gap_ * due;
}

void VmWorkload::on_event(Engine&, EventTag tag, std::uint64_t arg) {
  if (tag == kWindow) {
    window();
    return;
  }
  // kRelease: one I/O of VM `arg` is due.
  const int vm = static_cast<int>(arg);
  const auto v = static_cast<std::size_t>(vm);
  next_release_[v] = engine_.now() + release_gap_;
  const std::uint32_t slot = free_slot_of_vm(vm);
  if (slot == 0xffffffffu) {
    // Every slot busy: stop the clock; the next completion counts what fell due (catch_up).
    ++backlog_[v];
    clock_running_[v] = 0;
    return;
  }
  issue(slot);
  engine_.schedule_at(next_release_[v], *this, kRelease, arg);
}

void VmWorkload::window() {
  if (window_hist_.count() > 0) {
    const double p95_ms = window_hist_.percentile(0.95).ms();
    const int before = depth_;
    if (p95_ms <= spec_.latency_target_ms) depth_ = std::min(depth_ + 1, spec_.outstanding_per_vmdk);
    else depth_ = std::max(depth_ - 1, 1);
    if (depth_ > before) {
      // Each VMDK's slots are contiguous: fill idle ones up to the new depth.
      for (std::uint32_t s = 0; s < slots_.size(); ++s)
        if (!slots_[s].busy && vmdks_[slots_[s].vmdk].active < depth_) issue(s);
    }
  }
  window_hist_.reset();
  engine_.schedule_after(kLatencyWindow, *this, kWindow, 0);
}

void VmWorkload::reset_stats() {
  for (VmStats& vm : vms_) {
    // In place: the histograms keep their rows (no allocation at the warm-up cut).
    for (LatencyHistogram& h : vm.latency) h.reset();
    vm.sum_ns = {0, 0};
    vm.sum_sq_ns = {0, 0};
    vm.ios = {0, 0};
    vm.bytes = {0, 0};
    vm.split = {};
    vm.in_flight.reset(engine_.now());
    vm.carried_in_ns = 0;
    vm.dispatched_bytes = {0, 0};
  }
  for (ThreadStats& t : threads_) {
    t.ios[0] = t.ios[1] = 0;
    t.bytes[0] = t.bytes[1] = 0;
    t.sum_ns[0] = t.sum_ns[1] = 0;
    t.sum_sq_ns[0] = t.sum_sq_ns[1] = 0;
  }
  since_ = engine_.now();
  in_flight_ = TimeWeighted(engine_.now(), in_flight_.value());
}

VmWorkload::InFlight VmWorkload::oldest_in_flight() const {
  InFlight out;
  for (const Slot& s : slots_) {
    if (!s.busy || (out.found && s.issued >= out.issued)) continue;
    const Vmdk& k = vmdks_[s.vmdk];
    // Each VM has vmdks_per_vm VMDKs, in order (start()).
    out = {true, s.issued, k.vm, static_cast<int>(s.vmdk) - k.vm * spec_.vmdks_per_vm, s.op};
  }
  return out;
}

std::uint64_t VmWorkload::measured() const {
  std::uint64_t n = 0;
  for (const VmStats& vm : vms_) n += vm.ios[0] + vm.ios[1];
  return n;
}

std::uint64_t VmWorkload::operations_out() const {
  // A dispatched slot still has pieces_left in the cluster. A slot waiting in the guest has
  // pieces_left 0 (never dispatched) or its old count 0.
  std::uint64_t live = 0;
  for (const Slot& s : slots_)
    if (s.busy) live += s.pieces_left;
  return live;
}

std::string VmWorkload::audit(Time now, std::uint64_t cluster_live_requests) const {
  char buf[400];
  std::uint64_t busy = 0, live = 0;
  std::vector<double> carried_out(vms_.size(), 0.0);
  for (const Slot& s : slots_) {
    if (!s.busy) continue;
    ++busy;
    const auto vm = static_cast<std::size_t>(vmdks_[s.vmdk].vm);
    carried_out[vm] += static_cast<double>((now - std::max(s.issued, since_)).count_ns());
  }
  live = operations_out();
  if (issued_ != completed_ + busy) {
    std::snprintf(buf, sizeof buf, "%llu guest I/Os issued, %llu completed and %llu in flight: %lld lost",
                  static_cast<unsigned long long>(issued_), static_cast<unsigned long long>(completed_),
                  static_cast<unsigned long long>(busy), static_cast<long long>(issued_ - completed_ - busy));
    return buf;
  }
  if (!open_loop_ && !latency_target_ && busy != slots_.size()) {
    std::snprintf(buf, sizeof buf, "closed loop with %zu slots, but only %llu hold an I/O", slots_.size(),
                  static_cast<unsigned long long>(busy));
    return buf;
  }
  if (live != cluster_live_requests) {
    std::snprintf(buf, sizeof buf, "the guests have %llu operations out, the cluster holds %llu",
                  static_cast<unsigned long long>(live), static_cast<unsigned long long>(cluster_live_requests));
    return buf;
  }
  const double window_ns = static_cast<double>((now - since_).count_ns());
  for (std::size_t v = 0; v < vms_.size(); ++v) {
    const VmStats& vm = vms_[v];
    const double area = vm.in_flight.mean(now) * window_ns;
    const double parts = vm.sum_ns[0] + vm.sum_ns[1] + vm.carried_in_ns + carried_out[v];
    if (std::abs(area - parts) > 1e-9 * area + 1e3) {
      std::snprintf(buf, sizeof buf,
                    "Little's law fails for VM %zu: %.6g I/Os in flight on average over %.3f s, but its I/Os account "
                    "for %.6g",
                    v + 1, area / window_ns, window_ns * 1e-9, parts / window_ns);
      return buf;
    }
  }
  return "";
}

}  // namespace hcisim
