// Ready-made cluster fabrics built on Network: two hosts cabled back to back (2-node vSAN,
// seed 003), every host on one top-of-rack switch, or a leaf-spine with uplinks.
#pragma once

#include <string>
#include <vector>

#include "hcisim/hw/network.hpp"
#include "hcisim/hw/network_spec.hpp"

namespace hcisim {

enum class FabricKind { direct, single_switch, leaf_spine };

struct FabricSpec {
  FabricKind kind = FabricKind::single_switch;
  NicSpec nic;                      // every host's NIC (ports: those the host cables)
  int nic_cards = 1;                // NIC cards per host carrying those ports (for cost)
  int active_ports = 1;             // NIC ports carrying vSAN traffic
  Teaming teaming = Teaming::failover;
  double link_gbps = 0;             // host links; 0 = the NIC's port speed
  SwitchSpec leaf;                  // the ToR (single_switch) or each leaf
  SwitchSpec spine;                 // leaf_spine only
  int hosts_per_leaf = 0;           // leaf_spine only
  int spines = 2;                   // leaf_spine only
  double uplink_gbps = 100;         // leaf_spine only: each leaf-spine link
  int uplinks_per_spine = 1;        // leaf_spine only: parallel links per leaf-spine pair (LAG)
  // Receive queues (RSS) carrying the vSAN vmknic's TCP traffic at each host, one thread each
  // (Network::set_receive); 0: not modelled (receive work on the shared cores). ASSUMED 4:
  // "most NIC cards support at least 4 queues" (VMware NSX 3.2 administration guide [S69], Receive
  // Side Scaling); 1 is a NIC or driver without RSS for the vmknic's queue. RDMA has none.
  int rx_queues = 4;
};

/// Adds `host_names.size()` hosts and the fabric to `net` and finalises it. Host i gets
/// index i. Throws InvalidArgument naming the field when the fabric cannot hold the hosts.
/// Throws InvalidArgument naming the first rule `spec` breaks for `hosts` hosts (switch
/// ports, 2 hosts for direct cabling, leaf-spine limits); build_fabric checks it first.
void validate_fabric(const FabricSpec& spec, int hosts);
void build_fabric(Network& net, const FabricSpec& spec, const std::vector<std::string>& host_names);

}  // namespace hcisim
