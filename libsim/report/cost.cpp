// Cluster cost from parts and prices (cost.hpp has the rules).
#include "hcisim/report/cost.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

#include "hcisim/model/report/text_escape.hpp"

namespace hcisim {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kBytesPerTib = 1099511627776.0;   // 2^40

// Counts parts by (group, item) so that 6 hosts x 6 drives become one line of 36.
class Tally {
 public:
  Tally(const PriceBook& prices, ClusterCost& out) : prices_(prices), out_(out) {}

  // `catalog_name` false: a part given by inline figures, which no price file can name.
  void add(const char* group, PriceBook::Part part, const char* kind, const std::string& name, double count,
           double unit_divisor = 1, bool catalog_name = true) {
    const std::string item = std::string(kind) + " " + name;
    const Price* p = catalog_name ? prices_.find(part, name) : nullptr;
    if (!p) {
      const std::string said = catalog_name ? item : std::string(kind) + " (inline figures: name a catalog part to price it)";
      if (std::find(out_.missing.begin(), out_.missing.end(), said) == out_.missing.end()) out_.missing.push_back(said);
      return;
    }
    add_priced(group, item, count, p->usd / unit_divisor, p->source);
  }
  void add_priced(const std::string& group, const std::string& item, double count, double unit, const std::string& source) {
    const auto key = std::make_pair(group, item);
    const auto it = index_.find(key);
    if (it == index_.end()) {
      index_[key] = out_.lines.size();
      out_.lines.push_back({group, item, count, unit, 0, source});
    } else {
      out_.lines[it->second].count += count;
    }
  }

 private:
  const PriceBook& prices_;
  ClusterCost& out_;
  std::map<std::pair<std::string, std::string>, std::size_t> index_;
};

}  // namespace

