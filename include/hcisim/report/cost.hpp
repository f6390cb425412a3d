// What a cluster costs, from its parts and a PriceBook:
//   per host : base (chassis, memory, boot) + sockets x CPU + every drive (cache, capacity or
//              pool) + NIC cards (FabricSpec::nic_cards: ceil(ports asked / ports per card));
//   network  : every port of the card is cabled to the leaf switch (vSAN hosts cable the
//              standby port too; network.ports beyond the card's take more cards): per port,
//              the switch's price / its ports plus one cable; leaf-spine uplinks and spines
//              are not priced;
//   licences : per physical core, at least `min_cores_per_socket` per socket, and per TiB of
//              raw capacity of every host.
// Failed hosts are still bought: a cost counts every host of the scenario. A part without a
// price makes the total unknown; the parts that are priced are still listed, so a partial
// answer (the network of seed 001, whose write-up prices it) can be read.
#pragma once

#include <string>
#include <vector>

#include "hcisim/report/price_book.hpp"
#include "hcisim/storage/capacity.hpp"
#include "hcisim/storage/cluster_spec.hpp"

namespace hcisim {

struct CostLine {
  std::string group;           // "hosts", "network" or "licences"
  std::string item;            // e.g. "cpu intel-xeon-gold-6338", "switch port dell-s5232f-on"
  double count = 0;            // units in the cluster
  double unit_usd = 0;
  double usd = 0;              // count x unit_usd
  std::string source;
};

struct ClusterCost {
  std::vector<CostLine> lines;         // priced parts
  std::vector<std::string> missing;    // parts without a price, e.g. "device samsung-pm1733-3.84tb"
  double priced_usd = 0;               // sum of the lines
  double hosts_usd = 0, network_usd = 0, licences_usd = 0;   // the same by group
  bool shown = false;                  // text reports say it: a part is priced or a price file given
  bool complete() const { return missing.empty(); }
  /// The total, or NaN when a part is unpriced.
  double total_usd() const;
  /// total / (usable GB / 1000), or NaN.
  double per_usable_tb(const CapacityReport& c) const;
  /// total / iops, or NaN.
  double per_iops(double iops) const;
};

/// 1234567.4 -> "1,234,567" (rounded; "-" for NaN).
std::string thousands(double v);
/// 1234567.4 -> "$1,234,567", -5 -> "-$5" ("-" for NaN).
std::string format_usd(double usd);

ClusterCost cluster_cost(const ClusterSpec& cluster, const CapacityReport& capacity, const PriceBook& prices);

/// Text for reports: the total with cost per usable TB and per IOPS (`iops_label` says which
/// IOPS, e.g. "at the knee"), or what is priced and what is missing; "" when nothing is
/// priced and no price file was given (ClusterCost::shown).
std::string format_cost(const ClusterCost& c, const CapacityReport& capacity, double iops, const std::string& iops_label);
/// One JSON object: total_usd (null when incomplete), priced_usd, hosts/network/licences,
/// per_usable_tb_usd, per_iops_usd, lines [...], missing [...].
std::string cost_json(const ClusterCost& c, const CapacityReport& capacity, double iops);

}  // namespace hcisim
