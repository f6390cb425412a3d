// Scenario files (scenario.hpp). Schema, every key optional unless marked:
//   name, seed, replication (independent runs of one placement: every random stream but placement)
//   cluster:                               (required)
//     hosts (required), architecture: osa | esa, witness_host: bool (2-node),
//     failed_hosts: [esx02, ...] (hosts down for the whole run; the cluster runs degraded)
//     resync: {active: bool (rebuild their components during the run), throttle_mbps, outstanding}
//     host:                                (required) the template of the first `hosts` hosts
//       cpu: {model: <catalog>, sockets, cores (per socket), threads_per_core, ghz}
//       network: {speed_gbe, ports, teaming: failover | lacp, nic: <catalog>, mtu, transport: tcp | rdma,
//                 switch: <catalog>, fabric: single_switch | direct | leaf_spine, hosts_per_leaf,
//                 spines, uplink_gbe, rx_queues (0..64, default 4: receive queues (RSS) for vSAN's
//                 TCP traffic, one thread each; 0 leaves the receive work on the shared cores),
//                 rx_interrupt_us (0..1000: the shortest time between two receive interrupts of
//                 a queue; default the NIC's catalog figure, 50 without a catalog NIC; 0 = off)}
//       disk_groups: [{cache: D, capacity: [D, ...]}]             (OSA)
//       pool: [D, ...]                                             (ESA)
//       where D = catalog name | {device: <catalog>, count, connection} | inline figures
//     more_hosts: [{count, cpu, disk_groups | pool}, ...]   hosts that differ, after the `hosts`
//                 of `host` (esx01..), on the cluster's network; 64 hosts in all
//     osa: {write_buffer_gb, destage_start_fill, congestion_start_fill, ...}
//     esa: {lfs_overhead, gc_factor, stripe_unit_kb, cpu_per_io_factor}
//   policy: {raid: raid1 | raid5 | raid6, ftt, checksum, encryption, stripe_width (1..12)}
//   data_services: {dedupe, compression}
//   workload: one of hcibench: <job name> | diskspd: "<command line>" | fio: "<options>" |
//             preset: oltp32k | easy_run: <profile> (with easy_run_release: the HCIBench
//             release, default 2.8.4: its layout), then any explicit field below overrides:
//             vms, vmdks_per_vm, outstanding_per_vmdk, block_size, read_pct, random_pct,
//             working_set_pct, vmdk_size, compress_pct, dedupe_pct, duration_s, warmup_s, history_s,
//             iops_limit_per_vm, latency_target_ms, vscsi (pvscsi | lsilogic),
//             vscsi_disk_queue, vscsi_adapter_queue (0: the adapter's default)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>
#include <vector>

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

#include "hcisim/core/check.hpp"
#include "hcisim/scenario/scenario.hpp"
#include "hcisim/storage/capacity.hpp"
#include "hcisim/workload/vm_workload.hpp"
#include "hcisim/workload/workload_parsers.hpp"
#include "yaml_reader.hpp"

namespace hcisim {

namespace {

using detail::YamlReader;

// The most nodes a --set value may expand to. Aliases copy their anchor's subtree, so a few
// hundred bytes of nested aliases can stand for billions of nodes (fuzz review D3); no
// scenario value comes near this.
constexpr int kMaxSetNodes = 10000;

// A copy of `n` built node by node, so it carries no position: errors about it then say
// "(--set)" instead of pointing at a line of the scenario file (YamlReader::where).
// `budget` counts the nodes still allowed; the copy stops when it runs out.
YAML::Node without_marks(const YAML::Node& n, int& budget) {
  if (--budget < 0) throw InvalidArgument("");
  if (n.IsScalar()) return YAML::Node(n.Scalar());
  if (n.IsSequence()) {
    YAML::Node out(YAML::NodeType::Sequence);
    for (const auto& item : n) out.push_back(without_marks(item, budget));
    return out;
  }
  if (n.IsMap()) {
    YAML::Node out(YAML::NodeType::Map);
    for (const auto& kv : n) out[without_marks(kv.first, budget)] = without_marks(kv.second, budget);
    return out;
  }
  return YAML::Node(YAML::NodeType::Null);
}

// yaml-cpp's depth guard reports "bad file"; say what it means (fuzz review D14).
std::string yaml_error(const YAML::Exception& e) {
  if (dynamic_cast<const YAML::DeepRecursion*>(&e) != nullptr)
    return "lists or maps nested too deeply (the YAML reader stops at 2000 levels)";
  return e.msg;
}

// Counts a document's nodes as the parser streams them, before any tree is built: yaml-cpp
// builds the whole tree first, and 500,000 unknown keys (5.4 MB) took 476 MB before the
// first was reported (fuzz review D19). A scenario has a few hundred nodes.
constexpr int kMaxFileNodes = 100000;
class NodeBudget final : public YAML::EventHandler {
 public:
  explicit NodeBudget(std::string source) : source_(std::move(source)) {}
  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t) override { count(m); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { count(m); }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t, const std::string&) override { count(m); }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    count(m);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    count(m);
  }
  void OnMapEnd() override {}

 private:
  void count(const YAML::Mark& m) {
    if (++nodes_ > kMaxFileNodes)
      throw InvalidArgument(source_ + ":" + std::to_string(m.line + 1) + ": more than " + std::to_string(kMaxFileNodes) +
                            " YAML nodes (keys, values, list items); a scenario has a few hundred");
  }
  std::string source_;
  int nodes_ = 0;
};

// --set key.path=value: replace or create the node at the path.
void apply_override(YAML::Node& root, const std::string& assignment_text) {
  const std::string assignment = detail::shorten(assignment_text);
  const auto eq = assignment_text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InvalidArgument("--set '" + assignment + "' is not allowed; expected key.path=value, e.g. workload.vms=16");
  const std::string path = assignment_text.substr(0, eq);
  YAML::Node value;
  try {
    int budget = kMaxSetNodes;
    value = without_marks(YAML::Load(assignment_text.substr(eq + 1)), budget);
  } catch (const YAML::Exception& e) {
    throw InvalidArgument("--set '" + assignment + "': value is not valid YAML (" + yaml_error(e) + ")");
  } catch (const InvalidArgument&) {
    throw InvalidArgument("--set '" + path + "': the value expands to more than " + std::to_string(kMaxSetNodes) +
                          " YAML nodes (aliases copy their anchor's nodes); give a smaller value");
  }
  std::vector<std::string> keys;
  std::stringstream ss(path);
  for (std::string k; std::getline(ss, k, '.');) keys.push_back(k);
  // In a list (workload.groups, cluster.more_hosts) a key is an item's index from 0, or the
  // name of a group: workload.groups.1.vms=4, workload.groups.backup.block_size=1m.
  const auto item_of = [&](const YAML::Node& list, const std::string& key) -> std::size_t {
    if (!key.empty() && key.find_first_not_of("0123456789") == std::string::npos && key.size() < 6) {
      const std::size_t i = std::stoul(key);
      if (i < list.size()) return i;
    } else {
      for (std::size_t i = 0; i < list.size(); ++i)
        if (list[i].IsMap() && list[i]["name"] && list[i]["name"].IsScalar() && list[i]["name"].Scalar() == key) return i;
    }
    throw InvalidArgument("--set '" + assignment + "': '" + key + "' is not an item of the list (" +
                          std::to_string(list.size()) + " items: an index from 0, or a group's name)");
  };
  // Walk down with fresh handles (yaml-cpp nodes are references; assignment would rebind).
  std::vector<YAML::Node> chain{root};
  for (std::size_t i = 0; i + 1 < keys.size(); ++i) {
    YAML::Node next;
    if (chain.back().IsSequence()) {
      next = chain.back()[item_of(chain.back(), keys[i])];
    } else {
      next = chain.back()[keys[i]];
      if (!next.IsDefined() || next.IsNull()) {
        chain.back()[keys[i]] = YAML::Node(YAML::NodeType::Map);
        next = chain.back()[keys[i]];
      }
    }
    if (!next.IsMap() && !next.IsSequence())
      throw InvalidArgument("--set '" + assignment + "': '" + keys[i] + "' is not a map or a list");
    chain.push_back(next);
  }
  if (chain.back().IsSequence()) chain.back()[item_of(chain.back(), keys.back())] = value;
  else chain.back()[keys.back()] = value;
}

