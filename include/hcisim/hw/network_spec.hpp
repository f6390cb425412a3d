// What network parts are, in datasheet terms, and how a cluster's network is laid out: NICs
// (port speed, ports, per-side stack latency), switches (port-to-port latency), how a host
// uses its NIC ports (teaming), Ethernet framing, and the fabric (direct cabling, one switch,
// leaf-spine). Plain data; the simulated network is model/hw/network.hpp.
//
// Ethernet framing: how many wire bytes a payload costs, so goodput sits below line rate.
//
// Per frame on the wire, outside the MTU: preamble + SFD 8 B, MAC header 14 B, FCS 4 B and
// the minimum inter-frame gap 12 B = 38 B (IEEE 802.3 clause 3-4).
// Inside the MTU, per transport:
//   tcp : IPv4 header 20 B + TCP header 20 B + timestamp option 12 B (Linux/ESXi default,
//         RFC 7323 [S149]) = 52 B, so MSS = MTU - 52 payload bytes per frame;
//   rdma: RoCE v2 = IPv4 20 + UDP 8 + InfiniBand BTH 12 + ICRC 4 = 44 B; the RDMA path MTU
//         is the largest of 256/512/1024/2048/4096 B that fits MTU - 44 (IBTA spec).
// Goodput fraction = payload per frame / (MTU-payload headers + payload + 38). Worked out:
//   tcp  MTU 1500: 1448 / 1538 = 94.15 %;   MTU 9000: 8948 / 9038 = 99.00 %
//   rdma MTU 1500: 1024 / 1106 = 92.59 %;   MTU 9000: 4096 / 4178 = 98.04 %
// A 10 GbE port therefore carries at most 10e9/8 x 0.9415 = 1176.9 MB/s of TCP payload
// at MTU 1500.
#pragma once

#include <cstdint>
#include <string>

#include "hcisim/core/units.hpp"

namespace hcisim {

enum class Transport : std::uint8_t { tcp, rdma };

/// Wire bytes of a message of `payload` bytes cut into frames that carry
/// `payload_per_frame` bytes and cost `wire_per_frame` on the wire when full (at least one
/// frame, even for 0 bytes).
constexpr std::int64_t framed_wire_bytes(std::int64_t payload, std::int64_t payload_per_frame,
                                         std::int64_t wire_per_frame) {
  const std::int64_t frames = payload <= 0 ? 1 : (payload + payload_per_frame - 1) / payload_per_frame;
  return payload + frames * (wire_per_frame - payload_per_frame);
}

struct Framing {
  int mtu = 1500;                   // bytes, IP MTU of the vSAN vmknic (1500 or 9000)
  Transport transport = Transport::tcp;

  static constexpr std::int64_t kEthernetOverhead = 38;   // preamble+SFD, MAC, FCS, IFG

  /// Throws InvalidArgument unless 576 <= mtu <= 9216.
  void validate() const;
  /// Payload bytes carried by one full frame.
  std::int64_t payload_per_frame() const;
  /// Wire bytes of one full frame (payload + all headers + preamble + gap).
  std::int64_t wire_per_frame() const;
  /// Wire bytes of a message of `payload` bytes (at least one frame, even for 0 bytes).
  Bytes wire_bytes(Bytes payload) const;
  /// payload_per_frame / wire_per_frame.
  double goodput_fraction() const;
};

struct NicSpec {
  std::string name;             // catalog name, e.g. "intel-x520-da1"
  double speed_gbps = 0;        // line rate of one port
  int ports = 1;                // ports on the card
  double latency_us = 0;        // NIC + driver + stack latency per message, per side
  // Receive interrupt moderation: the shortest time between two interrupts of one receive
  // queue (the driver's default; 0 = an interrupt per packet). What lands in between waits
  // for the next interrupt (network.hpp).
  double rx_interrupt_us = 0;
  bool rdma = false;            // RoCE v2 capable
  std::string source;

