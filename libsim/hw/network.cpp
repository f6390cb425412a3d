// Network transfers: segment pipelining over FIFO ports (see network.hpp for the model).
#include "hcisim/hw/network.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "hcisim/core/check.hpp"
#include "hcisim/core/slot_pool.hpp"
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
}

int Network::add_host(const std::string& name, const NicSpec& nic, int active_ports, Teaming teaming) {
  if (finalized_) throw InvalidArgument("network: add_host('" + name + "') after finalize()");
  nic.validate();
  check::in_range(active_ports, 1, nic.ports, "host '" + name + "' active NIC ports");
  if (teaming == Teaming::failover && active_ports != 1)
    check::fail("host '" + name + "' active NIC ports", active_ports,
                "1 with failover teaming (vSAN's single vmknic uses one port; use LACP to spread flows)");
  Node node;
  node.name = name;
  node.host = static_cast<int>(host_nodes_.size());
  node.latency_us = nic.latency_us;
  node.max_gbps = nic.speed_gbps;
  node.max_lanes = active_ports;
  node.teaming = teaming;
  host_nodes_.push_back(static_cast<NodeId>(nodes_.size()));
  nodes_.push_back(node);
  tx_.push_back(0);
  rx_.push_back(0);
  local_.push_back(0);
  return node.host;
}

Network::NodeId Network::add_switch(const std::string& name, const SwitchSpec& spec) {
  if (finalized_) throw InvalidArgument("network: add_switch('" + name + "') after finalize()");
  spec.validate();
  Node node;
  node.name = name;
  node.latency_us = spec.latency_us;
  node.max_gbps = std::numeric_limits<double>::infinity();   // uplink ports may be faster
  node.max_lanes = spec.ports;
  nodes_.push_back(node);
  return static_cast<NodeId>(nodes_.size() - 1);
}

std::size_t Network::host_index(int host) const {
  return static_cast<std::size_t>(check::in_range(host, 0, hosts() - 1, "network host index"));
}

Network::NodeId Network::host_node(int host) const { return host_nodes_[host_index(host)]; }

void Network::connect(NodeId a, NodeId b, double gbps, int lanes) {
  if (finalized_) throw InvalidArgument("network: connect() after finalize()");
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
      p.to = to;
      p.hop = Time::round_ns(bu.hop_latency_ns);
      ports_.push_back(p);
    }
    bundles_.push_back(bu);
  }
}

void Network::finalize() {
  if (finalized_) return;
  if (host_nodes_.empty()) throw InvalidArgument("network: no hosts");
  const auto hops = detail::compute_next_hops(nodes_, bundles_, host_nodes_,
                                              static_cast<double>(config_.framing.wire_per_frame()));
  next_begin_ = hops.begin;
  next_bundles_ = hops.bundles;
  nic_latency_.clear();
  for (const Node& n : nodes_) nic_latency_.push_back(Time::round_ns(n.latency_us * 1e3));
  finalized_ = true;
  stats_since_ = engine_.now();
}

std::uint32_t Network::pick_port(NodeId at, std::uint32_t dst_host, std::uint64_t flow) const {
  const std::size_t cell = static_cast<std::size_t>(at) * host_nodes_.size() + dst_host;
  const std::uint32_t begin = next_begin_[cell];
  const std::uint32_t count = next_begin_[cell + 1] - begin;
  // The hashes only where there is a choice (most hops have one bundle of one port).
  const Bundle& b =
      bundles_[next_bundles_[begin + (count == 1 ? 0 : mix(flow ^ (static_cast<std::uint64_t>(at) << 40)) % count)]];
  return b.first_port + (b.active == 1 ? 0u : static_cast<std::uint32_t>(mix(flow) % b.active));
}

void Network::send(std::uint64_t token, int src, int dst, Bytes payload, std::uint64_t flow) {
  if (!finalized_) throw InvalidArgument("network: send() before finalize()");
  check::in_range(src, 0, hosts() - 1, "network send source host");
  check::in_range(dst, 0, hosts() - 1, "network send destination host");
  if (payload.count() < 0) check::fail("network send payload bytes", payload.count(), "a size >= 0");
  const Message m{token,
                  flow,
                  payload.count(),
                  0,
                  static_cast<std::uint32_t>(src),
                  static_cast<std::uint32_t>(dst),
                  host_nodes_[static_cast<std::size_t>(dst)]};
  const std::uint32_t slot = take_slot(messages_, free_messages_, m);
  if (src == dst) {
    local_[static_cast<std::size_t>(src)] += payload.count();
    engine_.schedule_after(Time::zero(), *this, kLocal, slot);
    return;
  }
  // The first segment reserves the first port now, for a start after the sender's NIC
  // latency: every send of a host has the same latency, so reservations stay in time order
  // and no event is needed for it.
  inject(slot, engine_.now() + nic_latency_[host_nodes_[static_cast<std::size_t>(src)]]);
}