DriveSpec connect(const DeviceSpec& d, const std::string& connection, const HardwareCatalog& cat) {
  std::string c = connection;
  if (c.empty()) {
    if (d.interface == "sas") c = "sas-hba";
    else if (d.interface == "sata") c = "sata-hba";
    else if (d.interface == "usb-nvme") c = "usb-nvme";
    else c = "nvme-direct";
  }
  return DriveSpec{d, cat.connection(c)};
}

// D = catalog name | {device: name, count, connection} | inline figures (+ count, connection).
std::vector<DriveSpec> read_drives(const YamlReader& r, const HardwareCatalog& cat, bool allow_count) {
  auto lookup = [&](const std::string& name, const YAML::Node& at) -> DeviceSpec {
    try {
      return cat.device(name);
    } catch (const InvalidArgument& e) {
      throw InvalidArgument(r.where(at) + ": " + r.path() + ": " + e.what());
    }
  };
  if (r.is_scalar()) return {connect(lookup(r.scalar(), r.node()), "", cat)};
  if (allow_count)
    r.expect_map({"device", "count", "connection", "name", "kind", "interface", "capacity_gb", "read_iops_4k",
                  "write_iops_4k", "read_latency_us", "write_latency_us", "seq_read_mbps", "seq_write_mbps", "seq_mbps",
                  "rpm", "seek_ms"});
  else
    r.expect_map({"device", "connection", "name", "kind", "interface", "capacity_gb", "read_iops_4k", "write_iops_4k",
                  "read_latency_us", "write_latency_us", "seq_read_mbps", "seq_write_mbps", "seq_mbps", "rpm",
                  "seek_ms"});
  const long count = allow_count ? r.integer("count", 1, 1, 7 * 5) : 1;
  DeviceSpec d;
  if (r.has("device")) {
    d = lookup(r.text("device", ""), r.node()["device"]);
  } else {
    d.name = r.text("name", "inline-" + r.path());
    const std::string kind = r.choice("kind", "ssd", {"ssd", "hdd"});
    d.kind = kind == "ssd" ? DeviceKind::ssd : DeviceKind::hdd;
    d.interface = r.choice("interface", d.kind == DeviceKind::hdd ? "sas" : "nvme", {"nvme", "sas", "sata", "usb-nvme"});
    d.capacity_gb = r.required_number("capacity_gb");
    const double seq = r.number("seq_mbps", 0);
    d.seq_read_mbps = r.number("seq_read_mbps", seq);
    d.seq_write_mbps = r.number("seq_write_mbps", seq);
    if (d.kind == DeviceKind::ssd) {
      d.read_iops_4k = r.required_number("read_iops_4k");
      d.write_iops_4k = r.required_number("write_iops_4k");
      d.read_latency_us = r.required_number("read_latency_us");
      d.write_latency_us = r.required_number("write_latency_us");
    } else {
      d.rpm = r.required_number("rpm");
      d.seek_ms = r.required_number("seek_ms");
    }
    d.source = "inline in " + r.path();
    try {
      d.validate();
    } catch (const InvalidArgument& e) {
      r.fail(e.what());
    }
  }
  std::string connection = r.text("connection", "");
  DriveSpec drive;
  try {
    drive = connect(d, connection, cat);
  } catch (const InvalidArgument& e) {
    r.fail(e.what());
  }
  return std::vector<DriveSpec>(static_cast<std::size_t>(count), drive);
}

std::vector<DriveSpec> read_drive_list(const YamlReader& r, const HardwareCatalog& cat) {
  std::vector<DriveSpec> out;
  if (!r.is_sequence()) {
    auto one = read_drives(r, cat, true);
    out.insert(out.end(), one.begin(), one.end());
    return out;
  }
  for (std::size_t i = 0; i < r.size(); ++i) {
    auto some = read_drives(r.item(i), cat, true);
    out.insert(out.end(), some.begin(), some.end());
    if (out.size() > 64) r.item(i).fail("more than 64 devices in one list; at most 64 are allowed");
  }
  return out;
}

SwitchSpec default_switch(double gbps, const HardwareCatalog& cat) {
  if (gbps <= 10) return cat.network_switch("dell-s4048-on");
  if (gbps <= 25) return cat.network_switch("dell-s5248f-on");
  return cat.network_switch("dell-s5232f-on");
}

// A host's own parts: its CPU and its disk groups or storage pool (the network is the
// cluster's). `h` is cluster.host or an item of cluster.more_hosts.
HostSpec read_host_hardware(const YamlReader& h, const HardwareCatalog& cat) {
  HostSpec host;
  // CPU: a catalog model and/or explicit figures.
  host.cpu.name = "cpu";
  host.cpu.cores_per_socket = 0;
  host.cpu.threads_per_core = 2;
  if (h.has("cpu")) {
    const YamlReader cpu = h.child("cpu");
    cpu.expect_map({"model", "sockets", "cores", "threads_per_core", "ghz"});
    if (cpu.has("model")) {
      try {
        host.cpu = cat.cpu(cpu.text("model", ""));
      } catch (const InvalidArgument& e) {
        cpu.fail(e.what());
      }
    }
    host.cpu.sockets = static_cast<int>(cpu.integer("sockets", host.cpu.sockets, 1, 8));
    host.cpu.cores_per_socket = static_cast<int>(cpu.integer("cores", host.cpu.cores_per_socket, 1, 256));
    host.cpu.threads_per_core = static_cast<int>(cpu.integer("threads_per_core", host.cpu.threads_per_core, 1, 8));
    host.cpu.ghz = cpu.number("ghz", host.cpu.ghz);
    if (host.cpu.cores_per_socket == 0) cpu.fail("missing key 'cores' (or a catalog 'model')");
    if (!(host.cpu.ghz > 0)) {
      // The value as typed, at its key (fuzz review D15: '0.000000' at the cpu map's line).
      const bool typed = cpu.has("ghz");
      cpu.fail_value(cpu.key_path("ghz"), typed ? cpu.text("ghz", "") : std::to_string(host.cpu.ghz), "a clock > 0 GHz",
                     typed ? cpu.node()["ghz"] : cpu.node());
    }
  } else {
    h.fail("missing key 'cpu' ({cores, ghz} or {model})");
  }
  // Storage.
  if (h.has("disk_groups")) {
    const YamlReader groups = h.child("disk_groups");
    if (!groups.is_sequence()) groups.fail("expected a list of {cache, capacity}");
    // Counted before any group is read: a list of thousands of aliased groups was expanded
    // (and copied to every host) before the 1-5 rule fired (fuzz review D4).
    if (groups.size() > 5) groups.fail(std::to_string(groups.size()) + " disk groups; an OSA host has 1 to 5");
    for (std::size_t g = 0; g < groups.size(); ++g) {
      const YamlReader dg = groups.item(g);
      dg.expect_map({"cache", "capacity"});
      DiskGroupSpec spec;
      spec.cache = read_drives(dg.child("cache"), cat, false).front();
      spec.capacity = read_drive_list(dg.child("capacity"), cat);
      host.disk_groups.push_back(spec);
    }
  }
  if (h.has("pool")) host.pool = read_drive_list(h.child("pool"), cat);
  return host;
}

