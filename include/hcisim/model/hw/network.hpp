// The cluster network: hosts with NIC ports, switches and full-duplex links, and the
// transfers that cross them.
//
// Topology: nodes (hosts, switches) joined by bundles of parallel links (one link = one
// cable, two directed ports). Routes are shortest paths by unloaded hop latency, computed
// once with Boost.Graph (Dijkstra per destination); where several next hops tie (leaf-spine
// with several spines, a LAG) a flow hash picks one, so one flow keeps one path (ECMP).
// Hosts never forward traffic for other hosts.
//
// Transfers move as segments of at most NetworkConfig::segment payload bytes, never per
// packet. Each directed port is a FIFO server with infinite buffer: a segment occupies it
// for its wire bytes (Framing, hw/network_spec.hpp) at line rate. Segments are pipelined across hops at frame
// granularity (a switch forwards a frame once it has received it), so a segment of w wire
// bytes enters the next port at
//     max(start + frame_here, finish + frame_next - serial_next) + hop latency
// i.e. one frame behind the head, or late enough that the next port cannot finish before the
// tail has arrived. A single frame is thus store-and-forward at every hop, a long transfer
// runs at the slowest port's rate. Hop latency = cable propagation + the switch's
// port-to-port latency when the next node is a switch. The sender adds its NIC latency
// before the first port and the receiver its NIC latency after the last segment.
// A message injects its next segment only when the previous one has left the first port, so
// concurrent flows interleave segment by segment and share a bottleneck evenly.
// A transfer between a host and itself never touches the network (local I/O).
//
// Receive queues (set_receive): a host's NIC hands what lands to its receive queues, each
// served by one thread (ESXi's NetQueue: "each queue gets its own ESXi thread for packet
// processing. One ESXi thread represents a CPU core", N. Hagoort, "RSS", nielshagoort.com [S68]).
// A vmknic has one MAC address, so NetQueue's MAC filter gives the vSAN vmknic one queue; RSS
// spreads its flows over several by hash ("without RSS, receiving ESXi hosts only use one
// physical queue and hence one lcore"; "most NIC cards support at least 4 queues", VMware
// NSX 3.2 administration guide [S69], Receive Side Scaling). A segment that lands waits for its
// flow's queue and occupies it for its payload at the host's receive cost per byte; the
// message is delivered when its last segment has been through. For a host with one port
// into it the queue is reserved when the segment is put on that last link, in the order the
// port sends them, which is landing order: no extra event, the landing event fires at the
// queue's finish. A host with several ports into it (a team, several direct lanes) reserves
// the queue as each segment lands, with one more event, so its segments too are served in
// landing order.
//
// Receive interrupt moderation (NicSpec::rx_interrupt_us): a receive queue raises at most one
// interrupt per interval T, the driver's default throttle (Intel's ITR: "how many interrupts
// each interrupt vector can generate per second"; Intel X520 adapter user guide). A segment
// that lands while the queue's thread is busy is polled up when the thread gets to it, with
// no interrupt (NAPI-style polling keeps going while there is work). One that lands on an
// idle queue raises an interrupt at once if the last is at least T old, else waits for the
// interrupt T after the last, with whatever else lands until then. So a ping at low rate
// sees the bare NIC latency, a saturated queue sees none of T, and a lightly loaded queue
// that receives more often than every T waits up to T (how much on average depends on how
// the landings fall). Broadcom's and Mellanox's drivers coalesce by a timer started at the
// first completion rather than by a minimum gap; the model treats them alike (ASSUMED), so
// for those NICs a lone packet may wait up to T more than modelled. The interrupt time is
// computed when the queue is reserved, in landing order: no extra event.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "hcisim/model/core/engine.hpp"
#include "hcisim/core/units.hpp"
#include "hcisim/hw/network_spec.hpp"

namespace hcisim {

class Network;

/// Told when a transfer has fully arrived at its destination host.
class NetworkClient {
 public:
  virtual void on_delivered(Network& network, std::uint64_t token) = 0;

 protected:
  NetworkClient() = default;
  NetworkClient(const NetworkClient&) = default;
  NetworkClient& operator=(const NetworkClient&) = default;
  ~NetworkClient() = default;
};

/// One directed port (one side of one cable), for reports and tests.
struct PortReport {
  std::string from;
  std::string to;
  double gbps = 0;
  double utilisation = 0;      // busy fraction since the last reset
  Bytes wire_bytes;            // bytes on the wire since the last reset
  Bytes payload_bytes;
};

class Network final : public EventHandler {
 public:
  using NodeId = std::uint32_t;

  Network(Engine& engine, const NetworkConfig& config, NetworkClient& client);

