// Builders for the usual vSAN fabrics (model/hw/topology.hpp; FabricSpec in hw/network_spec.hpp).
#include "hcisim/model/hw/topology.hpp"

#include "hcisim/core/check.hpp"

namespace hcisim {

void validate_fabric(const FabricSpec& spec, int hosts) {
  check::in_range(hosts, 1, 1024, "fabric hosts");
  const int lanes = spec.teaming == Teaming::lacp ? spec.active_ports : 1;
  check::in_range(spec.rx_queues, 0, 64, "fabric rx_queues");
  switch (spec.kind) {
    case FabricKind::direct:
      if (hosts != 2) check::fail("fabric direct: hosts", hosts, "exactly 2 (back-to-back cables, 2-node vSAN)");
      break;
    case FabricKind::single_switch:
      if (hosts * lanes > spec.leaf.ports)
        check::fail("fabric switch '" + spec.leaf.name + "' ports needed", hosts * lanes,
                    "at most its " + std::to_string(spec.leaf.ports) + " ports");
      break;
    case FabricKind::leaf_spine: {
      check::in_range(spec.hosts_per_leaf, 1, spec.leaf.ports, "fabric hosts_per_leaf");
      check::in_range(spec.spines, 1, 64, "fabric spines");
      check::in_range(spec.uplinks_per_spine, 1, 16, "fabric uplinks_per_spine");
      validate_link_speed(spec.uplink_gbps, "fabric uplink_gbe");
      const int leaves = (hosts + spec.hosts_per_leaf - 1) / spec.hosts_per_leaf;
      const int leaf_ports = spec.hosts_per_leaf * lanes + spec.spines * spec.uplinks_per_spine;
      if (leaf_ports > spec.leaf.ports)
        check::fail("fabric leaf '" + spec.leaf.name + "' ports needed", leaf_ports,
                    "at most its " + std::to_string(spec.leaf.ports) + " ports");
      if (leaves * spec.uplinks_per_spine > spec.spine.ports)
        check::fail("fabric spine '" + spec.spine.name + "' ports needed", leaves * spec.uplinks_per_spine,
                    "at most its " + std::to_string(spec.spine.ports) + " ports");
      break;
    }
  }
}

void build_fabric(Network& net, const FabricSpec& spec, const std::vector<std::string>& host_names) {
  const int hosts = static_cast<int>(host_names.size());
  validate_fabric(spec, hosts);
  const double gbps = spec.link_gbps > 0 ? spec.link_gbps : spec.nic.speed_gbps;
  const int lanes = spec.teaming == Teaming::lacp ? spec.active_ports : 1;
  std::vector<Network::NodeId> host_nodes;
  for (const auto& name : host_names)
    host_nodes.push_back(net.host_node(net.add_host(name, spec.nic, spec.active_ports, spec.teaming)));

  switch (spec.kind) {
    case FabricKind::direct:
      net.connect(host_nodes[0], host_nodes[1], gbps, lanes);
      break;
    case FabricKind::single_switch: {
      const auto tor = net.add_switch(spec.leaf.name, spec.leaf);
      for (auto h : host_nodes) net.connect(h, tor, gbps, lanes);
      break;
    }
    case FabricKind::leaf_spine: {
      const int leaves = (hosts + spec.hosts_per_leaf - 1) / spec.hosts_per_leaf;
      std::vector<Network::NodeId> spines;
      for (int s = 0; s < spec.spines; ++s) spines.push_back(net.add_switch("spine" + std::to_string(s), spec.spine));
      for (int l = 0; l < leaves; ++l) {
        const auto leaf = net.add_switch("leaf" + std::to_string(l), spec.leaf);
        for (auto sp : spines) net.connect(leaf, sp, spec.uplink_gbps, spec.uplinks_per_spine);
        for (int i = l * spec.hosts_per_leaf; i < hosts && i < (l + 1) * spec.hosts_per_leaf; ++i)
          net.connect(host_nodes[static_cast<std::size_t>(i)], leaf, gbps, lanes);
      }
      break;
    }
  }
  net.finalize();
}

}  // namespace hcisim