void read_cluster(const YamlReader& c, const HardwareCatalog& cat, ClusterSpec& out, std::vector<std::string>& notes) {
  c.expect_map({"hosts", "architecture", "witness_host", "host", "more_hosts", "osa", "esa", "client_cache_mb",
                "failed_hosts", "resync", "capacity_reserve"});
  const long hosts = c.integer("hosts", 0, 1, 64);
  if (hosts == 0) c.fail("missing key 'cluster.hosts' (1 to 64)");
  out.architecture = c.choice("architecture", "osa", {"osa", "esa"}) == "osa" ? Architecture::osa : Architecture::esa;
  out.witness_host = c.flag("witness_host", false);
  // ESA exists from vSAN 8, whose rule is Reserved Capacity (not on 2-node clusters); OSA
  // clusters default to the older slack guidance that the seeds' vSAN versions used.
  const char* default_reserve = out.architecture == Architecture::esa && !out.witness_host ? "reserved" : "slack";
  out.capacity_reserve = c.choice("capacity_reserve", default_reserve, {"slack", "reserved"}) == "slack"
                             ? CapacityReserve::slack
                             : CapacityReserve::reserved;
  if (out.capacity_reserve == CapacityReserve::reserved && out.witness_host)
    c.fail_value(c.key_path("capacity_reserve"), "reserved",
                 "slack: a 2-node cluster (witness_host) has no Reserved Capacity", c.node()["capacity_reserve"]);
  out.client_cache_mb = c.number("client_cache_mb", out.client_cache_mb);

  const YamlReader h = c.child("host");
  h.expect_map({"cpu", "network", "disk_groups", "pool"});
  // Hosts that differ (an expansion of a newer generation): `hosts` of `host`, then each
  // cluster.more_hosts item's `count` of its own CPU and storage, on the cluster's network.
  std::vector<std::pair<long, HostSpec>> templates{{hosts, read_host_hardware(h, cat)}};
  long total = hosts;
  if (c.has("more_hosts")) {
    const YamlReader more = c.child("more_hosts");
    if (!more.is_sequence() || more.size() == 0)
      more.fail("expected a list of {count, cpu, disk_groups or pool}: hosts beyond cluster.hosts that differ from cluster.host");
    if (more.size() > 64) more.fail(std::to_string(more.size()) + " items; a cluster has at most 64 hosts");
    for (std::size_t i = 0; i < more.size(); ++i) {
      const YamlReader m = more.item(i);
      m.expect_map({"count", "cpu", "disk_groups", "pool"});
      const long count = m.integer("count", 0, 1, 64);
      if (count == 0) m.fail("missing key 'count' (1 to 64 hosts of this kind)");
      total += count;
      if (total > 64)
        m.fail_value(m.key_path("count"), std::to_string(count),
                     "at most " + std::to_string(64 - (total - count)) + ": a cluster has 1 to 64 hosts in all",
                     m.node()["count"]);
      templates.emplace_back(count, read_host_hardware(m, cat));
    }
  }
  // Network: NIC, teaming, fabric.
  const YamlReader n = h.child("network");
  n.expect_map({"speed_gbe", "ports", "teaming", "nic", "mtu", "transport", "switch", "fabric", "hosts_per_leaf",
                "spines", "uplink_gbe", "rx_queues", "rx_interrupt_us"});
  FabricSpec& f = out.fabric;
  if (n.has("nic")) {
    try {
      f.nic = cat.nic(n.text("nic", ""));
    } catch (const InvalidArgument& e) {
      n.fail(e.what());
    }
  } else {
    f.nic.name = "generic-nic";
    f.nic.speed_gbps = n.required_number("speed_gbe");
    f.nic.ports = 2;
    f.nic.latency_us = 5;   // typical server NIC + stack per side (data/nics.csv notes)
    // Intel's default throttle of 20,000 interrupts a second; the catalog's drivers default
    // to 10-50 us (data/nics.csv notes).
    f.nic.rx_interrupt_us = 50;
  }
  f.nic.rx_interrupt_us = n.number("rx_interrupt_us", f.nic.rx_interrupt_us);
  if (!(f.nic.rx_interrupt_us >= 0 && f.nic.rx_interrupt_us <= 1000))
    n.fail_value(n.key_path("rx_interrupt_us"), n.text("rx_interrupt_us", ""),
                 "0 (an interrupt per packet) .. 1000 us between receive interrupts", n.node()["rx_interrupt_us"]);
  const double speed = n.number("speed_gbe", f.nic.speed_gbps);
  try {
    validate_link_speed(speed, n.key_path("speed_gbe"));
  } catch (const InvalidArgument& e) {
    throw InvalidArgument(n.where(n.has("speed_gbe") ? n.node()["speed_gbe"] : n.node()) + ": " + e.what());
  }
  f.link_gbps = speed;
  // A part asked to do more than its catalog figure: modelled as asked, and said (Scenario::warnings).
  auto exceeds = [&](const char* key, double value, double limit, const char* part, const std::string& name) {
    const bool speed_key = std::string_view(key) == "speed_gbe";
    char note[320];
    if (speed_key)
      std::snprintf(note, sizeof note, "%s = %g exceeds the %g GbE ports of %s '%s': modelled as that %s at %g GbE",
                    n.key_path(key).c_str(), value, limit, part, name.c_str(), part, value);
    else
      std::snprintf(note, sizeof note, "%s = %g exceeds the %g ports of %s '%s': modelled with %g ports",
                    n.key_path(key).c_str(), value, limit, part, name.c_str(), value);
    notes.emplace_back(note);
  };
  if (n.has("nic") && f.nic.speed_gbps < speed) exceeds("speed_gbe", speed, f.nic.speed_gbps, "NIC", f.nic.name);
  if (f.nic.speed_gbps < speed) f.nic.speed_gbps = speed;
  const long ports = n.integer("ports", 1, 1, 8);
  if (n.has("nic") && ports > f.nic.ports)
    exceeds("ports", static_cast<double>(ports), f.nic.ports, "NIC", f.nic.name);
  // More ports than the card has take more cards (report/cost.hpp prices cards).
  f.nic_cards = n.has("nic") ? static_cast<int>((ports + f.nic.ports - 1) / f.nic.ports) : 1;
  f.nic.ports = std::max(f.nic.ports, static_cast<int>(ports));
  f.teaming = n.choice("teaming", ports > 1 ? "lacp" : "failover", {"failover", "lacp"}) == "lacp" ? Teaming::lacp
                                                                                                   : Teaming::failover;
  f.active_ports = f.teaming == Teaming::lacp ? static_cast<int>(ports) : 1;
  f.rx_queues = static_cast<int>(n.integer("rx_queues", f.rx_queues, 0, 64));
  out.network.framing.mtu = static_cast<int>(n.integer("mtu", 1500, 576, 9216));
  out.network.framing.transport = n.choice("transport", "tcp", {"tcp", "rdma"}) == "tcp" ? Transport::tcp : Transport::rdma;
  for (const char* key : {"rx_queues", "rx_interrupt_us"})
    if (n.has(key) && out.network.framing.transport == Transport::rdma)
      notes.push_back(n.key_path(key) + " has no effect with transport rdma: RDMA receives without the " +
                      "vmkernel's receive queues");
  if (n.has("rx_interrupt_us") && f.rx_queues == 0)
    notes.push_back(n.key_path("rx_interrupt_us") + " has no effect with rx_queues 0: moderation is modelled on " +
                    "the receive queues");
  if (n.has("switch")) {
    try {
      f.leaf = cat.network_switch(n.text("switch", ""));
    } catch (const InvalidArgument& e) {
      n.fail(e.what());
    }
    if (f.leaf.port_speed_gbps > 0 && f.leaf.port_speed_gbps < speed)
      exceeds("speed_gbe", speed, f.leaf.port_speed_gbps, "switch", f.leaf.name);
  } else {
    f.leaf = default_switch(speed, cat);
  }
  const std::string fabric = n.choice("fabric", "single_switch", {"single_switch", "direct", "leaf_spine"});
  f.kind = fabric == "direct" ? FabricKind::direct : fabric == "leaf_spine" ? FabricKind::leaf_spine : FabricKind::single_switch;
  f.hosts_per_leaf = static_cast<int>(n.integer("hosts_per_leaf", std::min<long>(total, 16), 1, 1024));
  f.spines = static_cast<int>(n.integer("spines", 2, 1, 64));
  f.uplink_gbps = n.number("uplink_gbe", 100);
  f.spine = cat.network_switch("dell-s5232f-on");
  for (const auto& [count, host] : templates)
    for (long i = 0; i < count; ++i) {
      HostSpec copy = host;
      char name[32];
      std::snprintf(name, sizeof name, "esx%02zu", out.hosts.size() + 1);
      copy.name = name;
      out.hosts.push_back(copy);
    }
  if (c.has("failed_hosts")) {
    // Hosts that are down for the whole run, by name (ClusterSpec::failed_hosts).
    const YamlReader down = c.child("failed_hosts");
    if (!down.is_sequence()) down.fail("expected a list of host names, e.g. [esx02]");
    for (std::size_t i = 0; i < down.size(); ++i) {
      const std::string name = down.item(i).scalar();
      const auto it = std::find_if(out.hosts.begin(), out.hosts.end(), [&](const HostSpec& hs) { return hs.name == name; });
      if (it == out.hosts.end())
        down.item(i).fail("'" + name + "' is not a host of this cluster (esx01 .. " + out.hosts.back().name + ")");
      out.failed_hosts.push_back(static_cast<int>(it - out.hosts.begin()));
    }
  }
  if (c.has("resync")) {
    const YamlReader rs = c.child("resync");
    rs.expect_map({"active", "throttle_mbps", "outstanding"});
    out.resync.active = rs.flag("active", false);
    out.resync.throttle_mbps = rs.number("throttle_mbps", 0);
    const double t = out.resync.throttle_mbps;
    if (!(t == 0 || (t >= 1 && t <= 512)))   // esxcli vsan resync throttle's range
      rs.fail_value(rs.key_path("throttle_mbps"), rs.text("throttle_mbps", ""), "0 (no cap) or 1 .. 512 Mb/s",
                    rs.node()["throttle_mbps"]);
    out.resync.outstanding = static_cast<int>(rs.integer("outstanding", out.resync.outstanding, 1, 64));
    if (out.resync.active && out.failed_hosts.empty())
      rs.fail("cluster.resync.active rebuilds the components of failed hosts; list them in cluster.failed_hosts");
  }
  if (c.has("osa")) {
    const YamlReader o = c.child("osa");
    o.expect_map({"write_buffer_gb", "hybrid_read_cache_share", "destage_start_fill", "destage_idle_fill", "destage_batch_blocks",
                  "destage_depth", "congestion_start_fill", "congestion_full_fill", "congestion_delay_a_us",
                  "congestion_delay_b", "stripe_unit_kb", "dedupe_lookup_miss", "lsom_worlds_per_dg",
                  "lsom_cost_factor", "destage_reduction"});
    OsaSettings& s = out.osa;
    const double buffer_gb = o.number("write_buffer_gb", static_cast<double>(s.write_buffer.count()) / 1e9);
    if (!(buffer_gb >= 0.001 && buffer_gb <= 1e5))
      o.fail_value(o.key_path("write_buffer_gb"), o.text("write_buffer_gb", ""), "0.001 .. 100000 GB", o.node()["write_buffer_gb"]);
    s.write_buffer = Bytes{static_cast<std::int64_t>(buffer_gb * 1e9)};
    s.hybrid_read_cache_share = o.number("hybrid_read_cache_share", s.hybrid_read_cache_share);
    s.destage_start_fill = o.number("destage_start_fill", s.destage_start_fill);
    s.destage_idle_fill = o.number("destage_idle_fill", s.destage_idle_fill);
    s.destage_batch_blocks = static_cast<int>(o.integer("destage_batch_blocks", s.destage_batch_blocks, 1, 4096));
    s.destage_depth = static_cast<int>(o.integer("destage_depth", s.destage_depth, 1, 256));
    s.congestion_start_fill = o.number("congestion_start_fill", s.congestion_start_fill);
    s.congestion_full_fill = o.number("congestion_full_fill", s.congestion_full_fill);
    s.congestion_delay_a_us = o.number("congestion_delay_a_us", s.congestion_delay_a_us);
    s.congestion_delay_b = o.number("congestion_delay_b", s.congestion_delay_b);
    s.stripe_unit = Bytes{o.integer("stripe_unit_kb", s.stripe_unit.count() / 1024, 4, 65536) * 1024};
    s.dedupe_lookup_miss = o.number("dedupe_lookup_miss", s.dedupe_lookup_miss);
    s.lsom_worlds_per_dg = static_cast<int>(o.integer("lsom_worlds_per_dg", s.lsom_worlds_per_dg, 0, 64));
    s.lsom_cost_factor = o.number("lsom_cost_factor", s.lsom_cost_factor);
    s.reduction_on_world =
        o.choice("destage_reduction", s.reduction_on_world ? "world" : "shared", {"world", "shared"}) == "world";
  }
  if (c.has("esa")) {
    const YamlReader e = c.child("esa");
    e.expect_map({"lfs_overhead", "gc_factor", "stripe_unit_kb", "cpu_per_io_factor"});
    out.esa.lfs_overhead = e.number("lfs_overhead", out.esa.lfs_overhead);
    out.esa.gc_factor = e.number("gc_factor", out.esa.gc_factor);
    out.esa.cpu_per_io_factor = e.number("cpu_per_io_factor", out.esa.cpu_per_io_factor);
    out.esa.stripe_unit = Bytes{e.integer("stripe_unit_kb", out.esa.stripe_unit.count() / 1024, 4, 65536) * 1024};
  }
}

