// The foreground path of an I/O (cluster_core.hpp): request and component-operation state
// machines over the host CPUs, the network and the devices, from the VM's submit to its
// acknowledgement; docs/model.md, "Where an I/O goes", maps each step to its function here.
// The back end's steps (OSA disk groups, ESA pool) come inline from osa_io_path.hpp and
// esa_io_path.hpp, through ClusterCore::with_back_end.
#include <algorithm>
#include <cmath>

#include "cluster_core.hpp"
#include "esa_io_path.hpp"
#include "hcisim/core/check.hpp"
#include "hcisim/model/core/slot_pool.hpp"
#include "osa_io_path.hpp"

namespace hcisim {

using io::kSubCpu;
using io::SubKind;
using io::token;

// The steps marked always_inline are small and called from one or a few places; as calls
// they cost about 80 instructions per simulated I/O (the osa4 benchmark cluster; inlining the
// larger steps as well made it slower). This file holds the hot path only: with the setup
// code in it too, GCC's unit-growth limit stopped inlining the free lists' push_back.

// The latency split (latency_split.hpp): the time since the request's last cut goes to `part`.
[[gnu::always_inline]] inline void ClusterCore::cut(Request& r, LatencyPart part) {
  const Time now = engine_.now();
  r.split[part_index(part)] += now - r.mark;
  r.mark = now;
}

// ---------------------------------------------------------------------------------------
// Requests

[[gnu::always_inline]] inline void ClusterCore::start_request(std::uint64_t tok, int object, int client_host, IoOp op,
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

  // Client host: guest, vSCSI, DOM client; data services at the source; the DOM owner's work
  // too when the owner is the client's host.
  HostCpu& cpu = *cpus_[static_cast<std::size_t>(client_host)];
  Request& q = requests_[idx];
  const Time owner = o.place.owner == client_host ? cpu.charge(CpuStage::dom_owner, size) : Time::zero();
  Time work = (guest_bytes.count() > 0 ? cpu.charge_guest(guest_bytes, o.guest) : Time::zero()) +
              (vscsi_bytes.count() > 0 ? cpu.charge(CpuStage::vscsi, vscsi_bytes) : Time::zero()) + owner;
  if (client_worlds_ == 0) work += client_work(q, cpu);   // OSA: one job on the shared cores
  if (owner > Time::zero()) q.owner_share = static_cast<float>(owner.count_ns()) / static_cast<float>(work.count_ns());
  if (client_worlds_ == 0) {
    cpu.run(token(io::kClientCpu, idx), work);
    return;
  }
  // ESA: the guest's, vSCSI's and owner's work on the shared cores, then the DOM client's
  // work on one of the object's DOM client worlds, on the VM's host.
  objects_[static_cast<std::size_t>(object)].client_host = static_cast<std::uint16_t>(client_host);
  if (work > Time::zero()) cpu.run(token(io::kGuestCpu, idx), work);
  else to_client_world(idx);
}

// The DOM client's work and the data services at the source ([S41] [S42]).
inline Time ClusterCore::client_work(const Request& r, HostCpu& cpu) {
  return cpu.charge(CpuStage::dom_client, Bytes{r.size}) +
         with_back_end([&](auto& be) { return be.source_services(*this, cpu, r.op, Bytes{r.size}); });
}

// The latency split of a client-side job that ends now: with the owner on the client's host,
// the job's time (its wait for a core included) is split in proportion to the work. A read
// from the client cache never reaches the owner: its job is the DOM client's.
void ClusterCore::cut_client_job(Request& r) {
  if (r.owner_share > 0 && !r.cached) {
    const Time elapsed = engine_.now() - r.mark;
    const Time owner = Time::ns(std::llround(static_cast<double>(elapsed.count_ns()) * r.owner_share));
    r.split[part_index(LatencyPart::dom_owner)] += owner;
    r.split[part_index(LatencyPart::dom_client)] += elapsed - owner;
    r.mark = engine_.now();
    r.owner_share = 0;
  } else {
    cut(r, LatencyPart::dom_client);
  }
}

// An object's DOM client worlds ([S250]): a request holds one for its DOM client job; with
// all of them busy it waits, in arrival order.
void ClusterCore::to_client_world(std::uint32_t req) {
  Request& r = requests_[req];
  cut_client_job(r);
  Object& o = objects_[r.object];
  if (o.client_busy < client_worlds_) {
    ++o.client_busy;
    start_client_world(req);
    return;
  }
  o.client_waiting.push(requests_, req);
}

// The world's job runs on the host's shared cores, without the host's deferred work (that is
// not the object's world's to do).
void ClusterCore::start_client_world(std::uint32_t req) {
  Request& r = requests_[req];
  HostCpu& cpu = *cpus_[r.client];
  objects_[r.object].client_service_ns += cpu.run_own(token(io::kClientCpu, req), client_work(r, cpu)).count_ns();
}

// The world passes to the next waiting request (its wait ends here), else it is free.
void ClusterCore::release_client_world(const Request& r) {
  Object& o = objects_[r.object];
  if (o.client_waiting.empty()) {
    --o.client_busy;
    return;
  }
  const std::uint32_t next = o.client_waiting.pop(requests_);
  cut(requests_[next], LatencyPart::dom_client);   // the wait for a world
  start_client_world(next);
}

// A job's service counts when it starts: one that starts before the window's end counts
// whole, so a saturated world may count a little more than the window; the share is held at 1.
double ClusterCore::client_world_utilisation(int object) const {
  const double span = static_cast<double>((engine_.now() - stats_since_).count_ns()) * client_worlds_;
  if (client_worlds_ == 0 || span <= 0) return 0.0;
  return std::min(1.0, static_cast<double>(objects_[static_cast<std::size_t>(object)].client_service_ns) / span);
}

int ClusterCore::submit_piece(std::uint64_t tok, int object, int client_host, IoOp op, std::uint64_t offset,
                              Bytes size, bool sequential, Bytes guest_bytes) {
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
  // An I/O across RAID-0 units (OSA striping) becomes one operation per unit, each to its own
  // component; vSCSI and the guest see it once.
  int n = 0;
  for (std::uint64_t at = offset, end = offset + bytes; at < end; ++n) {
    const std::uint64_t next = std::min(end, (at / span + 1) * span);
    start_request(tok, object, client_host, op, at, Bytes{static_cast<std::int64_t>(next - at)}, sequential,
                  n == 0 ? guest_bytes : Bytes{0}, n == 0 ? size : Bytes{0});
    at = next;
  }
  return n;
}

// The stack's fixed software latency, and the back end's admission delay (OSA writes: the
// congestion delay of the most congested target disk group), are injected at the client (one
// event for both).
void ClusterCore::after_client_cpu(std::uint32_t req) {
  if (client_worlds_ > 0) release_client_world(requests_[req]);
  Request& r = requests_[req];
  cut_client_job(r);
  if (r.cached) {
    ++counters_.client_cache_hits;
    complete(req);
    return;
  }
  const Time delay = stack_latency_ + with_back_end([&](auto& be) { return be.admission_delay(*this, r); });
  if (delay > Time::zero()) {
    engine_.schedule_after(delay, *this, kAfterDelay, req);
    return;
  }
  after_delay(req);
}

// The back end admits the request (OSA writes reserve room in every target write buffer, or
// wait for destage to free some: wake_waiters calls readmit).
[[gnu::always_inline]] inline void ClusterCore::after_delay(std::uint32_t req) {
  if (!with_back_end([&](auto& be) { return be.admit(*this, req); })) return;
  to_owner(req);
}

void ClusterCore::readmit(std::uint32_t req) { after_delay(req); }

// What a client sends its object's owner: a write's data, as the back end stores it.
std::int64_t ClusterCore::to_owner_bytes(const Request& r) const {
  if (r.op != IoOp::write) return 0;
  return with_back_end([&](const auto& be) { return be.stored_bytes(*this, r.size); });
}

[[gnu::always_inline]] inline void ClusterCore::to_owner(std::uint32_t req) {
  Request& r = requests_[req];
  cut(r, LatencyPart::admission);
  const int owner = objects_[r.object].place.owner;
  if (owner == r.client) {
    fan_out(req);
    return;
  }
  const std::int64_t bytes = to_owner_bytes(r);
  charge_stack(r.client, bytes);
  send(token(io::kToOwner, req), r.client, owner, bytes, false, r.object);
}

// The owner's component operations for one request (or one RMW phase): a read goes to the
// replica serving its address range (RAID-1) or to its data column (erasure coding); the
// back end places the writes.
void ClusterCore::fan_out(std::uint32_t req) {
  Request& r = requests_[req];
  r.pending = 0;
  if (r.op != IoOp::read) {
    with_back_end([&](auto& be) { be.fan_out_write(*this, req); });
    return;
  }
  const Object& o = objects_[r.object];
  const int h = chunk(r);
  const std::int64_t bytes = r.size;
  if (!layout_.erasure_coded()) {
    int rep = read_replica(o.place, static_cast<int>(r.object), r.offset, r.client, two_node_);
    // Degraded: the next surviving replica (validate() leaves at least one).
    while (degraded_ && absent(o, static_cast<std::size_t>(rep))) rep = (rep + 1) % static_cast<int>(o.place.data.size());
    add_read(req, rep, h, bytes);
    return;
  }
  const Bytes unit = with_back_end([&](const auto& be) { return be.stripe_unit(*this); });
  const StripeColumns cols = stripe_columns(layout_, unit, r.offset);
  const int col = cols.data_column;
  if (degraded_ && absent(o, static_cast<std::size_t>(col))) {
    degraded_read(req, cols, h, bytes);
    return;
  }
  add_read(req, col, h, bytes);
}

// A foreground device read on component (`column`, `chunk`); the back end chooses the device.
void ClusterCore::add_read(std::uint32_t req, int column, int chunk, std::int64_t bytes) {
  Request& r = requests_[req];
  const ObjectPlacement& place = objects_[r.object].place;
  SubOp s;
  s.parent = req;
  s.from = static_cast<std::uint16_t>(place.owner);
  s.host = place.component(column, chunk).host;
  s.op = IoOp::read;
  s.back_bytes = bytes;
  with_back_end([&](auto& be) { be.place_read(*this, s, r, column, chunk); });
  s.sequential = r.sequential && streams_on(s.device);
  ++r.pending;
  start_subop(new_subop(s));
}

// A VMDK's sequential stream stays sequential on an SSD (no per-command mapping cost). On a
// disk it does not: the streams of the many components a disk holds interleave and the head
// seeks between them, so disks serve foreground I/O as random.
bool ClusterCore::streams_on(std::uint32_t device) const {
  return devices_[device].device->spec().kind == DeviceKind::ssd;
}

void ClusterCore::add_write(std::uint32_t req, std::uint16_t host, std::uint32_t device, std::int64_t bytes) {
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

[[gnu::always_inline]] inline void ClusterCore::request_done(std::uint32_t req) {
  Request& r = requests_[req];
  if (r.op == IoOp::write && with_back_end([&](auto& be) { return be.next_phase(*this, r); })) {
    fan_out(req);   // RMW: reads done, now the writes
    return;
  }
  const int owner = objects_[r.object].place.owner;
  if (owner == r.client) {
    complete(req);
    return;
  }
  const std::int64_t bytes = r.op == IoOp::read ? r.size : 0;
  charge_stack(owner, bytes);
  send(token(io::kToClient, req), owner, r.client, bytes, false, r.object);
}

[[gnu::always_inline]] inline void ClusterCore::complete(std::uint32_t req) {
  ++counters_.completed;
  const std::uint64_t tok = requests_[req].token;
  completing_ = requests_[req].split;
  free_requests_.push_back(req);
  client_.on_io_done(facade_, tok);
}

// ---------------------------------------------------------------------------------------
// Component operations: [network out] -> CPU at host -> device -> [network back]

void ClusterCore::launch(const SubOp& s) { start_subop(new_subop(s)); }

void ClusterCore::run_lsom(std::uint32_t sub, HostCpu& cpu, Time work) {
  const std::uint32_t device = subops_[sub].device;
  if (Station* world = with_back_end([&](const auto& be) { return be.world_of(*this, device); }))
    world->arrive(token(kSubCpu, sub), work);
  else
    cpu.run(token(kSubCpu, sub), work);
}

void ClusterCore::subop_device(std::uint32_t sub, std::uint32_t extents) {
  SubOp& s = subops_[sub];
  if (s.lookup_first) {
    // The dedupe map lookup: a 4 KiB read on the same capacity device, then the data read.
    ++counters_.fg_device_reads;
    counters_.fg_device_read_bytes += io::kBlock;
    devices_[s.device].device->submit(token(io::kSubDevice, sub), IoOp::read, Bytes{io::kBlock}, false);
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
  devices_[s.device].device->submit(token(io::kSubDevice, sub), s.op, Bytes{std::max<std::int64_t>(s.device_bytes, 1)},
                                    s.sequential, extents);
}

void ClusterCore::subop_done(std::uint32_t sub) {
  SubOp& s = subops_[sub];
  if (s.kind == SubKind::foreground) [[likely]] {
    const std::uint32_t req = s.parent;
    free_subops_.push_back(sub);   // `s` stays readable: only its slot is freed
    Request& r = requests_[req];
    if (--r.pending == 0) {
      // The last component operation: the one the request waited for.
      const Time now = engine_.now();
      r.split[part_index(LatencyPart::network)] += (s.arrived - s.sent) + (now - s.device_done);
      r.split[part_index(LatencyPart::lsom)] += s.cpu_done - s.arrived;
      r.split[part_index(LatencyPart::device)] += s.device_done - s.cpu_done;
      r.mark = now;
      request_done(req);
    }
    return;
  }
  if (s.kind == SubKind::resync_read || s.kind == SubKind::resync_write) {
    resync_subop_done(sub);
    return;
  }
  with_back_end([&](auto& be) { be.background_done(*this, sub); });   // destage, fill, stripe
}

void ClusterCore::send(std::uint64_t tok, int from, int to, std::int64_t bytes, bool background, std::uint64_t flow) {
  ++counters_.network_messages;
  (background ? counters_.bg_network_bytes : counters_.fg_network_bytes) += bytes;
  network_->send(tok, from, to, Bytes{bytes}, flow);
}

void ClusterCore::defer_received(int host, std::int64_t bytes) {
  if (!receive_threads_ || bytes == 0) return;
  HostCpu& cpu = *cpus_[static_cast<std::size_t>(host)];
  cpu.defer(cpu.charge_tcp_receive(Bytes{bytes}));
}

// Network-stack CPU nobody waits for (a send, or a reply's receive at the owner or the
// client): it occupies a core as part of the host's next CPU visit (HostCpu::defer).
void ClusterCore::charge_stack(int host, std::int64_t bytes) {
  HostCpu& cpu = *cpus_[static_cast<std::size_t>(host)];
  cpu.defer(cpu.charge(CpuStage::network, Bytes{bytes}, spec_.network.framing.transport));
}

void ClusterCore::charge_receive_stack(int host, std::int64_t bytes) {
  HostCpu& cpu = *cpus_[static_cast<std::size_t>(host)];
  cpu.defer(cpu.charge_receive(Bytes{bytes}, spec_.network.framing.transport));
}

// ---------------------------------------------------------------------------------------
// Callbacks

void ClusterCore::on_event(Engine&, EventTag tag, std::uint64_t arg) {
  if (tag == kAfterDelay) {
    after_delay(static_cast<std::uint32_t>(arg));
  } else if (tag == kResyncPump) {
    resync_hosts_[arg].pump_scheduled = false;
    pump_resync(static_cast<int>(arg));
  } else if (tag == kIdleCheck) {
    with_back_end([&](auto& be) { be.idle_check(*this, static_cast<std::uint32_t>(arg)); });   // OSA's elevator
  }
}

void ClusterCore::on_cpu_done(HostCpu&, std::uint64_t tok) { after_cpu(tok); }

void ClusterCore::on_departure(Station&, std::uint64_t job, Time, Time) { after_cpu(job); }

void ClusterCore::after_cpu(std::uint64_t tok) {
  const auto index = static_cast<std::uint32_t>(tok & io::kIndexMask);
  switch (static_cast<io::Kind>(tok >> 56)) {
    case io::kClientCpu: after_client_cpu(index); break;
    case io::kGuestCpu: to_client_world(index); break;
    case io::kOwnerCpu:
      cut(requests_[index], LatencyPart::dom_owner);
      fan_out(index);
      break;
    case io::kSubCpu:
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

void ClusterCore::on_delivered(Network&, std::uint64_t tok) {
  const auto index = static_cast<std::uint32_t>(tok & io::kIndexMask);
  switch (static_cast<io::Kind>(tok >> 56)) {
    case io::kToOwner: {
      Request& r = requests_[index];
      cut(r, LatencyPart::client_network);
      const int owner = objects_[r.object].place.owner;
      HostCpu& cpu = *cpus_[static_cast<std::size_t>(owner)];
      const std::int64_t bytes = to_owner_bytes(r);
      cpu.run(token(io::kOwnerCpu, index),
              cpu.charge_receive(Bytes{received_on_job(bytes)}, spec_.network.framing.transport) +
                  cpu.charge(CpuStage::dom_owner, Bytes{r.size}));
      defer_received(owner, bytes);   // after the run: the owner's job above does not pay it
      break;
    }
    case io::kToClient: {
      // The client receives the owner's reply (a read's data), as the owner receives a
      // component's (kSubBack): cost nobody waits for, on the client's next CPU visit.
      Request& r = requests_[index];
      cut(r, LatencyPart::client_network);
      const std::int64_t bytes = r.op == IoOp::read ? r.size : 0;
      charge_receive_stack(r.client, received_on_job(bytes));
      defer_received(r.client, bytes);
      complete(index);
      break;
    }
    case io::kSubOut: {
      // Component host: receive, LSOM/zDOM work, and the reply's send cost.
      SubOp& s = subops_[index];
      s.arrived = engine_.now();
      HostCpu& cpu = *cpus_[s.host];
      const Transport t = spec_.network.framing.transport;
      Time stack = cpu.charge_receive(Bytes{received_on_job(s.out_bytes)}, t);
      if (s.kind <= SubKind::resync_read)   // foreground and resync reads: the reply's send
        stack += cpu.charge(CpuStage::network, Bytes{s.back_bytes}, t);
      const Time lsom = with_back_end([&](const auto& be) { return be.component_work(*this, cpu, s); });
      Station* world = with_back_end([&](const auto& be) { return be.world_of(*this, s.device); });
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
    case io::kSubBack: {
      // Owner: the reply's receive cost occupies a core; the operation is done.
      defer_received(subops_[index].from, subops_[index].back_bytes);
      charge_receive_stack(subops_[index].from, received_on_job(subops_[index].back_bytes));
      subop_done(index);
      break;
    }
    default: break;
  }
}

void ClusterCore::on_io_complete(StorageDevice&, std::uint64_t tok) {
  const auto sub = static_cast<std::uint32_t>(tok & io::kIndexMask);
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
  send(token(io::kSubBack, sub), s.host, s.from, s.back_bytes, s.kind != SubKind::foreground, sub);
}

}  // namespace hcisim
