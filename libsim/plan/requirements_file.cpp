// The requirements file of inverse sizing (sizing.hpp, read_requirements): the demand, growth,
// hosts that may be down, existing hosts, the candidate blocks, prices and how candidates run;
// then every combination of blocks checked to make a valid scenario with some host count.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "../scenario/yaml_reader.hpp"
#include "candidate_scenario.hpp"
#include "hcisim/core/check.hpp"
#include "hcisim/plan/sizing.hpp"
#include "hcisim/scenario/hardware_catalog.hpp"
#include "hcisim/model/workload/workload_parsers.hpp"

namespace hcisim {

namespace {

using detail::YamlReader;

// Where the existing hosts' keys are in the file (file:line), for errors that name them.
struct ExistingWhere {
  std::string host;      // existing.host
  std::string network;   // existing.network, with its key path
};

// A demand's block_size, if given: a size such as 8k, a multiple of 512 bytes up to 16m.
void read_block_size(const YamlReader& w, Requirements::Demand& d) {
  if (!w.has("block_size")) return;
  const std::string text = w.text("block_size", "");
  try {
    d.block = parse_size(text, w.key_path("block_size"));
  } catch (const InvalidArgument&) {
    w.fail_value(w.key_path("block_size"), text, "a size such as 8k, 512 to 16m", w.node()["block_size"]);
  }
  if (d.block.count() < 512 || d.block.count() > (16 << 20) || d.block.count() % 512 != 0)
    w.fail_value(w.key_path("block_size"), text, "a multiple of 512 bytes, 512 to 16m", w.node()["block_size"]);
}

// A demand's latency target: exactly one of mean_ms, p95_ms and p99_ms.
void read_latency_target(const YamlReader& w, Requirements::Demand& d) {
  int targets = 0;
  for (const auto& [key, stat] : {std::pair<const char*, LatencyStat>{"mean_ms", LatencyStat::mean},
                                  {"p95_ms", LatencyStat::p95},
                                  {"p99_ms", LatencyStat::p99}})
    if (w.has(key)) {
      ++targets;
      d.slo.stat = stat;
      d.slo.limit_ms = w.number(key, 0);
      if (!(d.slo.limit_ms > 0 && d.slo.limit_ms <= 1e4))
        w.fail_value(w.key_path(key), w.text(key, ""), "a latency in ms, > 0 and at most 10000", w.node()[key]);
    }
  if (targets != 1) w.fail("give exactly one latency target: mean_ms, p95_ms or p99_ms");
}

// One demand: the workload's keys (and a name in `workloads:`). The data profile
// (compress_pct, dedupe_pct) is the cluster's: the first demand sets it in `q`, and every
// other must give the same.
Requirements::Demand read_demand(const YamlReader& w, bool named, Requirements& q) {
  Requirements::Demand d;
  if (named) {
    w.expect_keys({"name"});
    d.name = w.required_text("name");
    if (d.name.empty() || d.name.size() > 64)
      w.fail_value(w.key_path("name"), d.name, "a workload's name, 1 to 64 characters", w.node()["name"]);
  } else {
    w.expect_keys();
  }
  d.iops = w.required_number("iops");
  read_block_size(w, d);
  d.read_pct = static_cast<double>(w.integer("read_pct"));
  d.random_pct = static_cast<double>(w.integer("random_pct"));
  read_latency_target(w, d);
  d.capacity_tb = w.number("capacity_tb");
  d.vms = static_cast<int>(w.integer("vms"));
  d.guest_os = w.choice("guest_os") == "windows" ? GuestOs::windows : GuestOs::linux_os;
  const double compress = static_cast<double>(w.integer("compress_pct"));
  const double dedupe = static_cast<double>(w.integer("dedupe_pct"));
  if (q.demands.empty()) {
    q.compress_pct = compress;
    q.dedupe_pct = dedupe;
  } else if (compress != q.compress_pct || dedupe != q.dedupe_pct) {
    w.fail("compress_pct and dedupe_pct differ from the first workload's (" + detail::fmt("%g", q.compress_pct) + ", " +
           detail::fmt("%g", q.dedupe_pct) + "): the data profile is the cluster's, the same for every workload");
  }
  return d;
}

// workload: one demand, or workloads: a list of named demands that run at once.
void read_demands(const YamlReader& r, Requirements& q) {
  if (r.has("workload") == r.has("workloads"))
    r.fail("give exactly one of workload (one demand) or workloads (a list of named demands that run at once)");
  if (r.has("workload")) {
    q.demands.push_back(read_demand(r.child("workload"), false, q));
    return;
  }
  const YamlReader list = r.child("workloads");
  if (!list.is_sequence() || list.size() < 2 || list.size() > 64)
    list.fail("expected a list of 2 to 64 named demands, e.g. [{name: oltp, iops: 200000, p95_ms: 2}, ...] "
              "(one demand: workload)");
  for (std::size_t g = 0; g < list.size(); ++g) {
    const YamlReader item = list.item(g);
    if (!item.is_map()) item.fail("expected a map of a demand's keys with its name");
    q.demands.push_back(read_demand(item, true, q));
    for (std::size_t h = 0; h + 1 < q.demands.size(); ++h)
      if (q.demands[h].name == q.demands.back().name)
        item.fail("name '" + q.demands.back().name + "' is given to two workloads; each needs its own");
  }
}

void read_growth(const YamlReader& r, Requirements& q) {
  if (!r.has("growth")) return;
  const YamlReader g = r.child("growth");
  g.expect_keys();
  q.growth_pct_per_year = g.number("per_year_pct");
  q.years = static_cast<int>(g.integer("years"));
}

// The hosts the cluster has: a count and a scenario's cluster.host keys without the network
// (the candidates' networks carry them all), and their network.
void read_existing(const YamlReader& r, Requirements& q, ExistingWhere& where) {
  if (!r.has("existing")) return;
  const YamlReader e = r.child("existing");
  e.expect_keys();
  if (!e.has("count")) e.fail("count is missing: how many hosts the cluster has today, 1..63");
  q.existing_hosts = static_cast<int>(e.integer("count", 1));
  const YamlReader eh = e.child("host");
  eh.as("scenario", "cluster.host").expect_keys({}, {"network"});
  q.existing_yaml = detail::flow(eh.node());
  if (!e.has("network"))
    e.fail("network is missing: the existing hosts' cluster.host.network (e.g. {nic: intel-x520-da1, speed_gbe: 10, "
           "switch: ubiquiti-usw-aggregation}); a candidate on another network pays for their NICs and ports too");
  const YamlReader en = e.child("network");
  if (!en.is_map()) en.fail("expected a map: a scenario's cluster.host.network");
  q.existing_network_yaml = detail::flow(en.node());
  where.host = e.where(eh.node());
  where.network = e.where(en.node()) + ": existing.network";
  q.min_hosts = 0;
  q.max_hosts = std::min(8, 64 - q.existing_hosts);
}

// candidates.hosts: with existing hosts, the hosts added (0 allowed); else the cluster's.
void read_host_range(const YamlReader& c, Requirements& q) {
  if (!c.has("hosts")) return;
  const YamlReader h = c.child("hosts");
  h.expect_keys();
  const long lowest = q.existing_hosts > 0 ? 0 : 2, highest = 64 - q.existing_hosts;
  q.min_hosts = static_cast<int>(h.integer("min", q.min_hosts, lowest, highest));
  q.max_hosts = static_cast<int>(h.integer("max", std::min(q.max_hosts, static_cast<int>(highest)), lowest, highest));
  if (q.max_hosts < q.min_hosts) h.fail("max is below min; expected min <= max");
}

// One list of candidate blocks: each a map, kept as flow text; `named` blocks (host models)
// carry a name, the others are labelled by their text.
void read_blocks(const YamlReader& c, const char* key, std::vector<Requirements::Block>& into, bool named) {
  const YamlReader list = c.child(key);
  if (!list.is_sequence() || list.size() == 0) list.fail("expected a list of one or more candidates");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const YamlReader item = list.item(i);
    if (!item.is_map()) item.fail("expected a map");
    YAML::Node n = YAML::Clone(item.node());
    Requirements::Block b;
    if (named) {
      b.label = item.required_text("name");
      if (b.label.empty() || b.label.size() > 64)
        item.fail_value(item.key_path("name"), b.label, "a host model's name, 1 to 64 characters", item.node()["name"]);
      n.remove("name");
    } else {
      b.label = detail::flow(n);
    }
    b.yaml = detail::flow(n);
    b.where = item.where(item.node()) + ": " + item.path();
    into.push_back(std::move(b));
  }
}

// Whether a map holds only scalars under the given keys.
bool holds_only(const YAML::Node& m, std::initializer_list<const char*> keys) {
  for (const auto& kv : m) {
    if (!kv.first.IsScalar() || !kv.second.IsScalar()) return false;
    bool known = false;
    for (const char* k : keys) known = known || kv.first.Scalar() == k;
    if (!known) return false;
  }
  return true;
}

// Short labels where the block holds only the usual keys; the whole block otherwise, so
// two designs never print alike.
void label_blocks(Requirements& q) {
  for (auto& n : q.networks) {
    // "{nic: broadcom-57414-25g, speed_gbe: 25, switch: dell-s5248f-on}" -> "25 GbE broadcom-57414-25g, dell-s5248f-on".
    const YAML::Node m = YAML::Load(n.yaml);
    if (holds_only(m, {"nic", "speed_gbe", "switch"}) && m["speed_gbe"])
      n.label = m["speed_gbe"].Scalar() + " GbE" + (m["nic"] ? " " + m["nic"].Scalar() : std::string()) +
                (m["switch"] ? " on " + m["switch"].Scalar() : std::string());
  }
  for (auto& p : q.policies) {
    // "{raid: raid5, ftt: 1}" -> "raid5 ftt 1" for reports.
    const YAML::Node n = YAML::Load(p.yaml);
    if (holds_only(n, {"raid", "ftt"}))
      p.label = (n["raid"] ? n["raid"].Scalar() : std::string("raid1")) + (n["ftt"] ? " ftt " + n["ftt"].Scalar() : std::string());
  }
}

// candidates: host counts, host models, networks, policies and data services.
void read_candidates(const YamlReader& r, Requirements& q, const ExistingWhere& where) {
  const YamlReader c = r.child("candidates");
  c.expect_keys();
  read_host_range(c, q);
  read_blocks(c, "host_models", q.host_models, true);
  if (q.existing_hosts > 0 && !c.has("networks")) {
    // Without networks of their own, the candidates keep the existing hosts' network.
    Requirements::Block b;
    b.yaml = b.label = q.existing_network_yaml;
    b.where = where.network;
    q.networks.push_back(std::move(b));
  } else {
    read_blocks(c, "networks", q.networks, false);
  }
  read_blocks(c, "policies", q.policies, false);
  label_blocks(q);
  if (c.has("data_services")) {
    const YamlReader ds = c.child("data_services");
    ds.as("scenario", "data_services").expect_keys();
    q.data_services_yaml = detail::flow(ds.node());
  }
  for (std::size_t i = 0; i < q.host_models.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (q.host_models[i].label == q.host_models[j].label)
        throw InvalidArgument(q.host_models[i].where + ": name '" + q.host_models[i].label +
                              "' is already the name of " + q.host_models[j].where + "; names must be unique");
}

// prices: a price file, relative to the requirements file, laid over the catalog's.
void read_prices(const YamlReader& r, const std::string& path, HardwareCatalog& catalog) {
  if (!r.has("prices")) return;
  std::filesystem::path p = r.text("prices", "");
  if (p.is_relative()) p = std::filesystem::path(path).parent_path() / p;
  try {
    catalog.add_prices(load_price_file(p.string(), catalog));
  } catch (const InvalidArgument& e) {
    throw InvalidArgument(r.where(r.node()["prices"]) + ": prices: " + e.what());
  }
}

// run: how each candidate is simulated, and how many runs the search may make.
void read_run(const YamlReader& r, Requirements& q) {
  if (!r.has("run")) return;
  const YamlReader run = r.child("run");
  run.expect_keys();
  q.max_simulations = static_cast<int>(run.integer("max_simulations", q.max_simulations));
  q.duration_s = run.number("duration_s", q.duration_s);
  q.warmup_s = run.number("warmup_s", q.warmup_s);
  q.seed = static_cast<std::uint64_t>(run.integer("seed"));
}

// The file's keys, in the order they are read and checked.
void read_keys(const YAML::Node& root, const std::string& path, HardwareCatalog& catalog, Requirements& q,
               ExistingWhere& where) {
  const YamlReader r(root, path, "requirements");
  r.expect_keys();
  q.name = r.text("name", path);
  read_demands(r, q);
  read_growth(r, q);
  q.host_failures = static_cast<int>(r.integer("host_failures"));
  q.require_rebuild = r.flag("require_rebuild");
  read_existing(r, q, where);
  read_candidates(r, q, where);
  read_prices(r, path, catalog);
  read_run(r, q);
  q.top = static_cast<int>(r.integer("top"));
}

// The existing hosts' own keys, checked alone (three of them under RAID-1) so an error
// names existing.host or existing.network, not a candidate; and one architecture: the
// existing hosts' (disk groups: OSA; a pool: ESA).
void check_existing(const Requirements& q, const ExistingWhere& where, const HardwareCatalog& catalog) {
  Requirements::Block alone_host{"existing", q.existing_yaml, where.host};
  Requirements::Block alone_net{"existing", q.existing_network_yaml, where.network};
  Requirements alone = q;
  alone.existing_hosts = 0;
  try {
    (void)detail::candidate_scenario(alone, alone_host, alone_net, {"raid1", "{raid: raid1, ftt: 1}", ""}, 3, false, false,
                                     catalog);
  } catch (const InvalidArgument& e) {
    std::string why = detail::reason_of(e);
    for (const auto& [from, to] : {std::pair<std::string, std::string>{"cluster.host.network", "existing.network"},
                                   {"cluster.host", "existing.host"}})
      for (std::size_t at = why.find(from); at != std::string::npos; at = why.find(from, at + to.size()))
        why.replace(at, from.size(), to);
    throw InvalidArgument(where.host + ": existing: " + why);
  }
  const bool existing_esa = YAML::Load(q.existing_yaml)["pool"].IsDefined();
  for (const auto& h : q.host_models)
    if (YAML::Load(h.yaml)["pool"].IsDefined() != existing_esa)
      throw InvalidArgument(h.where + " ('" + h.label + "') is " + (existing_esa ? "OSA (disk_groups)" : "ESA (a pool)") +
                            " and the existing hosts are " + (existing_esa ? "ESA (a pool)" : "OSA (disk_groups)") +
                            ": a cluster has one architecture");
}

// Each combination of blocks must make a valid scenario with some host count in the range,
// with the failures too; one that never does is wrong in itself (a device typo, a bad key,
// a policy that cannot lose host_failures hosts). With existing hosts, a host model is tried
// with at least one of it added (none added is the existing hosts alone).
void check_blocks_valid(const Requirements& q, const std::string& path, const HardwareCatalog& catalog) {
  const int lowest = q.existing_hosts > 0 && q.max_hosts >= 1 ? std::max(q.min_hosts, 1) : q.min_hosts;
  for (const auto& h : q.host_models)
    for (const auto& n : q.networks)
      for (const auto& p : q.policies) {
        std::string healthy_error, failed_error;
        bool healthy = false, with_failures = false;
        for (int hosts = lowest; hosts <= q.max_hosts && !with_failures; ++hosts) {
          try {
            (void)detail::candidate_scenario(q, h, n, p, hosts, false, false, catalog);
            healthy = true;
          } catch (const InvalidArgument& e) {
            if (healthy_error.empty() || hosts == q.max_hosts) healthy_error = detail::reason_of(e);
            continue;
          }
          try {
            (void)detail::candidate_scenario(q, h, n, p, hosts, false, true, catalog);
            with_failures = true;
          } catch (const InvalidArgument& e) {
            failed_error = detail::reason_of(e);
          }
        }
        if (!healthy)
          throw InvalidArgument(h.where + " with " + n.where + " and " + p.where + ": no host count from " +
                                std::to_string(lowest) + " to " + std::to_string(q.max_hosts) +
                                (q.existing_hosts > 0 ? " added to the " + std::to_string(q.existing_hosts) + " existing"
                                                      : std::string()) +
                                " makes it valid: " + healthy_error);
        if (!with_failures)
          throw InvalidArgument(path + ": host_failures = " + std::to_string(q.host_failures) + " is impossible with " +
                                p.where + " (" + p.label + "): " + failed_error);
      }
}

// Each demand's grown IOPS over its VMs is what each VM is asked for (an open loop's rate, at
// most 1e8 a VM): said of the demand's own keys, not of a candidate.
void check_demand_per_vm(const Requirements& q, const std::string& path) {
  for (std::size_t g = 0; g < q.demands.size(); ++g) {
    const double per_vm = q.group_iops(g) / q.demands[g].vms;
    if (per_vm <= 1e8) continue;
    const std::string at = q.grouped() ? "workloads[" + std::to_string(g) + "]" : "workload";
    throw InvalidArgument(path + ": " + at + ".iops (" + detail::fmt("%.3g", q.group_iops(g)) + " grown) over " + at +
                          ".vms (" + std::to_string(q.demands[g].vms) + ") is " + detail::fmt("%.3g", per_vm) +
                          " IOPS a VM; expected at most 1e8 a VM: give more vms");
  }
}

// Every design is built before one is simulated, at about 50 KB each: a grid of tens of
// thousands takes gigabytes. At most kMaxDesigns, said with the product that exceeds it.
constexpr double kMaxDesigns = 10000;
void check_design_count(const Requirements& q, const std::string& path) {
  const double counts = q.max_hosts - q.min_hosts + 1.0;
  const double designs = static_cast<double>(q.host_models.size()) * static_cast<double>(q.networks.size()) *
                         static_cast<double>(q.policies.size()) * counts;
  if (designs <= kMaxDesigns) return;
  throw InvalidArgument(path + ": candidates: " + std::to_string(q.host_models.size()) + " host models x " +
                        std::to_string(q.networks.size()) + " networks x " + std::to_string(q.policies.size()) +
                        " policies x " + detail::fmt("%.0f", counts) + " host counts (" + std::to_string(q.min_hosts) +
                        " .. " + std::to_string(q.max_hosts) + ") = " + detail::fmt("%.0f", designs) +
                        " designs; at most " + detail::fmt("%.0f", kMaxDesigns) +
                        " are searched: narrow candidates.hosts or the lists");
}

}  // namespace

Requirements read_requirements(const std::string& path, HardwareCatalog& catalog) {
  const YAML::Node root = detail::parse_yaml_map(
      detail::read_small_file(path, "requirements file", 1u << 20), path, "a requirements file",
      "a requirements file is a map with the keys name, workload (or workloads), growth, host_failures, existing, candidates, "
      "prices, run and top");
  Requirements q;
  q.source = path;
  ExistingWhere where;
  try {
    read_keys(root, path, catalog, q, where);
  } catch (const YAML::Exception& e) {
    throw InvalidArgument(path + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  if (q.demand_iops() > 1e9 || q.demand_capacity_gb() > 1e9)
    throw InvalidArgument(path + ": the demand" + (q.grouped() ? std::string(" (all workloads together)") : std::string()) +
                          ", grown by " + detail::fmt("%g", q.growth_pct_per_year) + " % a year for " + std::to_string(q.years) +
                          " years, comes to " + detail::fmt("%.3g", q.demand_iops()) + " IOPS and " +
                          detail::fmt("%.3g", q.demand_capacity_gb() / 1000) + " TB; expected at most 1e9 IOPS and 1e6 TB");
  check_demand_per_vm(q, path);
  check_design_count(q, path);
  if (q.existing_hosts > 0) check_existing(q, where, catalog);
  check_blocks_valid(q, path, catalog);
  return q;
}

}  // namespace hcisim