// One workload's keys (`workload:`, or a group with the workload's keys laid under its own).
// `threads_per_vmdk` gets DiskSpd's -t.
WorkloadSpec read_workload_spec(const YamlReader& w, const ClusterSpec& cluster, int& threads_per_vmdk) {
  w.expect_map({"hcibench", "diskspd", "fio", "preset", "easy_run", "easy_run_release", "vms", "vmdks_per_vm", "outstanding_per_vmdk",
                "block_size", "read_pct", "random_pct", "working_set_pct", "vmdk_size", "compress_pct", "dedupe_pct",
                "duration_s", "warmup_s", "history_s", "iops_limit_per_vm", "latency_target_ms", "vscsi",
                "vscsi_disk_queue", "vscsi_adapter_queue", "auto_precision_pct", "auto_max_s", "name", "groups"});
  int sources = 0;
  for (const char* k : {"hcibench", "diskspd", "fio", "preset", "easy_run"}) sources += w.has(k);
  if (sources > 1) w.fail("give at most one of hcibench, diskspd, fio, preset, easy_run");
  WorkloadSpec spec;
  // A parser's complaint is put at its key's line (or "(--set)"); the reader's own errors
  // (a list where a value belongs) already carry their place and are not wrapped again
  // (fuzz review D13: "file:20: workload: file (--set): ...").
  const auto at_key = [&w](const char* key, const auto& parse) {
    const std::string text = w.text(key, "");
    try {
      return parse(text);
    } catch (const InvalidArgument& e) {
      throw InvalidArgument(w.where(w.node()[key]) + ": " + e.what());
    }
  };
  if (w.has("hcibench")) spec = at_key("hcibench", [](const std::string& v) { return parse_hcibench_name(v); });
  else if (w.has("diskspd")) spec = at_key("diskspd", [](const std::string& v) { return parse_diskspd(v); });
  else if (w.has("fio")) spec = at_key("fio", [](const std::string& v) { return parse_fio_options(v); });
  else if (w.has("preset")) spec = at_key("preset", [](const std::string& v) { return preset(v); });
  if (w.has("easy_run_release") && !w.has("easy_run"))
    w.fail("easy_run_release sets the layout of HCIBench's Easy Run; give it with easy_run: <profile>");
  if (w.has("easy_run")) {
    const EasyRunRelease release =
        w.has("easy_run_release")
            ? at_key("easy_run_release", [](const std::string& v) { return parse_easy_run_release(v); })
            : EasyRunRelease::hcibench_2_8_4;
    spec = at_key("easy_run", [&cluster, release](const std::string& v) {
      return easy_run(cluster, parse_easy_run_profile(v), release);
    });
  }
  spec.vms = static_cast<int>(w.integer("vms", spec.vms, 0, 10000));
  spec.vmdks_per_vm = static_cast<int>(w.integer("vmdks_per_vm", spec.vmdks_per_vm, 1, 64));
  spec.outstanding_per_vmdk = static_cast<int>(w.integer("outstanding_per_vmdk", spec.outstanding_per_vmdk, 1, 1024));
  if (w.has("block_size"))
    spec.block = at_key("block_size", [&w](const std::string& v) { return parse_size(v, w.key_path("block_size")); });
  if (w.has("vmdk_size"))
    spec.vmdk_size = at_key("vmdk_size", [&w](const std::string& v) { return parse_size(v, w.key_path("vmdk_size")); });
  spec.read_pct = w.number("read_pct", spec.read_pct);
  spec.random_pct = w.number("random_pct", spec.random_pct);
  spec.working_set_pct = w.number("working_set_pct", spec.working_set_pct);
  spec.compress_pct = w.number("compress_pct", spec.compress_pct);
  spec.dedupe_pct = w.number("dedupe_pct", spec.dedupe_pct);
  // duration_s: a number of seconds, or auto (run length from the statistics).
  if (w.has("duration_s")) {
    const YAML::Node d = w.node()["duration_s"];
    if (d.IsScalar() && d.Scalar() == "auto") spec.auto_duration = true;
    else if (d.IsScalar() && d.Scalar().find_first_not_of("0123456789.eE+-") != std::string::npos)
      w.fail_value(w.key_path("duration_s"), d.Scalar(), "a number of seconds, or auto", d);
    else spec.duration_s = w.number("duration_s", spec.duration_s);
  }
  spec.auto_precision_pct = w.number("auto_precision_pct", spec.auto_precision_pct);
  spec.auto_max_s = w.number("auto_max_s", spec.auto_max_s);
  spec.warmup_s = w.number("warmup_s", spec.warmup_s);
  spec.history_s = w.number("history_s", spec.history_s);
  spec.iops_limit_per_vm = w.number("iops_limit_per_vm", spec.iops_limit_per_vm);
  spec.latency_target_ms = w.number("latency_target_ms", spec.latency_target_ms);
  spec.vscsi = w.choice("vscsi", adapter_name(spec.vscsi), {"pvscsi", "lsilogic"}) == "pvscsi" ? VscsiAdapter::pvscsi
                                                                                                 : VscsiAdapter::lsilogic;
  spec.vscsi_disk_queue = static_cast<int>(w.integer("vscsi_disk_queue", spec.vscsi_disk_queue, 0, 1024));
  spec.vscsi_adapter_queue = static_cast<int>(w.integer("vscsi_adapter_queue", spec.vscsi_adapter_queue, 0, 4096));
  if (w.has("name")) spec.name = w.text("name", spec.name);
  threads_per_vmdk = std::min(spec.threads_per_vmdk, spec.outstanding_per_vmdk);
  try {
    spec.validate();
  } catch (const InvalidArgument& e) {
    // A complaint about one key goes to that key's line, or to "(--set)" when the command line
    // gave it; one about several keys, or a value a tool's command line set, stays at
    // `workload:` (fuzz review D15).
    const std::string msg = e.what();
    const std::string prefix = "workload ";
    if (msg.rfind(prefix, 0) != 0) w.fail(msg);
    const std::string rest = msg.substr(prefix.size());
    const std::string key = rest.substr(0, rest.find(' '));
    const std::string after = rest.substr(key.size());
    const bool one_key = after.rfind(" = ", 0) == 0 || after.rfind(" bytes = ", 0) == 0;
    if (one_key && w.has(key.c_str())) throw InvalidArgument(w.where(w.node()[key]) + ": " + w.key_path(key.c_str()) + rest.substr(key.size()));
    w.fail(rest);
  }
  return spec;
}

