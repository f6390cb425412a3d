// Network transfers: segment pipelining over FIFO ports (see network.hpp for the model).
#include "hcisim/model/hw/network.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "hcisim/core/check.hpp"
#include "network_routes.hpp"

namespace hcisim {

namespace {

// SplitMix64 finaliser: spreads flow ids over paths and team ports.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

void NetworkConfig::validate() const {
  framing.validate();
  check::in_range(segment.count(), 1024, 16 << 20, "network segment bytes");
  check::non_negative(cable_latency_us, "network cable_latency_us");
}

Network::Network(Engine& engine, const NetworkConfig& config, NetworkClient& client)
    : engine_(engine), config_(config), client_(client) {
  config_.validate();
  payload_per_frame_ = config_.framing.payload_per_frame();
  wire_per_frame_ = config_.framing.wire_per_frame();
  segment_payload_ = config_.segment.count();
  segment_wire_ = wire_bytes(segment_payload_);
}

int Network::add_host(const std::string& name, const NicSpec& nic, int active_ports, Teaming teaming) {
  if (finalized()) throw InvalidArgument("network: add_host('" + name + "') after finalize()");
  nic.validate();
  check::in_range(active_ports, 1, nic.ports, "host '" + name + "' active NIC ports");
  if (teaming == Teaming::failover && active_ports != 1)
    check::fail("host '" + name + "' active NIC ports", active_ports,
                "1 with failover teaming (vSAN's single vmknic uses one port; use LACP to spread flows)");
  Node node;
  node.name = name;
  node.host = static_cast<int>(hosts_.size());
  node.latency_us = nic.latency_us;
  node.max_gbps = nic.speed_gbps;
  node.max_lanes = active_ports;
  node.teaming = teaming;
  Host host;
  host.node = static_cast<NodeId>(nodes_.size());
  host.nic_latency = Time::round_ns(nic.latency_us * 1e3);
  host.rx_interrupt = Time::round_ns(nic.rx_interrupt_us * 1e3);
  hosts_.push_back(host);
  nodes_.push_back(node);
  return node.host;
}

Network::NodeId Network::add_switch(const std::string& name, const SwitchSpec& spec) {
  if (finalized()) throw InvalidArgument("network: add_switch('" + name + "') after finalize()");
  spec.validate();
  Node node;
  node.name = name;
  node.latency_us = spec.latency_us;
  node.max_gbps = std::numeric_limits<double>::infinity();   // uplink ports may be faster
  node.max_lanes = spec.ports;
  nodes_.push_back(node);
  return static_cast<NodeId>(nodes_.size() - 1);
}

void Network::set_receive(int host, int queues, double ns_per_byte) {
  Host& h = hosts_[host_index(host)];
  const std::string what = "network host " + nodes_[h.node].name + " receive";
  check::in_range(queues, 0, 64, what + " queues");
  // 1e6 ns per byte is a queue of 8 kbit/s: anything slower is a mistake, not a NIC.
  check::non_negative_at_most(ns_per_byte, 1e6, what + " ns per byte");
  if (!finalized()) throw InvalidArgument("network: set_receive() before finalize()");
  if (in_flight_ != 0) throw InvalidArgument("network: set_receive() with messages in flight");
  if (h.rx_count != 0) throw InvalidArgument("network: set_receive() twice for " + nodes_[h.node].name);
  if (queues == 0 || ns_per_byte == 0) return;
  h.rx_first = static_cast<std::uint32_t>(rx_.size());
  h.rx_count = static_cast<std::uint32_t>(queues);
  h.rx_ns_per_byte = ns_per_byte;
  rx_.resize(rx_.size() + static_cast<std::size_t>(queues));
  // Segments reach the host in landing order through one port only; through several (a team,
  // several direct lanes) a queue is reserved as each segment lands (one more event).
  int into = 0;
  for (const Port& p : ports_) into += p.row == kLands && bundles_[p.bundle].to == h.node;
  h.rx_at_landing = into > 1;
}

// A queue's work reserved beyond now is not done yet: it counts once the clock passes it.
// The part after now is taken as free_at - now, which also counts an idle gap before a
// reservation made ahead of its landing (a segment's last hop and NIC latency, microseconds,
// plus a wait for a moderated interrupt, up to its interval): only the window's ends are
// off, by that much.
Time Network::RxQueue::done_by(Time now) const {
  const Time ahead = free_at > now ? free_at - now : Time::zero();
  return busy > ahead ? busy - ahead : Time::zero();
}

Time Network::receive_busy(int host) const {
  const Host& h = hosts_[host_index(host)];
  Time busy;
  for (std::uint32_t i = 0; i < h.rx_count; ++i) busy += rx_[h.rx_first + i].done_by(engine_.now());
  return busy;
}

std::vector<double> Network::receive_queue_utilisation(int host) const {
  const Host& h = hosts_[host_index(host)];
  const double elapsed = static_cast<double>((engine_.now() - stats_since_).count_ns());
  std::vector<double> out(h.rx_count, 0.0);
  for (std::uint32_t i = 0; i < h.rx_count && elapsed > 0; ++i)
    out[i] = static_cast<double>(rx_[h.rx_first + i].done_by(engine_.now()).count_ns()) / elapsed;
  return out;
}

double Network::receive_utilisation_max(int host) const {
  double most = 0;
  for (double u : receive_queue_utilisation(host)) most = std::max(most, std::min(1.0, u));
  return most;
}

std::size_t Network::host_index(int host) const {
  return static_cast<std::size_t>(check::in_range(host, 0, hosts() - 1, "network host index"));
}

Network::NodeId Network::host_node(int host) const { return hosts_[host_index(host)].node; }

void Network::connect(NodeId a, NodeId b, double gbps, int lanes) {
  if (finalized()) throw InvalidArgument("network: connect() after finalize()");
  check::in_range(a, 0, static_cast<std::int64_t>(nodes_.size()) - 1, "network connect node a");
  check::in_range(b, 0, static_cast<std::int64_t>(nodes_.size()) - 1, "network connect node b");
  if (a == b) throw InvalidArgument("network: connect() of node '" + nodes_[a].name + "' to itself");
  const std::string what = "link " + nodes_[a].name + " - " + nodes_[b].name;
  validate_link_speed(gbps, what + " gbps");
  for (NodeId end : {a, b}) {
    const Node& n = nodes_[end];
    if (gbps > n.max_gbps)
      check::fail(what + " gbps", gbps, "at most the NIC speed of " + n.name + " (" + std::to_string(n.max_gbps) + ")");
    check::in_range(lanes, 1, n.max_lanes, what + " lanes (ports used at " + n.name + ")");
  }
  // A failover team carries traffic on one port only; a LACP team or a switch LAG on all.
  const bool failover = (nodes_[a].host >= 0 && nodes_[a].teaming == Teaming::failover) ||
                        (nodes_[b].host >= 0 && nodes_[b].teaming == Teaming::failover);
  const std::uint32_t active = failover ? 1u : static_cast<std::uint32_t>(lanes);
  const double ns_per_byte = 8.0 / gbps;
  if (ports_.size() + 2 * active >= (std::size_t{1} << 31))   // port indices fit in an event argument
    throw InvalidArgument("network: too many ports");
  for (auto [from, to] : {std::pair{a, b}, std::pair{b, a}}) {
    Bundle bu;
    bu.from = from;
    bu.to = to;
    bu.first_port = static_cast<std::uint32_t>(ports_.size());
    bu.active = active;
    bu.ns_per_byte = ns_per_byte;
    bu.hop_latency_ns = config_.cable_latency_us * 1e3 + (nodes_[to].host < 0 ? nodes_[to].latency_us * 1e3 : 0.0);
    for (std::uint32_t i = 0; i < active; ++i) {
      Port p;
      p.ns_per_byte = ns_per_byte;
      p.bundle = static_cast<std::uint32_t>(bundles_.size());
      p.hop = Time::round_ns(bu.hop_latency_ns);
      p.land = p.hop + (nodes_[to].host >= 0 ? Time::round_ns(nodes_[to].latency_us * 1e3) : Time::zero());
      p.frame = Time::round_ns(static_cast<double>(wire_per_frame_) * ns_per_byte);
      p.full_segment = Time::round_ns(static_cast<double>(segment_wire_) * ns_per_byte);
      ports_.push_back(p);
    }
    bundles_.push_back(bu);
  }
}

void Network::finalize() {
  if (finalized()) return;
  if (hosts_.empty()) throw InvalidArgument("network: no hosts");
  if (nodes_.size() * hosts_.size() >= kLands)   // routing rows fit in 32 bits below kLands
    throw InvalidArgument("network: too many nodes and hosts");
  std::vector<NodeId> host_nodes;
  for (const Host& h : hosts_) host_nodes.push_back(h.node);
  const auto hops = detail::compute_next_hops(nodes_, bundles_, host_nodes,
                                              static_cast<double>(config_.framing.wire_per_frame()));
  next_begin_ = hops.begin;
  next_bundles_ = hops.bundles;
  // Most hops have a single bundle of a single port: note it so routing needs no hashing.
  next_port_.assign(next_begin_.size() - 1, kChoose);
  for (std::size_t cell = 0; cell + 1 < next_begin_.size(); ++cell) {
    if (next_begin_[cell + 1] - next_begin_[cell] != 1) continue;
    const Bundle& b = bundles_[next_bundles_[next_begin_[cell]]];
    if (b.active == 1) next_port_[cell] = b.first_port;
  }
  const auto row = [&](NodeId node) { return static_cast<std::uint32_t>(node * hosts_.size()); };
  for (Host& h : hosts_) h.row = row(h.node);
  for (Port& p : ports_) {
    const NodeId to = bundles_[p.bundle].to;
    p.row = nodes_[to].host >= 0 ? kLands : row(to);
  }
  routed_hosts_ = hosts_.size();
  stats_since_ = engine_.now();
}

// A hop with a choice of ports: the flow hash picks a bundle among the shortest paths, then
// a port of that bundle.
std::uint32_t Network::choose_port(std::size_t cell, std::uint64_t flow) const {
  const std::uint64_t at = cell / hosts_.size();   // the node
  const std::uint32_t begin = next_begin_[cell];
  const std::uint32_t count = next_begin_[cell + 1] - begin;
  const Bundle& b =
      bundles_[next_bundles_[begin + (count == 1 ? 0 : mix(flow ^ (at << 40)) % count)]];
  return b.first_port + (b.active == 1 ? 0u : static_cast<std::uint32_t>(mix(flow) % b.active));
}

// The argument checks of send(), in the order they are made, for the rare bad call.
void Network::reject_send(int src, int dst, Bytes payload) const {
  if (!finalized()) throw InvalidArgument("network: send() before finalize()");
  check::in_range(src, 0, hosts() - 1, "network send source host");
  check::in_range(dst, 0, hosts() - 1, "network send destination host");
  check::fail("network send payload bytes", payload.count(), "a size >= 0");
}

void Network::send(std::uint64_t token, int src, int dst, Bytes payload, std::uint64_t flow) {
  // One test for all the argument checks (a negative host index wraps to a huge one, and
  // before finalize() no index is below routed_hosts_).
  if (static_cast<std::size_t>(src) >= routed_hosts_ || static_cast<std::size_t>(dst) >= routed_hosts_ ||
      payload.count() < 0)
    reject_send(src, dst, payload);
  // A free slot (the one freed last), or a new one.
  std::uint32_t slot = free_message_;
  if (slot != kNone) {
    free_message_ = messages_[slot].next_free;
  } else {
    slot = static_cast<std::uint32_t>(messages_.size());
    messages_.emplace_back();
  }
  ++in_flight_;
  Message& m = messages_[slot];
  m.token = token;
  m.flow = flow;
  m.to_inject = payload.count();
  m.dst = static_cast<std::uint32_t>(dst);
  Host& from = hosts_[static_cast<std::size_t>(src)];
  if (src == dst) {
    from.local += payload.count();
    engine_.schedule_after(Time::zero(), *this, kLocal, slot);
    return;
  }
  m.first_port = pick_port(from.row, m.dst, flow);
  // The first segment reserves the first port now, for a start after the sender's NIC
  // latency: every send of a host has the same latency, so reservations stay in time order
  // and no event is needed for it.
  inject(slot, engine_.now() + from.nic_latency);
}

// The next segment of a message enters the first port at `at` (>= now). Inlined into its
// two callers (send and on_event), which saves a call per message.
[[gnu::always_inline]] inline void Network::inject(std::uint32_t message, Time at) {
  Message& m = messages_[message];
  const std::int64_t payload = std::min(m.to_inject, segment_payload_);
  m.to_inject -= payload;
  const bool last = m.to_inject == 0;
  if (last) {
    m.last_payload = payload;
    m.last_wire = wire_bytes(payload);
  }
  const Time first_finish = transmit(message, m.first_port, last, at);
  if (!last) engine_.schedule_at(first_finish, *this, kInject, message);
}

// A segment of `message` enters `port` at `at`: reserve the port, then hand the segment to
// the next node at the pipelined time (network.hpp). Inlined into its two callers (inject
// and on_event), which saves a call per hop.
[[gnu::always_inline]] inline Time Network::transmit(std::uint32_t message, std::uint32_t port, bool last, Time at) {
  Port& p = ports_[port];
  const Message& m = messages_[message];
  const std::int64_t wire = last ? m.last_wire : segment_wire_;
  // Full segments use the serialisation time rounded once per port (the same figure).
  const Time serial = last ? Time::round_ns(static_cast<double>(wire) * p.ns_per_byte) : p.full_segment;
  const Time start = std::max(at, p.free_at);
  const Time finish = start + serial;
  p.free_at = finish;
  p.busy += serial;
  p.wire += wire;
  p.payload += payload_of(m, last);
  if (p.row == kLands) {
    Time land = finish + p.land;
    const Host& h = hosts_[m.dst];
    if (h.rx_count != 0 && !h.rx_at_landing) land = received(m, last, land);
    engine_.schedule_at(land, *this, kLanded, segment_arg(message, 0, last));
    return finish;
  }
  const std::uint32_t next = pick_port(p.row, m.dst, m.flow);
  // max(start + frame here, finish + frame next - serial next): for a segment of one frame
  // (or less) the frame is the whole segment, so it is finish (store-and-forward).
  Time enter = finish;
  if (wire > wire_per_frame_) {
    const Port& q = ports_[next];
    const Time next_serial = last ? Time::round_ns(static_cast<double>(wire) * q.ns_per_byte) : q.full_segment;
    enter = std::max(start + p.frame, finish + q.frame - next_serial);
  }
  engine_.schedule_at(enter + p.hop, *this, kArrive, segment_arg(message, next, last));
  return finish;
}

Time Network::received(const Message& m, bool last, Time land) {
  const Host& h = hosts_[m.dst];
  RxQueue& q = rx_[h.rx_first + (h.rx_count == 1 ? 0 : static_cast<std::uint32_t>(mix(m.flow) % h.rx_count))];
  const Time service = Time::round_ns(static_cast<double>(payload_of(m, last)) * h.rx_ns_per_byte);
  // Interrupt moderation (network.hpp). A queue whose thread is still busy (a segment that
  // lands while an earlier one waits for its interrupt counts: it is reserved behind it)
  // polls the segment up when it gets to it. An idle one needs an interrupt: one raised at
  // this very instant (a zero-length service) is joined, else one is raised now if the last
  // is at least an interval old, else the one an interval after the last is waited for.
  Time start = q.free_at;
  if (land >= q.free_at) {
    if (land > q.last_interrupt) q.last_interrupt = std::max(land, q.last_interrupt + h.rx_interrupt);
    start = q.last_interrupt;
  }
  q.free_at = start + service;
  q.busy += service;
  return q.free_at;
}

// A segment has fully arrived (and been through its receive queue). Segments of a message
// take one path of FIFO ports and each enters every port no earlier than the one before it,
// so they land in order, and they share a queue: the message is delivered when its last
// segment lands. A host with several ports into it reserves its queue here, as the segment
// lands, and lands it again when the queue is done.
void Network::landed(std::uint32_t message, bool last, bool queued) {
  Message& m = messages_[message];
  if (!queued && hosts_[m.dst].rx_at_landing) {
    const Time done = received(m, last, engine_.now());
    engine_.schedule_at(done, *this, kReceived, segment_arg(message, 0, last));
    return;
  }
  hosts_[m.dst].rx += payload_of(m, last);
  if (last) deliver(message);
}

// Frees the message's slot, then tells the client.
void Network::deliver(std::uint32_t message) {
  Message& m = messages_[message];
  m.next_free = free_message_;
  free_message_ = message;
  --in_flight_;
  client_.on_delivered(*this, m.token);
}

// The two events that reserve a port, out of line: on_event() itself then needs few
// registers, which the landing (every message's last event) does not have to save.
void Network::inject_now(std::uint32_t message) { inject(message, engine_.now()); }
void Network::arrive(std::uint64_t arg) {
  const auto port = static_cast<std::uint32_t>((arg & ~kLastBit) >> 32);
  transmit(static_cast<std::uint32_t>(arg), port, (arg & kLastBit) != 0, engine_.now());
}

void Network::on_event(Engine&, EventTag tag, std::uint64_t arg) {
  const auto message = static_cast<std::uint32_t>(arg);
  const bool last = (arg & kLastBit) != 0;
  // The two events of every message first (a switch compiles to a compare tree).
  if (tag == kArrive) arrive(arg);
  else if (tag == kLanded) landed(message, last, false);
  else if (tag == kInject) inject_now(message);
  else if (tag == kLocal) deliver(message);
  else if (tag == kReceived) landed(message, last, true);
}

// A host's ports carry only what it sends (routes never pass through a host) and count a
// segment's payload when it is injected, so their sum is what the host sent.
Bytes Network::tx_payload(int host) const {
  const NodeId node = hosts_[host_index(host)].node;
  std::int64_t sent = 0;
  for (const Port& p : ports_)
    if (bundles_[p.bundle].from == node) sent += p.payload;
  return Bytes{sent};
}
Bytes Network::rx_payload(int host) const { return Bytes{hosts_[host_index(host)].rx}; }
Bytes Network::local_payload(int host) const { return Bytes{hosts_[host_index(host)].local}; }

std::vector<PortReport> Network::ports() const {
  std::vector<PortReport> out;
  const double elapsed = static_cast<double>((engine_.now() - stats_since_).count_ns());
  for (const Port& p : ports_) {
    const Bundle& b = bundles_[p.bundle];
    PortReport r;
    r.from = nodes_[b.from].name;
    r.to = nodes_[b.to].name;
    r.gbps = 8.0 / p.ns_per_byte;
    // Busy time counts whole reservations, including any that run past now().
    r.utilisation = elapsed > 0 ? std::min(1.0, static_cast<double>(p.busy.count_ns()) / elapsed) : 0.0;
    r.wire_bytes = Bytes{p.wire};
    r.payload_bytes = Bytes{p.payload};
    out.push_back(r);
  }
  return out;
}

std::vector<std::string> Network::path(int src, int dst, std::uint64_t flow) const {
  if (!finalized()) throw InvalidArgument("network: path() before finalize()");
  check::in_range(src, 0, hosts() - 1, "network path source host");
  check::in_range(dst, 0, hosts() - 1, "network path destination host");
  NodeId at = hosts_[static_cast<std::size_t>(src)].node;
  const NodeId target = hosts_[static_cast<std::size_t>(dst)].node;
  std::vector<std::string> out{nodes_[at].name};
  while (at != target) {
    const auto row = static_cast<std::uint32_t>(at * hosts_.size());
    at = bundles_[ports_[pick_port(row, static_cast<std::uint32_t>(dst), flow)].bundle].to;
    out.push_back(nodes_[at].name);
  }
  return out;
}

void Network::reset_stats() {
  for (Port& p : ports_) {
    // Keep the part of a running reservation that lies in the future.
    p.busy = p.free_at > engine_.now() ? p.free_at - engine_.now() : Time::zero();
    p.wire = 0;
    p.payload = 0;
  }
  for (Host& h : hosts_) h.rx = h.local = 0;
  for (RxQueue& q : rx_) q.busy = q.free_at > engine_.now() ? q.free_at - engine_.now() : Time::zero();
  stats_since_ = engine_.now();
}

}  // namespace hcisim
