// The scenario of one sizing candidate (candidate_scenario.hpp): scenario text from the
// requirements' demand and one host model, network, policy and host count, read by the
// scenario reader like any file.
#include "candidate_scenario.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <utility>

#include "hcisim/model/report/text_escape.hpp"

namespace hcisim::detail {

std::string flow(const YAML::Node& n) {
  YAML::Emitter e;
  e.SetMapFormat(YAML::Flow);
  e.SetSeqFormat(YAML::Flow);
  e << n;
  return e.c_str();
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

namespace {

constexpr int kOutstandingPerVmdk = 32;   // the open loop's cap: far above what a VM's share needs

std::string host_name(int i) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "esx%02d", i);
  return buf;
}

}  // namespace

std::vector<double> vmdk_gbs(const Requirements& req, double usable_gb) {
  // A demand that states its data: its share of the grown capacity on each of its VMDKs.
  // One that states none ("no capacity demand") is taken to fill what the design offers, as
  // vSAN sizing fills a cluster up to its reserve ([S59] [S60]): the usable capacity (every
  // host up, after the reserve rule in force: slack or Reserved Capacity) left by the
  // demands that state theirs, shared equally over the VMDKs of those that do not. Never a
  // constant: a fixed size would either sit in the client cache and pass any design, or
  // overflow the small ones.
  std::vector<double> out(req.demands.size(), 0);
  double stated_gb = 0;
  int unstated_vmdks = 0;
  for (const Requirements::Demand& d : req.demands) {
    if (d.capacity_tb > 0) stated_gb += d.capacity_tb * 1000 * req.growth();
    else unstated_vmdks += d.vms * kVmdksPerVm;
  }
  const double left_gb = std::max(0.0, usable_gb - stated_gb);
  for (std::size_t g = 0; g < req.demands.size(); ++g) {
    const Requirements::Demand& d = req.demands[g];
    out[g] = d.capacity_tb > 0 ? d.capacity_tb * 1000 * req.growth() / (static_cast<double>(d.vms) * kVmdksPerVm)
                               : left_gb / unstated_vmdks;
  }
  return out;
}