// workload: one workload, or `groups` that run at once on the cluster (issue 23, item 6):
// each group is the workload map with the group's own keys laid over it (a group's hcibench,
// fio, preset or easy_run replaces the workload's). The run's length, warm-up and history are
// the whole run's, and the data profile (compress_pct, dedupe_pct) the cluster's: the same in
// every group.
void read_workload(const YamlReader& w, const ClusterSpec& cluster, Scenario& s, std::vector<std::string>& notes) {
  if (!w.has("groups")) {
    s.workload = read_workload_spec(w, cluster, s.threads_per_vmdk);
    return;
  }
  const YamlReader list = w.child("groups");
  if (!list.is_sequence() || list.size() == 0)
    list.fail("expected a list of workload groups, each a map of workload keys, e.g. [{name: oltp, vms: 8}, "
              "{name: backup, vms: 2, block_size: 256k, read_pct: 0}]");
  if (list.size() > static_cast<std::size_t>(VmWorkload::kMaxGroups))
    list.fail(std::to_string(list.size()) + " groups; at most " + std::to_string(VmWorkload::kMaxGroups));
  // The workload's own keys are read once, at their lines, whatever the groups then do.
  int unused = 1;
  (void)read_workload_spec(w, cluster, unused);
  if (w.has("latency_target_ms") && w.number("latency_target_ms", 0) > 0)
    w.fail("latency_target_ms (HCIBench's latency-target mode) drives one workload; it cannot be combined with groups");
  if (w.has("name")) w.fail("name: with groups each group has its own name (workload.groups[i].name)");
  static const char* const kSources[] = {"hcibench", "diskspd", "fio", "preset", "easy_run"};
  static const char* const kRunKeys[] = {"duration_s", "warmup_s", "history_s", "auto_precision_pct", "auto_max_s"};
  const auto in = [](const auto& list_of, const std::string& k) {
    return std::find_if(std::begin(list_of), std::end(list_of), [&](const char* x) { return k == x; }) != std::end(list_of);
  };
  for (const char* k : {"easy_run", "diskspd"})
    if (w.has(k))
      w.fail(std::string(k) + (std::string(k) == "easy_run"
                                   ? ": HCIBench's Easy Run sizes one workload for the whole cluster; give the groups "
                                     "their own keys (or an hcibench or fio name)"
                                   : ": a DiskSpd command line (its per-thread tables) runs alone; give the groups "
                                     "hcibench, fio, preset or explicit keys"));
  // A key of the workload that every group gives itself does nothing: said (an error when
  // --set gave it, since the user meant it to change something).
  for (const auto& kv : w.node()) {
    const std::string key = kv.first.Scalar();
    if (key == "groups" || in(kRunKeys, key)) continue;
    bool used = false;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const YamlReader g = list.item(i);
      bool own_source = false;
      for (const char* k : kSources) own_source = own_source || g.has(k);
      used = used || !(g.has(key.c_str()) || own_source);
    }
    if (used) continue;
    const std::string what = w.key_path(key.c_str()) + " is given by every group (or replaced by its own source), so it " +
                             "changes nothing";
    if (kv.second.Mark().line < 0)
      throw InvalidArgument(w.where(kv.second) + ": " + what + "; set a group's: workload.groups.<index or name>." + key);
    notes.push_back(what);
  }
  for (std::size_t i = 0; i < list.size(); ++i) {
    const YamlReader g = list.item(i);
    if (!g.is_map()) g.fail("expected a map of workload keys, e.g. {name: oltp, vms: 8, block_size: 8k}");
    for (const char* k : kRunKeys)
      if (g.has(k))
        g.fail_value(g.key_path(k), g.text(k, ""), "no value here: the run's length is the whole run's; set workload." +
                                                       std::string(k) + " beside groups", g.node()[k]);
    for (const char* k : {"groups", "latency_target_ms", "diskspd", "easy_run"})
      if (g.has(k))
        g.fail(std::string(k) + (std::string(k) == "groups"              ? ": groups do not nest"
                                 : std::string(k) == "diskspd"           ? ": a DiskSpd command line (its per-thread tables) runs alone; a group takes hcibench, fio, preset or explicit keys"
                                 : std::string(k) == "easy_run"          ? ": HCIBench's Easy Run sizes one workload for the whole cluster; give the group its own keys"
                                                                         : ": HCIBench's latency-target mode drives one workload, not a group"));
    bool own_source = false;
    for (const char* k : kSources) own_source = own_source || g.has(k);
    // The workload's keys are laid under the group's in the document itself, so every value
    // keeps its own line for errors (a copy of the map would lose the marks), and taken out
    // again after (a group aliased twice must not see the first reading's keys). A group with
    // its own hcibench, fio or preset takes only the run's keys.
    YAML::Node merged = g.node();
    const YAML::Node& view = merged;
    std::vector<std::string> added;
    for (const auto& kv : w.node()) {
      const std::string key = kv.first.Scalar();
      if (key == "groups" || view[key]) continue;
      if (own_source && !in(kRunKeys, key)) continue;
      merged[key] = kv.second;
      added.push_back(key);
    }
    int threads = 1;
    WorkloadSpec spec;
    try {
      spec = read_workload_spec(g, cluster, threads);
    } catch (...) {
      for (const std::string& k : added) merged.remove(k);
      throw;
    }
    for (const std::string& k : added) merged.remove(k);
    if (threads > 1 || spec.tool == WorkloadTool::diskspd)
      g.fail("a DiskSpd command line (its per-thread tables) runs alone; a group takes hcibench, fio, preset, easy_run or explicit keys");
    spec.name = g.has("name") ? g.text("name", "") : "group" + std::to_string(i + 1);
    if (spec.name.empty()) g.fail("name: expected a group name");
    for (const WorkloadSpec& other : s.groups)
      if (other.name == spec.name) g.fail("name '" + spec.name + "' is given to two groups; each group needs its own");
    if (!s.groups.empty()) {
      const WorkloadSpec& first = s.groups.front();
      char buf[400];
      if (spec.compress_pct != first.compress_pct || spec.dedupe_pct != first.dedupe_pct) {
        std::snprintf(buf, sizeof buf,
                      "compress_pct %g and dedupe_pct %g differ from group 1's (%g, %g): the data profile is the "
                      "cluster's (one reduction ratio), so every group gives the same",
                      spec.compress_pct, spec.dedupe_pct, first.compress_pct, first.dedupe_pct);
        g.fail(buf);
      }
      // A source's own run length (fio --runtime, DiskSpd -d) would differ unseen.
      if (spec.duration_s != first.duration_s || spec.auto_duration != first.auto_duration ||
          spec.warmup_s != first.warmup_s || spec.history_s != first.history_s ||
          spec.auto_precision_pct != first.auto_precision_pct || spec.auto_max_s != first.auto_max_s) {
        std::snprintf(buf, sizeof buf,
                      "its run length (duration %g s, warm-up %g s, history %g s) differs from group 1's (%g, %g, %g), "
                      "set by a group's own source; the run's length is the whole run's: give workload.duration_s, "
                      "warmup_s and history_s beside groups",
                      spec.duration_s, spec.warmup_s, spec.history_s, first.duration_s, first.warmup_s, first.history_s);
        g.fail(buf);
      }
    }
    s.groups.push_back(spec);
  }
  s.workload = s.groups.front();
  s.threads_per_vmdk = 1;
}

}  // namespace

