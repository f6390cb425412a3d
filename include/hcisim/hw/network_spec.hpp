// What network parts are, in datasheet terms: NICs (port speed, ports, per-side stack
// latency), switches (port-to-port latency) and how a host uses its NIC ports (teaming).
#pragma once

#include <string>

namespace hcisim {

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
};

/// How a host's NIC ports carry vSAN traffic. vSAN uses one vmknic: with port-ID
/// ("failover") teaming only one port is active; LACP (or IP hash) spreads flows over the
/// active ports by hash, one flow never spans two ports (docs/sources.md [S29] [S65]).
enum class Teaming { failover, lacp };

/// Line rate of `gbps` (decimal Gbit/s) must be one the model knows: 1, 2.5, 5, 10, 25,
/// 40, 50, 100, 200 or 400. Throws InvalidArgument naming `what`.
void validate_link_speed(double gbps, const std::string& what);

}  // namespace hcisim
