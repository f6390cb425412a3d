// Ready-made cluster fabrics built on Network: two hosts cabled back to back (2-node vSAN,
// seed 003), every host on one top-of-rack switch, or a leaf-spine with uplinks.
#pragma once

#include <string>
#include <vector>

#include "hcisim/model/hw/network.hpp"
#include "hcisim/hw/network_spec.hpp"

namespace hcisim {

/// Adds `host_names.size()` hosts and the fabric `spec` (network_spec.hpp) to `net` and
/// finalises it. Host i gets index i. Throws InvalidArgument naming the field when the
/// fabric cannot hold the hosts.
void build_fabric(Network& net, const FabricSpec& spec, const std::vector<std::string>& host_names);

}  // namespace hcisim