static Scenario parse_root(YAML::Node root, const std::string& source, const std::vector<std::string>& overrides,
                    const HardwareCatalog& catalog);

namespace {

// A catalog without calibration.yaml gives the model's uncalibrated constants: several times
// the IOPS of a calibrated run. The scenario says so (a warning in every output) and counts
// as an uncalibrated run by choice of data folder.
void note_missing_calibration(Scenario& s, const HardwareCatalog& catalog) {
  if (catalog.calibration_found()) return;
  s.warnings.push_back(catalog.dir() + "/calibration.yaml not found: the model runs with its uncalibrated constants");
  s.calibration = Scenario::Calibration::opted_out;
}

// The checks over cluster and workload together, for files and for scenarios built in code:
// the outstanding I/Os on this many hosts, and the VMs' data against usable capacity (an
// error past 100 times, a warning past 1). Throws InvalidArgument without a place.
void check_combination(Scenario& s) {
  const int hosts = static_cast<int>(s.cluster.hosts.size());
  double data_gb = 0, slots = 0;
  for (const WorkloadSpec& w : scenario_workloads(s)) {
    w.check_outstanding(hosts);
    const double vms = w.vm_count(hosts);
    slots += vms * w.vmdks_per_vm * w.outstanding_per_vmdk;
    // HCIBench writes every VMDK's working set before it measures: that data must fit.
    data_gb += vms * w.vmdks_per_vm * static_cast<double>(w.vmdk_size.count()) * w.working_set_pct / 100.0 / 1e9;
  }
  if (slots > 1e6) {
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "the groups keep %.0f I/Os outstanding in all (VMs x VMDKs x outstanding per VMDK); expected at most "
                  "1,000,000",
                  slots);
    throw InvalidArgument(buf);
  }
  const CapacityReport c = scenario_capacity(s);
  // A hundred times what the devices hold (before any reserve) is no longer a what-if but a
  // typo (fuzz review D5); the reserve rule must not turn a cluster into an error.
  const double holds_gb = std::max(0.0, c.raw_gb - c.metadata_gb) * c.reduction_ratio / (c.policy_factor * c.lfs_factor);
  if (data_gb > 100 * holds_gb) {
    char buf[320];
    std::snprintf(buf, sizeof buf,
                  "the VMs' data (%.0f GB = vms x vmdks_per_vm x vmdk_size x working_set_pct) is more than 100 times "
                  "what the cluster's devices hold (%.0f GB); expected at most %.0f GB (check vmdk_size and its unit)",
                  data_gb, holds_gb, 100 * holds_gb);
    throw InvalidArgument(buf);
  }
  const char* rule = s.cluster.capacity_reserve == CapacityReserve::slack ? "slack" : "reserved";
  if (!(c.usable_gb > 0)) {
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "cluster: the %s capacity reserve (%.0f GB) takes all of raw (%.0f GB): no VM data fits", rule,
                  c.slack_gb, c.raw_gb);
    s.warnings.emplace_back(buf);
  } else if (data_gb > c.usable_gb) {
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "workload: the VMs' data (%.0f GB = vms x vmdks_per_vm x vmdk_size x working_set_pct) exceeds the "
                  "cluster's usable capacity (%.0f GB after policy, data reduction and the %s reserve)",
                  data_gb, c.usable_gb, rule);
    s.warnings.emplace_back(buf);
  }
}

}  // namespace

