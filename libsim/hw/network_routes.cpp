// Routing: Dijkstra (Boost.Graph) from each destination host over the reversed topology,
// edge weight = unloaded cost of one full frame on the hop (serialisation + cable + switch
// latency), so fewer and faster hops win. Transit through a host other than the
// destination is excluded by filtering the graph per destination. Ties (within 1e-9
// relative) are kept as equal-cost next hops for ECMP.
#include "network_routes.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <boost/graph/filtered_graph.hpp>
#include <cmath>
#include <limits>

#include "hcisim/core/check.hpp"

namespace hcisim::detail {

namespace {

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                                    boost::property<boost::edge_weight_t, double>>;

// Keeps reversed edges whose forward direction does not enter a host other than `dest`.
struct NoTransitThroughHosts {
  const Graph* graph = nullptr;
  const std::vector<Network::Node>* nodes = nullptr;
  std::size_t dest = 0;
  bool operator()(Graph::edge_descriptor e) const {
    // Reversed edge target->source: forward it goes source(e) <- ... we stored it as
    // (to -> from), so the forward hop enters node source(e).
    const std::size_t entered = boost::source(e, *graph);
    return entered == dest || (*nodes)[entered].host < 0;
  }
};

}  // namespace

NextHops compute_next_hops(const std::vector<Network::Node>& nodes, const std::vector<Network::Bundle>& bundles,
                           const std::vector<Network::NodeId>& host_nodes, double frame_bytes) {
  const std::size_t n = nodes.size();
  const std::size_t h = host_nodes.size();
  std::vector<double> weight(bundles.size());
  Graph reversed(n);
  for (std::size_t b = 0; b < bundles.size(); ++b) {
    weight[b] = bundles[b].hop_latency_ns + frame_bytes * bundles[b].ns_per_byte;
    boost::add_edge(bundles[b].to, bundles[b].from, weight[b], reversed);
  }

  NextHops out;
  out.begin.assign(n * h + 1, 0);
  std::vector<std::vector<std::uint32_t>> cell(n * h);
  std::vector<double> dist(n);
  for (std::size_t d = 0; d < h; ++d) {
    const std::size_t dest = host_nodes[d];
    NoTransitThroughHosts keep{&reversed, &nodes, dest};
    boost::filtered_graph<Graph, NoTransitThroughHosts> g(reversed, keep);
    boost::dijkstra_shortest_paths(
        g, dest,
        boost::distance_map(boost::make_iterator_property_map(dist.begin(), boost::get(boost::vertex_index, g)))
            .distance_inf(std::numeric_limits<double>::infinity()));
    for (std::size_t s = 0; s < h; ++s) {
      if (!std::isfinite(dist[host_nodes[s]]))
        throw InvalidArgument("network: host '" + nodes[host_nodes[s]].name + "' cannot reach host '" +
                              nodes[dest].name + "'; connect both to a switch (or to each other)");
    }
    for (std::size_t b = 0; b < bundles.size(); ++b) {
      const auto& bu = bundles[b];
      if (bu.from == dest || !std::isfinite(dist[bu.from]) || !std::isfinite(dist[bu.to])) continue;
      if (bu.to != dest && nodes[bu.to].host >= 0) continue;   // hosts do not forward
      const double via = weight[b] + dist[bu.to];
      if (std::abs(via - dist[bu.from]) <= 1e-9 * dist[bu.from])
        cell[bu.from * h + d].push_back(static_cast<std::uint32_t>(b));
    }
  }
  for (std::size_t i = 0; i < n * h; ++i) {
    out.begin[i + 1] = out.begin[i] + static_cast<std::uint32_t>(cell[i].size());
    out.bundles.insert(out.bundles.end(), cell[i].begin(), cell[i].end());
  }
  return out;
}

}  // namespace hcisim::detail