  /// Throws InvalidArgument naming the NIC and the first bad figure.
  void validate() const;
  /// The NIC a scenario gets when it names none ("generic-nic", unpriced): two ports of
  /// `speed_gbps`, 5 us per side (a typical server NIC and stack) and receive interrupts at
  /// most every 50 us (Intel's default throttle of 20,000 a second; the catalog's drivers
  /// default to 10-50 us: data/nics.csv notes).
  static NicSpec generic(double speed_gbps);
};

struct SwitchSpec {
  std::string name;             // catalog name, e.g. "dell-s5248f-on"
  int ports = 0;
  double port_speed_gbps = 0;
  double latency_us = 0;        // port-to-port forwarding latency
  bool cut_through = true;
  double buffer_mb = 0;
  std::string source;

  void validate() const;

  /// The catalog switch (data/switches.csv) a cluster gets when it names none: a common
  /// data-centre top-of-rack model of the links' speed, Dell S4048-ON up to 10 GbE, S5248F-ON
  /// up to 25 and S5232F-ON above; the spines of a leaf-spine fabric are the last.
  static const char* default_name(double link_gbps);
  static const char* default_spine_name() { return "dell-s5232f-on"; }
};

/// How a host's NIC ports carry vSAN traffic. vSAN uses one vmknic: with port-ID
/// ("failover") teaming only one port is active; LACP (or IP hash) spreads flows over the
/// active ports by hash, one flow never spans two ports (docs/sources.md [S29] [S65]).
enum class Teaming { failover, lacp };

/// Line rate of `gbps` (decimal Gbit/s) must be one the model knows: 1, 2.5, 5, 10, 25,
/// 40, 50, 100, 200 or 400. Throws InvalidArgument naming `what`.
void validate_link_speed(double gbps, const std::string& what);

struct NetworkConfig {
  Framing framing;
  Bytes segment = Bytes{64 * 1024};   // largest payload moved as one unit
  double cable_latency_us = 0.05;     // propagation per link: ~10 m at ~5 ns/m

  void validate() const;
};

enum class FabricKind { direct, single_switch, leaf_spine };

struct FabricSpec {
  FabricKind kind = FabricKind::single_switch;
  NicSpec nic = NicSpec::generic(0);   // every host's NIC (ports: those the host cables); give its speed
  int nic_cards = 1;                // NIC cards per host carrying those ports (for cost)
  int active_ports = 1;             // NIC ports carrying vSAN traffic
  Teaming teaming = Teaming::failover;
  double link_gbps = 0;             // host links; 0 = the NIC's port speed
  // The ToR (single_switch) or each leaf, and the spines (leaf_spine only). Left empty (no
  // name), make_scenario takes SwitchSpec::default_name's and default_spine_name's from the
  // catalog, as a scenario file without `switch:` does.
  SwitchSpec leaf;
  SwitchSpec spine;
  int hosts_per_leaf = 0;           // leaf_spine only
  int spines = 2;                   // leaf_spine only
  double uplink_gbps = 100;         // leaf_spine only: each leaf-spine link
  int uplinks_per_spine = 1;        // leaf_spine only: parallel links per leaf-spine pair (LAG)
  // Receive queues (RSS) carrying the vSAN vmknic's TCP traffic at each host, one thread each
  // (model/hw/network.hpp, Network::set_receive); 0: not modelled (receive work on the shared cores). ASSUMED 4:
  // "most NIC cards support at least 4 queues" (VMware NSX 3.2 administration guide [S69], Receive
  // Side Scaling); 1 is a NIC or driver without RSS for the vmknic's queue. RDMA has none.
  int rx_queues = 4;
};

/// Throws InvalidArgument naming the first rule `spec` breaks for `hosts` hosts (switch
/// ports, 2 hosts for direct cabling, leaf-spine limits); build_fabric checks it first.
void validate_fabric(const FabricSpec& spec, int hosts);

}  // namespace hcisim