Scenario parse_scenario(const std::string& text, const std::string& source, const std::vector<std::string>& overrides,
                        const HardwareCatalog& catalog) {
  YAML::Node root;
  try {
    {
      std::istringstream in(text);
      YAML::Parser parser(in);
      NodeBudget budget(source);
      while (parser.HandleNextDocument(budget)) {
      }
    }
    // Every document is read, so a later one is neither ignored nor left unchecked (fuzz
    // review D12); a scenario is exactly one.
    const std::vector<YAML::Node> docs = YAML::LoadAll(text);
    if (docs.size() > 1) {
      const int line = docs[1].Mark().line;   // -1 for an empty document
      throw InvalidArgument(source + (line >= 0 ? ":" + std::to_string(line + 1) : std::string()) +
                            ": a second YAML document; a scenario file holds one (remove the '---' and what follows)");
    }
    if (!docs.empty()) root = docs.front();
  } catch (const YAML::ParserException& e) {
    throw InvalidArgument(source + ":" + std::to_string(e.mark.line + 1) + ": not valid YAML: " + yaml_error(e));
  }
  if (!root.IsDefined() || root.IsNull())
    throw InvalidArgument(source + ": empty scenario; expected a map with the keys name, seed, cluster, policy, "
                                   "data_services and workload");
  if (!root.IsMap())
    throw InvalidArgument(source + ":" + std::to_string(root.Mark().line + 1) +
                          ": a scenario is a map with the keys name, seed, cluster, policy, data_services and workload");
  try {
    return parse_root(root, source, overrides, catalog);
  } catch (const YAML::Exception& e) {
    // yaml-cpp's own complaints (a key that is a list or map, a conversion it cannot make).
    throw InvalidArgument(source + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg +
                          " (keys are plain names; values as in examples/scenarios/)");
  }
}

static Scenario parse_root(YAML::Node root, const std::string& source, const std::vector<std::string>& overrides,
                    const HardwareCatalog& catalog) {
  for (const auto& o : overrides) apply_override(root, o);
  const YamlReader r(root, source, "");
  r.expect_map({"name", "seed", "replication", "cluster", "policy", "data_services", "workload"});
  Scenario s;
  s.source = source;
  s.prices = catalog.prices();
  s.name = r.text("name", source);
  s.seed = static_cast<std::uint64_t>(r.integer("seed", 1, 0, 2147483647L));
  s.replication = static_cast<std::uint64_t>(r.integer("replication", 0, 0, 2147483647L));
  catalog.calibration().apply_settings(s.cluster);   // the scenario's own keys may override
  read_cluster(r.child("cluster"), catalog, s.cluster, s.warnings);
  if (r.has("policy")) {
    const YamlReader p = r.child("policy");
    p.expect_map({"raid", "ftt", "checksum", "encryption", "stripe_width"});
    const std::string raid = p.choice("raid", "raid1", {"raid1", "raid5", "raid6"});
    s.cluster.policy.raid = raid == "raid1" ? RaidLevel::raid1 : raid == "raid5" ? RaidLevel::raid5 : RaidLevel::raid6;
    const long default_ftt = raid == "raid6" ? 2 : 1;
    s.cluster.policy.ftt = static_cast<int>(p.integer("ftt", default_ftt, 0, 3));
    s.cluster.policy.checksum = p.flag("checksum", true);
    s.cluster.policy.encryption = p.flag("encryption", false);
    s.cluster.policy.stripe_width = static_cast<int>(p.integer("stripe_width", 1, 1, 12));
    if (s.cluster.policy.stripe_width > 1 && s.cluster.architecture == Architecture::esa)
      s.warnings.emplace_back(p.where(p.node()["stripe_width"]) +
                              ": policy.stripe_width changes nothing on ESA here: a storage pool already spreads "
                              "every component over its devices by 1 MiB range");
  }
  if (r.has("data_services")) {
    const YamlReader d = r.child("data_services");
    d.expect_map({"dedupe", "compression", "reduction_ratio"});
    s.cluster.services.dedupe = d.flag("dedupe", false);
    s.cluster.services.compression = d.flag("compression", s.cluster.services.dedupe);
    // A planner's data-reduction ratio for the capacity line (1.5 for 1.5:1); the performance
    // model still takes the workload's compress_pct and dedupe_pct.
    if (d.has("reduction_ratio")) {
      const double ratio = d.number("reduction_ratio", 0);
      if (!(ratio >= 1 && ratio <= 100))
        d.fail_value(d.key_path("reduction_ratio"), d.text("reduction_ratio", ""),
                     "a ratio 1..100 (1.5 for 1.5:1)", d.node()["reduction_ratio"]);
      if (!s.cluster.services.compression && !s.cluster.services.dedupe)
        d.fail_value(d.key_path("reduction_ratio"), d.text("reduction_ratio", ""),
                     "no ratio while compression and dedupe are both off (vSAN reduces nothing then)",
                     d.node()["reduction_ratio"]);
      s.cluster.services.planned_reduction_ratio = ratio;
    }
  }
  catalog.calibration().apply_drives(s.cluster);
  try {
    s.cluster.validate();
  } catch (const InvalidArgument& e) {
    // Rules over the whole cluster: point at the key the message names when it is one of
    // cluster.osa, .esa or .resync (fuzz review D15: a bad osa.lsom_cost_factor was put at
    // the host's line), else at the section the named host came from: cluster.host, or the
    // cluster.more_hosts item whose count covers it.
    const YamlReader c = r.child("cluster");
    const std::string message = e.what();
    // Places as text: assigning one yaml-cpp node handle to another would rebind the document's.
    std::string where = c.where(c.has("host") ? c.node()["host"] : c.node());
    const std::size_t named = message.find("hosts[");
    if (named != std::string::npos && c.has("more_hosts") && c.node()["more_hosts"].IsSequence()) {
      long index = std::strtol(message.c_str() + named + 6, nullptr, 10);
      index -= static_cast<long>(s.cluster.hosts.size());
      for (const auto& item : c.node()["more_hosts"]) index += item["count"] ? item["count"].as<long>(0) : 0;
      // `index` is now the host's place counted from the first more_hosts host, if >= 0.
      if (index >= 0)
        for (const auto& item : c.node()["more_hosts"]) {
          const long count = item["count"] ? item["count"].as<long>(0) : 0;
          if (index < count) {
            where = c.where(item);
            break;
          }
          index -= count;
        }
    }
    for (const char* section : {"osa", "esa", "resync"}) {
      if (!c.has(section) || !c.node()[section].IsMap()) continue;
      for (const auto& kv : c.node()[section]) {
        const std::string name = std::string(section) + "." + kv.first.Scalar();
        if (message.rfind(name + " ", 0) == 0 || message.find(" " + name + " ") != std::string::npos)
          where = c.where(kv.second);
      }
    }
    throw InvalidArgument(where + ": " + message);
  }
  if (!r.has("workload")) r.fail("missing key 'workload'");
  read_workload(r.child("workload"), s.cluster, s, s.warnings);
  try {
    check_combination(s);
  } catch (const InvalidArgument& e) {
    const std::string msg = e.what();
    r.child("workload").fail(msg.rfind("workload ", 0) == 0 ? msg.substr(9) : msg);   // no "workload: workload"
  }
  s.calibration = Scenario::Calibration::applied;
  note_missing_calibration(s, catalog);
  return s;
}