namespace {

std::string vmdk_size(double gb) { return fmt("%.0f", std::max(1.0, std::ceil(gb * 1e9 / 1048576.0))) + "m"; }

// A host's size for choosing which hosts fail: its capacity and pool devices (a list item
// counts `count` of them), then its CPU sockets, from its cluster.host keys.
std::pair<long, long> host_size(const YAML::Node& h) {
  const auto items = [](const YAML::Node& list) {
    long n = 0;
    if (list && list.IsSequence())
      for (const auto& d : list) n += d.IsMap() && d["count"] ? d["count"].as<long>(1) : 1;
    return n;
  };
  long devices = items(h["pool"]);
  if (h["disk_groups"] && h["disk_groups"].IsSequence())
    for (const auto& g : h["disk_groups"])
      if (g.IsMap()) devices += items(g["capacity"]);
  const long sockets = h["cpu"] && h["cpu"].IsMap() && h["cpu"]["sockets"] ? h["cpu"]["sockets"].as<long>(1) : 1;
  return {devices, sockets};
}

// The scenario of one candidate: `with_data` gives the VMDKs the demand's data (else a token).
std::string scenario_yaml(const Requirements& req, const Requirements::Block& host, const Requirements::Block& net,
                          const Requirements::Block& policy, int hosts, bool with_data, bool with_failures,
                          double usable_gb) {
  // With existing hosts, the added ones come first (esx01, ...) and the existing ones follow as
  // cluster.more_hosts; with none added, the existing ones alone.
  const bool added = hosts > 0 || req.existing_hosts == 0;
  YAML::Node h = YAML::Load(added ? host.yaml : req.existing_yaml);
  const bool esa = h["pool"].IsDefined();
  h["network"] = YAML::Load(net.yaml);
  std::ostringstream y;
  y << "name: "
    << json_string(std::to_string(hosts) + " x " + host.label +
                   (req.existing_hosts > 0 ? " + " + std::to_string(req.existing_hosts) + " existing" : std::string()) + ", " +
                   net.label + ", " + policy.label)
    << "\n"
    << "seed: " << req.seed << "\n"
    << "cluster:\n  hosts: " << (added ? hosts : req.existing_hosts) << "\n  architecture: " << (esa ? "esa" : "osa")
    << "\n  host: " << flow(h) << "\n";
  if (added && req.existing_hosts > 0) {
    YAML::Node more = YAML::Load(req.existing_yaml);
    more["count"] = req.existing_hosts;
    y << "  more_hosts: [" << flow(more) << "]\n";
  }
  if (with_failures && req.host_failures > 0) {
    // The hosts that fail are the first ones; with existing hosts beside added ones, the larger
    // kind's first (more capacity and pool devices, then more CPU sockets): the worst case of
    // losing that many hosts of one kind.
    int first = 1;
    if (added && req.existing_hosts > 0 && hosts > 0) {
      const YAML::Node mine = YAML::Load(host.yaml), theirs = YAML::Load(req.existing_yaml);
      // The larger kind's hosts, then the last added ones if more fail than there are.
      if (host_size(theirs) > host_size(mine)) first = std::min(hosts + 1, hosts + req.existing_hosts - req.host_failures + 1);
    }
    y << "  failed_hosts: [";
    for (int i = 0; i < req.host_failures; ++i) y << (i ? ", " : "") << host_name(first + i);
    y << "]\n";
  }
  y << "policy: " << policy.yaml << "\n"
    << "data_services: " << req.data_services_yaml << "\n"
    << "workload:\n  vmdks_per_vm: " << kVmdksPerVm << "\n  outstanding_per_vmdk: " << kOutstandingPerVmdk
    << "\n  compress_pct: " << req.compress_pct << "\n  dedupe_pct: " << req.dedupe_pct << "\n  duration_s: " << req.duration_s
    << "\n  warmup_s: " << req.warmup_s << "\n";
  // Each demand as an open loop at its grown rate: one workload, or a group each; without
  // data, a token of 1 GB per VMDK.
  const std::vector<double> data_gb = vmdk_gbs(req, usable_gb);
  const auto demand = [&](std::size_t g, const char* indent) {
    const Requirements::Demand& d = req.demands[g];
    y << indent << "block_size: " << d.block.count() << "\n" << indent << "read_pct: " << d.read_pct << "\n" << indent
      << "random_pct: " << d.random_pct << "\n" << indent << "vms: " << d.vms << "\n" << indent
      << "iops_limit_per_vm: " << fmt("%.6g", req.group_iops(g) / d.vms) << "\n" << indent
      << "vmdk_size: " << vmdk_size(with_data ? data_gb[g] : 1.0) << "\n";
    if (d.guest_os == GuestOs::windows) y << indent << "guest_os: windows\n";   // linux is the default
  };
  if (!req.grouped()) {
    demand(0, "  ");
  } else {
    y << "  groups:\n";
    for (std::size_t g = 0; g < req.demands.size(); ++g) {
      y << "    - name: " << json_string(req.demands[g].name) << "\n";
      demand(g, "      ");
    }
  }
  return y.str();
}

}  // namespace

Scenario candidate_scenario(const Requirements& req, const Requirements::Block& host, const Requirements::Block& net,
                            const Requirements::Block& policy, int hosts, bool with_data, bool with_failures,
                            const HardwareCatalog& catalog, double usable_gb,
                            const std::vector<std::string>& overrides) {
  const std::string text = scenario_yaml(req, host, net, policy, hosts, with_data, with_failures, usable_gb);
  return parse_scenario(text, req.source + " (candidate " + std::to_string(hosts) + " x " + host.label + ")", overrides,
                        catalog);
}

std::string reason_of(const InvalidArgument& e) {
  std::string m = e.what();
  // "<source> (candidate ...):LINE: key: message" -> "key: message"
  const std::size_t close = m.find("):");
  if (close != std::string::npos) {
    const std::size_t colon = m.find(": ", close + 2);
    if (colon != std::string::npos) return m.substr(colon + 2);
  }
  return m;
}

}  // namespace hcisim::detail