  /// A host and its NIC; `active_ports` of the NIC's ports carry vSAN traffic under
  /// `teaming` (failover: exactly 1). Returns the host index (0, 1, ... in call order).
  int add_host(const std::string& name, const NicSpec& nic, int active_ports = 1,
               Teaming teaming = Teaming::failover);
  NodeId add_switch(const std::string& name, const SwitchSpec& spec);
  NodeId host_node(int host) const;

  /// `lanes` parallel full-duplex links of `gbps` between a and b (a NIC team or a LAG).
  void connect(NodeId a, NodeId b, double gbps, int lanes = 1);

  /// `queues` receive queues at `host` (see the file comment), each a thread that takes
  /// `ns_per_byte` of payload; 0 queues (the default) or a cost of 0: delivery as the last
  /// byte lands. Call after finalize() and before the first send().
  void set_receive(int host, int queues, double ns_per_byte);
  int receive_queues(int host) const { return static_cast<int>(hosts_[host_index(host)].rx_count); }
  /// Thread time the host's receive queues spent since the last reset.
  Time receive_busy(int host) const;
  /// Busy fraction of each of the host's receive queues since the last reset, and the
  /// busiest one's (at most 1).
  std::vector<double> receive_queue_utilisation(int host) const;
  double receive_utilisation_max(int host) const;

  /// Computes routes; throws InvalidArgument if a host cannot reach another. Call once,
  /// after the topology is complete and before send().
  void finalize();

  /// Moves `payload` bytes from host `src` to host `dst`; `flow` identifies the flow for
  /// path and team-port selection. on_delivered(token) fires when the last byte arrived.
  void send(std::uint64_t token, int src, int dst, Bytes payload, std::uint64_t flow);

  int hosts() const { return static_cast<int>(hosts_.size()); }
  const Framing& framing() const { return config_.framing; }
  /// Payload bytes a host sent to / received from other hosts since the last reset.
  Bytes tx_payload(int host) const;
  Bytes rx_payload(int host) const;
  /// Payload bytes a host moved to itself (no network) since the last reset.
  Bytes local_payload(int host) const;
  std::vector<PortReport> ports() const;
  /// Node names along the path a flow takes, source first.
  std::vector<std::string> path(int src, int dst, std::uint64_t flow) const;
  std::size_t in_flight() const { return in_flight_; }
  void reset_stats();

  void on_event(Engine& engine, EventTag tag, std::uint64_t arg) override;

  // --- internal representation, shared with the route computation (network_routes.cpp) ---
  struct Node {
    std::string name;
    int host = -1;                // host index, or -1 for a switch
    double latency_us = 0;        // NIC latency (host) or port-to-port latency (switch)
    double max_gbps = 0;
    int max_lanes = 0;            // NIC ports usable (host); unlimited for a switch
    Teaming teaming = Teaming::lacp;
  };
  struct Bundle {
    NodeId from = 0;
    NodeId to = 0;
    std::uint32_t first_port = 0; // ports [first_port, first_port + active)
    std::uint32_t active = 1;
    double hop_latency_ns = 0;    // cable + switch latency at `to`
    double ns_per_byte = 0;
  };