// The next segment of a message enters the first port at `at` (>= now).
void Network::inject(std::uint32_t message, Time at) {
  Message& m = messages_[message];
  const std::int64_t payload = std::min<std::int64_t>(m.to_inject, config_.segment.count());
  m.to_inject -= payload;
  ++m.segments_in_flight;
  const Segment s{message, pick_port(host_nodes_[m.src], m.dst, m.flow), payload,
                  wire_bytes(payload)};
  const std::uint32_t seg = take_slot(segments_, free_segments_, s);
  tx_[m.src] += payload;
  const Time first_finish = transmit(seg, at);
  if (m.to_inject > 0) engine_.schedule_at(first_finish, *this, kInject, message);
}

// A segment enters port segments_[seg].port at `at`: reserve the port, then hand the segment
// to the next node at the pipelined time (network.hpp).
Time Network::transmit(std::uint32_t seg, Time at) {
  Segment& s = segments_[seg];
  Port& p = ports_[s.port];
  const Time serial = Time::round_ns(static_cast<double>(s.wire) * p.ns_per_byte);
  const Time start = std::max(at, p.free_at);
  const Time finish = start + serial;
  p.free_at = finish;
  p.busy += serial;
  p.wire += s.wire;
  p.payload += s.payload;
  const Message& m = messages_[s.message];
  if (p.to == m.dst_node) {
    engine_.schedule_at(finish + p.hop + nic_latency_[p.to], *this, kLanded, seg);
    return finish;
  }
  const std::uint32_t next = pick_port(p.to, m.dst, m.flow);
  const Port& q = ports_[next];
  const Time next_serial = Time::round_ns(static_cast<double>(s.wire) * q.ns_per_byte);
  const Time enter = std::max(start + frame_time(p, s.wire), finish + frame_time(q, s.wire) - next_serial) + p.hop;
  s.port = next;
  engine_.schedule_at(enter, *this, kArrive, seg);
  return finish;
}

void Network::landed(std::uint32_t seg) {
  const std::uint32_t message = segments_[seg].message;
  Message& m = messages_[message];
  rx_[m.dst] += segments_[seg].payload;
  free_segments_.push_back(seg);
  if (--m.segments_in_flight == 0 && m.to_inject == 0) {
    free_messages_.push_back(message);
    client_.on_delivered(*this, m.token);
  }
}

void Network::on_event(Engine&, EventTag tag, std::uint64_t arg) {
  const auto slot = static_cast<std::uint32_t>(arg);
  switch (tag) {
    case kInject: inject(slot, engine_.now()); break;
    case kArrive: transmit(slot, engine_.now()); break;
    case kLanded: landed(slot); break;
    case kLocal:
      free_messages_.push_back(slot);
      client_.on_delivered(*this, messages_[slot].token);
      break;
    default: break;
  }
}

Bytes Network::tx_payload(int host) const { return Bytes{tx_[host_index(host)]}; }
Bytes Network::rx_payload(int host) const { return Bytes{rx_[host_index(host)]}; }
Bytes Network::local_payload(int host) const { return Bytes{local_[host_index(host)]}; }

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
  if (!finalized_) throw InvalidArgument("network: path() before finalize()");
  check::in_range(src, 0, hosts() - 1, "network path source host");
  check::in_range(dst, 0, hosts() - 1, "network path destination host");
  std::vector<std::string> out{nodes_[host_nodes_[static_cast<std::size_t>(src)]].name};
  NodeId at = host_nodes_[static_cast<std::size_t>(src)];
  const NodeId target = host_nodes_[static_cast<std::size_t>(dst)];
  while (at != target) {
    at = bundles_[ports_[pick_port(at, static_cast<std::uint32_t>(dst), flow)].bundle].to;
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
  std::fill(tx_.begin(), tx_.end(), 0);
  std::fill(rx_.begin(), rx_.end(), 0);
  std::fill(local_.begin(), local_.end(), 0);
  stats_since_ = engine_.now();
}

}  // namespace hcisim