std::string thousands(double v) {
  if (!std::isfinite(v)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.0f", std::abs(v));
  std::string digits = buf, out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return (v <= -0.5 ? "-" : "") + out;
}

std::string format_usd(double usd) {
  if (!std::isfinite(usd)) return "-";
  const std::string t = thousands(usd);
  return t[0] == '-' ? "-$" + t.substr(1) : "$" + t;
}

double ClusterCost::total_usd() const { return complete() ? priced_usd : kNaN; }

double ClusterCost::per_usable_tb(const CapacityReport& c) const {
  return complete() && c.usable_gb > 0 ? priced_usd / (c.usable_gb / 1000.0) : kNaN;
}

double ClusterCost::per_iops(double iops) const { return complete() && iops > 0 ? priced_usd / iops : kNaN; }

ClusterCost cluster_cost(const ClusterSpec& cluster, const CapacityReport& capacity, const PriceBook& prices) {
  ClusterCost c;
  Tally t(prices, c);
  const auto hosts = static_cast<double>(cluster.hosts.size());
  if (const Price* base = prices.host_base()) t.add_priced("hosts", "host base (chassis, memory, boot)", hosts, base->usd, base->source);
  else c.missing.emplace_back("host base (chassis, memory, boot)");
  double cores = 0;
  for (const HostSpec& h : cluster.hosts) {
    // A CPU written as figures ({cores, ghz}) keeps the reader's placeholder name "cpu".
    t.add("hosts", PriceBook::Part::cpu, "cpu", h.cpu.name, h.cpu.sockets, 1, h.cpu.name != "cpu");
    const LicencePrices& l = prices.licences();
    cores += h.cpu.sockets * std::max(h.cpu.cores_per_socket, l.per_core_set ? l.min_cores_per_socket : 0);
    for (const DiskGroupSpec& g : h.disk_groups) {
      t.add("hosts", PriceBook::Part::device, "device", g.cache.device.name, 1);
      for (const DriveSpec& d : g.capacity) t.add("hosts", PriceBook::Part::device, "device", d.device.name, 1);
    }
    for (const DriveSpec& d : h.pool) t.add("hosts", PriceBook::Part::device, "device", d.device.name, 1);
  }
  const FabricSpec& f = cluster.fabric;
  const double ports = hosts * std::max(1, f.nic.ports);
  t.add("network", PriceBook::Part::nic, "nic", f.nic.name, hosts * std::max(1, f.nic_cards), 1,
        f.nic.name != "generic-nic");
  if (f.kind != FabricKind::direct) {
    t.add("network", PriceBook::Part::switch_unit, "switch port", f.leaf.name, ports, std::max(1, f.leaf.ports));
    t.add("network", PriceBook::Part::cable, "cable", f.leaf.name, ports);
  }
  const LicencePrices& l = prices.licences();
  if (l.per_core_set) {
    if (l.per_core_usd > 0) t.add_priced("licences", "licence per core", cores, l.per_core_usd, l.per_core_source);
  } else {
    c.missing.emplace_back("licence per core");
  }
  if (l.per_tib_set) {
    // Every host's raw capacity, failed ones included (they are still licensed).
    double raw_gb = capacity.raw_gb;
    if (!cluster.failed_hosts.empty()) {
      ClusterSpec all = cluster;
      all.failed_hosts.clear();
      raw_gb = hcisim::capacity(all, DataProfile{}).raw_gb;
    }
    if (l.per_tib_raw_usd > 0)
      t.add_priced("licences", "licence per TiB raw", raw_gb * 1e9 / kBytesPerTib, l.per_tib_raw_usd, l.per_tib_source);
  } else {
    c.missing.emplace_back("licence per TiB raw");
  }
  c.shown = !c.lines.empty() || prices.from_file();
  for (CostLine& line : c.lines) {
    line.usd = line.count * line.unit_usd + 0.0;   // + 0.0: a -0 price is 0
    c.priced_usd += line.usd;
    (line.group == "hosts" ? c.hosts_usd : line.group == "network" ? c.network_usd : c.licences_usd) += line.usd;
  }
  return c;
}

std::string format_cost(const ClusterCost& c, const CapacityReport& capacity, double iops, const std::string& iops_label) {
  if (!c.shown) return "";
  std::string out;
  if (c.complete()) {
    out = "Cost: " + format_usd(c.priced_usd) + " (hosts " + format_usd(c.hosts_usd) + ", network " + format_usd(c.network_usd) +
          ", licences " + format_usd(c.licences_usd) + "); " + format_usd(c.per_usable_tb(capacity)) + " per usable TB";
    if (iops > 0) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "$%.3f", c.per_iops(iops));
      out += std::string(", ") + buf + " per IOPS " + iops_label;
    }
    return out + "\n";
  }
  out = "Cost: incomplete, priced " + format_usd(c.priced_usd) + " (hosts " + format_usd(c.hosts_usd) + ", network " +
        format_usd(c.network_usd) + ", licences " + format_usd(c.licences_usd) + "); no price for: ";
  for (std::size_t i = 0; i < c.missing.size(); ++i) out += (i ? ", " : "") + c.missing[i];
  return out + " (give them in a price file: --prices FILE)\n";
}

std::string cost_json(const ClusterCost& c, const CapacityReport& capacity, double iops) {
  std::string j = "{\"total_usd\": " + json_number(c.total_usd()) + ", \"priced_usd\": " + json_number(c.priced_usd) +
                  ", \"hosts_usd\": " + json_number(c.hosts_usd) + ", \"network_usd\": " + json_number(c.network_usd) +
                  ", \"licences_usd\": " + json_number(c.licences_usd) +
                  ", \"per_usable_tb_usd\": " + json_number(c.per_usable_tb(capacity)) +
                  ", \"per_iops_usd\": " + json_number(c.per_iops(iops)) + ", \"lines\": [";
  for (std::size_t i = 0; i < c.lines.size(); ++i) {
    const CostLine& l = c.lines[i];
    j += std::string(i ? ", " : "") + "{\"group\": " + json_string(l.group) + ", \"item\": " + json_string(l.item) +
         ", \"count\": " + json_number(l.count) + ", \"unit_usd\": " + json_number(l.unit_usd) +
         ", \"usd\": " + json_number(l.usd) + ", \"source\": " + json_string(l.source) + "}";
  }
  j += "], \"missing\": [";
  for (std::size_t i = 0; i < c.missing.size(); ++i) j += (i ? ", " : "") + json_string(c.missing[i]);
  return j + "]}";
}

}  // namespace hcisim