 private:
  struct Port {
    double ns_per_byte = 0;
    Time free_at;
    Time busy;
    std::int64_t wire = 0;
    std::int64_t payload = 0;
    std::uint32_t bundle = 0;
    // Routing row of the far end (its node index times the hosts, set by finalize()), or
    // kLands when the far end is a host: routes never pass through a host, so a segment
    // entering this port is bound for that host.
    std::uint32_t row = 0;
    Time hop;                     // the bundle's hop latency, rounded once
    Time land;                    // hop + the receiving NIC's latency when the far end is a host
    Time frame;                   // serialisation time of one full frame, rounded once
    Time full_segment;            // serialisation time of a full segment, rounded once
  };
  struct Host {
    NodeId node = 0;
    std::uint32_t row = 0;        // routing row of the host's node (set by finalize())
    Time nic_latency;             // rounded once
    std::int64_t rx = 0;          // payload bytes since the last reset: received, local (what
                                  // a host sent is counted by its ports)
    std::int64_t local = 0;
    std::uint32_t rx_first = 0;   // its receive queues: rx_[rx_first, rx_first + rx_count)
    std::uint32_t rx_count = 0;
    double rx_ns_per_byte = 0;
    Time rx_interrupt;            // interrupt moderation interval (rounded once; 0: none)
    bool rx_at_landing = false;   // several ports into the host: reserve the queue at landing
  };
  struct RxQueue {
    Time free_at;
    Time last_interrupt = Time::ns(std::numeric_limits<std::int64_t>::min() / 2);
    Time busy;                    // reserved since the last reset, including work ahead of now
    Time done_by(Time now) const; // busy without the work still ahead
  };
  // A transfer. Its segments carry config_.segment payload bytes each except the last one,
  // which carries the rest (all of it for a message of one segment, the common case), so a
  // segment in flight is named by its message, the port it enters and whether it is the last.
  // One cache line each (52 bytes of fields): indexing is a shift.
  struct alignas(64) Message {
    std::uint64_t token;
    std::uint64_t flow;
    std::int64_t to_inject;       // payload bytes not yet handed to the first port
    std::int64_t last_payload;    // the last segment's payload and wire bytes, set when it
    std::int64_t last_wire;       // is injected
    std::uint32_t dst;
    std::uint32_t first_port;     // every segment of a flow takes the same path
    std::uint32_t next_free;      // while the slot is free: the next free slot, or kNone
  };
  enum Tag : EventTag { kInject = 1, kArrive = 2, kLanded = 3, kLocal = 4, kReceived = 5 };
  // Event argument of a segment: message slot (bits 0-31), the port it enters (bits 32-62;
  // unused at landing) and whether it is the message's last segment (bit 63).
  static constexpr std::uint64_t kLastBit = std::uint64_t{1} << 63;
  static std::uint64_t segment_arg(std::uint32_t message, std::uint32_t port, bool last) {
    return message | (static_cast<std::uint64_t>(port) << 32) | (last ? kLastBit : 0);
  }
  // next_port_ entry when the hop has a choice of ports (several bundles or ports).
  static constexpr std::uint32_t kChoose = 0xFFFFFFFFu;
  static constexpr std::uint32_t kLands = 0xFFFFFFFFu;  // Port::row of a port into a host
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;   // end of the free message slots

  bool finalized() const { return routed_hosts_ != 0; }   // finalize() needs a host
  std::size_t host_index(int host) const;
  [[noreturn]] void reject_send(int src, int dst, Bytes payload) const;
  // The port that a flow to `dst_host` takes out of the node whose routing row is `row`
  // (node index times the hosts: its cells in next_port_ and next_begin_).
  std::uint32_t pick_port(std::uint32_t row, std::uint32_t dst_host, std::uint64_t flow) const {
    const std::uint32_t port = next_port_[std::size_t{row} + dst_host];
    return port != kChoose ? port : choose_port(std::size_t{row} + dst_host, flow);
  }
  std::uint32_t choose_port(std::size_t cell, std::uint64_t flow) const;
  void inject(std::uint32_t message, Time at);
  // Returns when the segment leaves the port it enters.
  Time transmit(std::uint32_t message, std::uint32_t port, bool last, Time at);
  [[gnu::noinline]] void inject_now(std::uint32_t message);
  [[gnu::noinline]] void arrive(std::uint64_t arg);
  void landed(std::uint32_t message, bool last, bool queued);
  // When the segment landing at `land` has been through its flow's receive queue.
  Time received(const Message& m, bool last, Time land);
  // The payload of a message's segment: a full segment's, or the rest for the last one.
  std::int64_t payload_of(const Message& m, bool last) const { return last ? m.last_payload : segment_payload_; }
  void deliver(std::uint32_t message);
  // Framing::wire_bytes with the per-frame figures computed once.
  std::int64_t wire_bytes(std::int64_t payload) const {
    return framed_wire_bytes(payload, payload_per_frame_, wire_per_frame_);
  }

  Engine& engine_;
  NetworkConfig config_;
  NetworkClient& client_;
  std::int64_t payload_per_frame_ = 0;   // config_.framing's figures, fixed for the run
  std::int64_t wire_per_frame_ = 0;
  std::int64_t segment_payload_ = 0;     // payload and wire bytes of a full segment
  std::int64_t segment_wire_ = 0;        // (config_.segment), fixed for the run
  std::vector<Node> nodes_;
  std::vector<Bundle> bundles_;
  std::vector<Port> ports_;
  std::vector<Host> hosts_;
  std::vector<RxQueue> rx_;
  // next_[node * hosts + dst] = [begin, end) in next_bundles_: bundles on a shortest path.
  std::vector<std::uint32_t> next_begin_;
  std::vector<std::uint32_t> next_bundles_;
  // next_port_[node * hosts + dst]: the port when the hop has a single one, else kChoose.
  std::vector<std::uint32_t> next_port_;
  std::size_t routed_hosts_ = 0;   // the hosts once finalize() has computed routes, 0 before
  std::vector<Message> messages_;
  // First free slot of messages_, the rest chained through Message::next_free (a vector of
  // free indices, as take_slot() keeps, costs about 70 more instructions per simulated I/O).
  std::uint32_t free_message_ = kNone;
  std::size_t in_flight_ = 0;
  Time stats_since_;
};

}  // namespace hcisim
