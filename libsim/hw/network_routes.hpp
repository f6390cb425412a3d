// Shortest-path next hops for every (node, destination host), computed with Boost.Graph.
// Private to libsim: the public headers stay free of Boost.
#pragma once

#include <cstdint>
#include <vector>

#include "hcisim/model/hw/network.hpp"

namespace hcisim::detail {

struct NextHops {
  std::vector<std::uint32_t> begin;     // size nodes * hosts + 1
  std::vector<std::uint32_t> bundles;   // bundles on a shortest path, per (node, host)
};

/// For each node n and host d: every bundle out of n that starts a shortest path (by
/// unloaded hop latency) from n to d, never passing through another host. Throws
/// InvalidArgument naming the first pair of hosts that cannot reach each other.
NextHops compute_next_hops(const std::vector<Network::Node>& nodes, const std::vector<Network::Bundle>& bundles,
                           const std::vector<Network::NodeId>& host_nodes, double frame_bytes);

}  // namespace hcisim::detail