namespace {

Scenario from_specs(std::string name, ClusterSpec cluster, WorkloadSpec workload, std::uint64_t seed,
                    const HardwareCatalog* catalog) {
  Scenario s;
  s.name = std::move(name);
  s.source = "<built in code>";
  s.seed = seed;
  s.cluster = std::move(cluster);
  s.workload = std::move(workload);
  s.threads_per_vmdk = std::min(s.workload.threads_per_vmdk, s.workload.outstanding_per_vmdk);
  if (catalog) {
    s.prices = catalog->prices();
    // A cluster taken from a calibrated scenario keeps its constants (they are scaled once).
    if (!s.cluster.calibrated) catalog->calibration().apply_settings(s.cluster);
    catalog->calibration().apply_drives(s.cluster);
    s.calibration = Scenario::Calibration::applied;
    note_missing_calibration(s, *catalog);
  } else {
    if (s.cluster.calibrated)
      throw InvalidArgument("make_uncalibrated_scenario: the cluster is already calibrated (taken from a calibrated "
                            "scenario); start from a ClusterSpec whose software constants are the defaults");
    s.calibration = Scenario::Calibration::opted_out;
  }
  s.cluster.validate();
  s.workload.validate();
  check_combination(s);
  // What the file reader says of a part asked to do more than its catalog figure (there at
  // the key's line), said here of the specs: the run models the part as asked.
  const FabricSpec& f = s.cluster.fabric;
  char note[320];
  if (f.link_gbps > f.nic.speed_gbps) {
    std::snprintf(note, sizeof note, "fabric.link_gbps = %g exceeds the %g GbE ports of NIC '%s': modelled as that NIC at %g GbE",
                  f.link_gbps, f.nic.speed_gbps, f.nic.name.c_str(), f.link_gbps);
    s.warnings.emplace_back(note);
  }
  if (f.active_ports > f.nic.ports) {
    std::snprintf(note, sizeof note, "fabric.active_ports = %d exceeds the %d ports of NIC '%s': modelled with %d ports",
                  f.active_ports, f.nic.ports, f.nic.name.c_str(), f.active_ports);
    s.warnings.emplace_back(note);
  }
  const double link = f.link_gbps > 0 ? f.link_gbps : f.nic.speed_gbps;
  if (f.leaf.port_speed_gbps > 0 && f.leaf.port_speed_gbps < link) {
    std::snprintf(note, sizeof note, "the links' %g GbE exceed the %g GbE ports of switch '%s': modelled as that switch at %g GbE",
                  link, f.leaf.port_speed_gbps, f.leaf.name.c_str(), link);
    s.warnings.emplace_back(note);
  }
  return s;
}

}  // namespace

std::string describe_workloads(const Scenario& s) {
  if (s.groups.empty()) return s.workload.describe();
  std::string out;
  for (const WorkloadSpec& g : s.groups) out += (out.empty() ? "" : "; ") + g.name + ": " + g.describe();
  return out;
}

CapacityReport scenario_capacity(const Scenario& s) {
  CapacityOptions o;
  for (const WorkloadSpec& w : scenario_workloads(s))
    o.largest_object_gb = std::max(o.largest_object_gb, static_cast<double>(w.vmdk_size.count()) / 1e9);
  return capacity(s.cluster, DataProfile{s.workload.compress_pct, s.workload.dedupe_pct}, o);
}

CapacityAnswer capacity_answer(const Scenario& s) {
  CapacityAnswer a;
  a.scenario = s.name;
  a.architecture = architecture_name(s.cluster.architecture);
  a.layout = s.cluster.layout().describe();
  const bool slack = s.cluster.capacity_reserve == CapacityReserve::slack;
  a.rule = slack ? "slack" : "reserved";
  a.report = scenario_capacity(s);
  a.cost = cluster_cost(s.cluster, a.report, s.prices);
  a.planned_reduction = s.cluster.services.planned_reduction_ratio > 0;
  if (!s.cluster.witness_host) {
    Scenario other = s;
    other.cluster.capacity_reserve = slack ? CapacityReserve::reserved : CapacityReserve::slack;
    a.other_rule = slack ? "reserved" : "slack";
    a.other = scenario_capacity(other);
  }
  return a;
}

Scenario make_scenario(std::string name, ClusterSpec cluster, WorkloadSpec workload, const HardwareCatalog& catalog,
                       std::uint64_t seed) {
  return from_specs(std::move(name), std::move(cluster), std::move(workload), seed, &catalog);
}

Scenario make_uncalibrated_scenario(std::string name, ClusterSpec cluster, WorkloadSpec workload, std::uint64_t seed) {
  return from_specs(std::move(name), std::move(cluster), std::move(workload), seed, nullptr);
}

Scenario load_scenario(const std::string& path, const std::vector<std::string>& overrides,
                       const HardwareCatalog& catalog) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InvalidArgument("scenario file '" + path + "' is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InvalidArgument("scenario file '" + path + "' cannot be read");
  // Read at most 16 MiB: a scenario is a few KiB; anything larger (or endless, /dev/zero)
  // is not one.
  constexpr std::size_t kMax = 16u << 20;
  std::string text;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    text.append(chunk, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMax) throw InvalidArgument("scenario file '" + path + "' is larger than 16 MiB; not a scenario");
  }
  if (in.bad()) throw InvalidArgument("scenario file '" + path + "' cannot be read");
  return parse_scenario(text, path, overrides, catalog);
}

const std::string& default_scenario_yaml() {
  static const std::string kYaml = R"(# Built-in default: seed 000 (000_9809ee29a465ffea.txt), 4 x Intel NUC 11 Extreme.
name: 4x NUC 11 Extreme, vSAN OSA, Optane P4800X cache
seed: 1
cluster:
  hosts: 4
  architecture: osa
  host:
    cpu: {model: intel-core-i7-11700b}
    network: {nic: intel-x520-da1, speed_gbe: 10, switch: ubiquiti-usw-aggregation}
    disk_groups:
      - cache: optane-p4800x-750gb
        capacity: [lexar-nm620-2tb]
policy: {raid: raid1, ftt: 1}            # not stated in the write-up: vSAN's default policy
data_services: {dedupe: true, compression: true}
workload:
  easy_run: 4k-70read                    # seed 000's job: Easy Run's 8 VMs x 8 VMDKs of 14 GiB
  easy_run_release: 2.8.2
  duration_s: 2
  warmup_s: 2                            # the elevator's backlog after the aged warm-up settles
)";
  return kYaml;
}

}  // namespace hcisim
