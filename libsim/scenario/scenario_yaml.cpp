// Scenario files (scenario.hpp). Schema, every key optional unless marked:
//   name, seed, replication (independent runs of one placement: every random stream but placement)
//   cluster:                               (required)
//     hosts (required), architecture: osa | esa, vsan_release: 7.0 .. 8.0u3, witness_host: bool (2-node),
//     failed_hosts: [esx02, ...] (hosts down for the whole run; the cluster runs degraded)
//     resync: {active: bool (rebuild their components during the run), throttle_mbit_s, outstanding}
//     host:                                (required) the template of the first `hosts` hosts
//       cpu: {model: <catalog>, sockets, cores (per socket), threads_per_core, ghz (the clock its
//             busy cores run at; a model's default is its sustained all-core clock, cpus.csv)}
//       memory_gib: GiB of memory (1..65536; absent or 0: not stated), which sizes the client
//             cache: 0.4 % of it up to cluster.client_cache_mib (ClusterSpec::client_cache_mb_of)
//       network: {speed_gbe, ports, teaming: failover | lacp, nic: <catalog>, mtu, transport: tcp | rdma,
//                 switch: <catalog>, fabric: single_switch | direct | leaf_spine, hosts_per_leaf,
//                 spines, uplink_gbe, rx_queues (0..64, default 4: receive queues (RSS) for vSAN's
//                 TCP traffic, one thread each; 0 leaves the receive work on the shared cores),
//                 rx_interrupt_us (0..1000: the shortest time between two receive interrupts of
//                 a queue; default the NIC's catalog figure, 50 without a catalog NIC; 0 = off)}
//       disk_groups: [{cache: D, capacity: [D, ...]}]             (OSA)
//       pool: [D, ...]                                             (ESA)
//       where D = catalog name | {device: <catalog>, count, connection} | inline figures
//     more_hosts: [{count, cpu, memory_gib, disk_groups | pool}, ...]   hosts that differ, after
//                 the `hosts` of `host` (esx01..), on the cluster's network; 64 hosts in all;
//                 nothing is inherited from `host` (memory_gib too: absent = not stated)
//     client_cache_mib: the client cache's maximum per host, MiB (1024; 0 = off)
//     osa: {write_buffer_gb, destage_start_fill, congestion_start_fill, ...}
//     esa: {lfs_overhead, gc_factor, stripe_unit_kb, cpu_per_io_factor, large_write_kib,
//           client_worlds_per_object}
//   policy: {raid: raid1 | raid5 | raid6, ftt, checksum, encryption, stripe_width (1..12)}
//   data_services: {dedupe, compression}
//   workload: one of hcibench: <job name> | diskspd: "<command line>" | fio: "<options>" |
//             preset: oltp32k | easy_run: <profile> (with easy_run_release: the HCIBench
//             release, default 2.8.4: its layout), then any explicit field below overrides:
//             vms, vmdks_per_vm, outstanding_per_vmdk, block_size, read_pct, random_pct,
//             working_set_pct, vmdk_size, compress_pct, dedupe_pct, duration_s, warmup_s, history_s,
//             iops_limit_per_vm, latency_target_ms, vscsi (pvscsi | lsilogic),
//             vscsi_disk_queue, vscsi_adapter_queue (0: the adapter's default),
//             vcpus_per_vm (0: not stated; for the guest's own CPU table),
//             guest_os (linux | windows: the guest's CPU per I/O; DiskSpd: windows)
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string_view>
#include <vector>

#include "hcisim/core/check.hpp"
#include "hcisim/scenario/scenario.hpp"
#include "hcisim/storage/capacity.hpp"
#include "file_keys.hpp"
#include "scenario_sections.hpp"
#include "yaml_reader.hpp"

namespace hcisim {

namespace {

using detail::YamlReader;
using detail::read_cluster;
using detail::read_workload;

// The most nodes a --set value may expand to. Aliases copy their anchor's subtree, so a few
// hundred bytes of nested aliases can stand for billions of nodes; no
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

// A --set key must be in the key table: an unknown one is refused before the run with the
// key it most likely meant, a retired one with its replacement. `section` is the schema path
// of the map the key is set in.
void check_set_key(const std::string& assignment, const std::string& section, const std::string& key) {
  // A more_hosts item takes its count and cluster.host's keys.
  const std::string canonical = section == "cluster.more_hosts[]" && key != "count"
                                    ? std::string("cluster.host")
                                    : detail::canonical_section("scenario", section);
  const std::optional<FileKey> row = detail::find_file_key("scenario", canonical.empty() ? key : canonical + "." + key);
  const std::string path = section.empty() ? key : section + "." + key;
  if (row && row->retired())
    throw InvalidArgument("--set '" + assignment + "': key '" + path + "' was retired; use " + std::string(row->replaced_by));
  if (row) return;
  const std::string suggestion = detail::did_you_mean("scenario", canonical, key);
  throw InvalidArgument("--set '" + assignment + "': unknown key '" + path + "'" +
                        (suggestion.empty() ? std::string() : "; did you mean '" + suggestion + "'?") +
                        " (hcisim keys lists every key)");
}

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
    throw InvalidArgument("--set '" + assignment + "': value is not valid YAML (" + detail::yaml_error(e) + ")");
  } catch (const InvalidArgument&) {
    throw InvalidArgument("--set '" + path + "': the value expands to more than " + std::to_string(kMaxSetNodes) +
                          " YAML nodes (aliases copy their anchor's nodes); give a smaller value");
  }
  std::vector<std::string> keys;
  std::stringstream ss(path);
  for (std::string k; std::getline(ss, k, '.');) keys.push_back(k);
  if (path.front() == '.' || path.back() == '.' || path.find("..") != std::string::npos)
    throw InvalidArgument("--set '" + assignment + "' is not allowed: the key path '" + detail::shorten(path) +
                          "' has an empty part; expected names joined by single dots, e.g. workload.vms=16");
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
  // Walk down with fresh handles (yaml-cpp nodes are references; assignment would rebind),
  // keeping the key's place in the key table ("[]" for a list's item).
  std::vector<YAML::Node> chain{root};
  std::string section;
  for (std::size_t i = 0; i + 1 < keys.size(); ++i) {
    YAML::Node next;
    section += chain.back().IsSequence() ? "[]" : (section.empty() ? "" : ".") + keys[i];
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
  if (chain.back().IsSequence()) {
    chain.back()[item_of(chain.back(), keys.back())] = value;
    return;
  }
  check_set_key(assignment, section, keys.back());
  chain.back()[keys.back()] = value;
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

// An ESA workload whose writes reach the large-I/O path's threshold (esa_large_write) rests on
// that threshold, which VMware does not publish, and on the release when the file leaves it
// out: the scenario says so (a warning in every output).
void note_assumed_large_writes(Scenario& s) {
  const std::int64_t threshold = esa_large_write(s.cluster).count();
  if (threshold == 0 || scenario_states(s, "cluster.esa.large_write_kib") || largest_write_block(s) < threshold) return;
  s.warnings.push_back("writes of " + std::to_string(threshold / 1024) +
                       " KiB and more take ESA's large-I/O path (vSAN 8.0 U1 on) at an assumed threshold: VMware "
                       "publishes none (cluster.esa.large_write_kib, assumed 128 .. 2048 KiB)" +
                       (scenario_states(s, "cluster.vsan_release") ? std::string()
                                                       : std::string(", on an assumed release (cluster.vsan_release "
                                                                     "8.0u3)")));
}

// A working set the caches hold whole: the run then measures memory or the cache drives, not
// the capacity drives. Right for a cache test (seed 002's 128 MiB file), a surprise otherwise
// (a vmdk_size meant in MB): said, not refused.
void note_cache_sized(Scenario& s, double data_gb, double copies) {
  if (!(data_gb > 0)) return;
  double cache_gb = 0, buffer_gb = 0;
  for (std::size_t h = 0; h < s.cluster.hosts.size(); ++h) {
    cache_gb += s.cluster.client_cache_mb_of(h) * 1048576.0 / 1e9;
    for (const DiskGroupSpec& g : s.cluster.hosts[h].disk_groups) buffer_gb += g.write_buffer_bytes(s.cluster.osa) / 1e9;
  }
  char buf[420];
  if (data_gb <= cache_gb) {
    std::snprintf(buf, sizeof buf,
                  "workload: the VMs' data (%.3g GB = vms x vmdks_per_vm x vmdk_size x working_set_pct) fits in the "
                  "hosts' client read caches (%.3g GB in all): reads are answered from memory, so the run measures "
                  "the caches, not the drives (what a cache test measures; otherwise check vmdk_size and its unit)",
                  data_gb, cache_gb);
    s.warnings.emplace_back(buf);
  } else if (s.cluster.architecture == Architecture::osa &&
             data_gb * copies <= buffer_gb * s.cluster.osa.destage_start_fill) {
    // Below the elevator's start fill nothing is destaged: the capacity drives stay idle. (A
    // working set that fills the buffers further, as HCIBench's Easy Run sizes it, destages.)
    std::snprintf(buf, sizeof buf,
                  "workload: the VMs' data with its copies (%.3g GB = vms x vmdks_per_vm x vmdk_size x "
                  "working_set_pct x %.3g) fits in the write buffers below the fill where destage starts (%.3g of "
                  "%.3g GB in all): nothing reaches the capacity drives, so the run measures the cache drives "
                  "(what a cache-tier test measures; a larger vmdk_size or working_set_pct reaches the capacity drives)",
                  data_gb * copies, copies, buffer_gb * s.cluster.osa.destage_start_fill, buffer_gb);
    s.warnings.emplace_back(buf);
  }
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
  // typo; the reserve rule must not turn a cluster into an error.
  const double holds_gb = std::max(0.0, c.raw_gb - c.metadata_gb) * c.reduction_ratio / (c.policy_factor * c.lfs_factor);
  if (data_gb > 100 * holds_gb) {
    char buf[320];
    std::snprintf(buf, sizeof buf,
                  "the VMs' data (%.0f GB = vms x vmdks_per_vm x vmdk_size x working_set_pct) is more than 100 times "
                  "what the cluster's devices hold (%.0f GB); expected at most %.0f GB (check vmdk_size and its unit)",
                  data_gb, holds_gb, 100 * holds_gb);
    throw InvalidArgument(buf);
  }
  note_cache_sized(s, data_gb, c.policy_factor);
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
  const YAML::Node root = detail::load_one_document(text, source, "a scenario file");
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

namespace {

// Where a rule over the whole cluster (ClusterSpec::validate) points, given its message: the
// key the message names, where the document has it (a value given with --set reads
// "(--set)"), else the host section the named host came from.
// `hosts` is how many the cluster has: cluster.host's first, then cluster.more_hosts items'
// with their counts.
std::string cluster_rule_where(const YamlReader& r, const std::string& message, std::size_t hosts) {
  const YamlReader c = r.child("cluster");
  const auto named = [&](const std::string& what) { return message.find(what) != std::string::npos; };
  // Places as text: assigning one yaml-cpp node handle to another would rebind the document's.
  // cluster.osa, .esa and .resync keys (a bad osa.lsom_cost_factor was put at the host's line).
  // Messages name a key as "cluster osa.x = ..." (a bad value) or "cluster osa.x: ..." (a rule).
  for (const char* section : {"osa", "esa", "resync"}) {
    if (!c.has(section) || !c.node()[section].IsMap()) continue;
    for (const auto& kv : c.node()[section]) {
      const std::string name = std::string(section) + "." + kv.first.Scalar();
      if (message.rfind(name + " ", 0) == 0 || named(" " + name + " ") || named(" " + name + ":"))
        return c.where(kv.second);
    }
    if (message.rfind(std::string("cluster ") + section + ":", 0) == 0) return c.where(c.node()[section]);
  }
  const auto set_by_command_line = [](const YAML::Node& n) { return n && n.Mark().line < 0; };
  // The policy, or the host count it needs: whichever of the two --set gave, else the policy.
  if (message.rfind("policy ", 0) == 0 || message.rfind("cluster policy", 0) == 0 || named(" policy ftt ")) {
    if (named("needs at least") && c.has("hosts") && set_by_command_line(c.node()["hosts"]) &&
        !(r.has("policy") && (set_by_command_line(r.node()["policy"]["raid"]) ||
                              set_by_command_line(r.node()["policy"]["ftt"]))))
      return c.where(c.node()["hosts"]);
    if (r.has("policy")) {
      const YamlReader p = r.child("policy");
      for (const char* key : {"raid", "ftt"})
        if (named("needs at least") && set_by_command_line(p.node()[key])) return p.where(p.node()[key]);
      if (named("policy.stripe_width") && p.has("stripe_width")) return p.where(p.node()["stripe_width"]);
      if (named(" policy ftt ") && p.has("ftt")) return p.where(p.node()["ftt"]);
      return p.where(p.node());
    }
    if (c.has("hosts")) return c.where(c.node()["hosts"]);
  }
  // Data services and the witness: their own keys.
  for (const char* service : {"dedupe", "compression"})
    if (message.rfind(std::string("cluster services.") + service, 0) == 0 && r.has("data_services")) {
      const YamlReader d = r.child("data_services");
      return d.has(service) ? d.where(d.node()[service]) : d.where(d.node());
    }
  for (const char* key : {"hosts", "witness_host", "failed_hosts"})
    if (message.rfind(std::string("cluster ") + key + ":", 0) == 0 && c.has(key)) return c.where(c.node()[key]);
  if (message.rfind("cluster (host.network)", 0) == 0 && c.has("host") && c.node()["host"].IsMap() &&
      c.node()["host"]["network"])
    return c.where(c.node()["host"]["network"]);
  // Within a host's section: the key the message names after the host (cpu, memory_gib, pool,
  // disk_groups), and within disk_groups the group it names, and its cache or capacity key
  // (a group of 8 capacity devices was put at cpu:'s line).
  const auto at_host = [&](const YAML::Node& host) {
    if (!host.IsMap()) return c.where(host);
    constexpr std::string_view kGroup = ".disk_groups[";
    const std::size_t dg = message.find(kGroup);
    if (dg != std::string::npos && host["disk_groups"] && host["disk_groups"].IsSequence()) {
      const long k = std::strtol(message.c_str() + dg + kGroup.size(), nullptr, 10);
      if (k < 0 || static_cast<std::size_t>(k) >= host["disk_groups"].size()) return c.where(host["disk_groups"]);
      const YAML::Node group = host["disk_groups"][static_cast<std::size_t>(k)];
      for (const char* key : {"capacity", "cache"})
        if (named("]." + std::string(key)) && group.IsMap() && group[key]) return c.where(group[key]);
      return c.where(group);
    }
    for (const char* key : {"disk_groups", "pool", "cpu", "memory_gib"}) {
      const std::string after_host = ")." + std::string(key);
      const std::size_t at = message.find(after_host);
      const char next = at == std::string::npos ? 'x' : message.c_str()[at + after_host.size()];
      if (at != std::string::npos && (next == ':' || next == '[' || next == ' ' || next == '.') && host[key])
        return c.where(host[key]);
    }
    return c.where(host);
  };
  std::string where = c.has("host") ? at_host(c.node()["host"]) : c.where(c.node());
  const std::size_t host_at = message.find("hosts[");
  if (host_at != std::string::npos && c.has("more_hosts") && c.node()["more_hosts"].IsSequence()) {
    // The host's place counted from the first more_hosts host, if >= 0.
    long index = std::strtol(message.c_str() + host_at + 6, nullptr, 10) - static_cast<long>(hosts);
    for (const auto& item : c.node()["more_hosts"]) index += item["count"] ? item["count"].as<long>(0) : 0;
    for (const auto& item : c.node()["more_hosts"]) {
      const long count = item["count"] ? item["count"].as<long>(0) : 0;
      if (index >= 0 && index < count) return at_host(item);
      index -= count;
    }
  }
  return where;
}

}  // namespace

namespace {

// `text` as a finite number, whole text.
bool parse_yaml_number(const std::string& text, double& v) {
  const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  return ec == std::errc{} && p == text.data() + text.size() && std::isfinite(v);
}

// Every key path `node` holds below `path` (schema form: "[]" for a list's items), into `out`.
// The assumed: block's keys are paths, not keys of the document: it is listed, not walked.
void collect_keys(const YAML::Node& node, const std::string& path, std::vector<std::string>& out, int depth) {
  if (depth > 64) return;
  if (node.IsMap()) {
    for (const auto& kv : node) {
      if (!kv.first.IsScalar()) continue;
      const std::string p = path.empty() ? kv.first.Scalar() : path + "." + kv.first.Scalar();
      out.push_back(p);
      if (p != "assumed") collect_keys(kv.second, p, out, depth + 1);
    }
  } else if (node.IsSequence()) {
    for (const auto& item : node) collect_keys(item, path + "[]", out, depth + 1);
  }
}

std::vector<std::string> stated_keys(const YAML::Node& root) {
  std::vector<std::string> out;
  collect_keys(root, "", out, 0);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// The row of an assumed: entry's key path: a live scenario key whose value is a number.
FileKey assumed_key_row(const YamlReader& a, const std::string& path, const YAML::Node& at) {
  const std::string where = a.where(at) + ": assumed: ";
  const std::optional<FileKey> row = detail::find_file_key("scenario", path);
  if (!row) {
    const std::size_t dot = path.rfind('.');
    const std::string section = dot == std::string::npos ? std::string() : path.substr(0, dot);
    const std::string key = dot == std::string::npos ? path : path.substr(dot + 1);
    const std::string suggestion = detail::did_you_mean("scenario", detail::canonical_section("scenario", section), key);
    throw InvalidArgument(where + "unknown key '" + detail::shorten(path) + "'" +
                          (suggestion.empty() ? std::string() : "; did you mean '" + suggestion + "'?") +
                          " (hcisim keys lists every key)");
  }
  if (row->retired())
    throw InvalidArgument(where + "key '" + path + "' was retired; use " + std::string(row->replaced_by));
  if (row->type != "number" && row->type != "integer")
    throw InvalidArgument(where + path + " is a " + std::string(row->type) +
                          " key; an assumed range needs a key whose value is a number (type number or integer)");
  return *row;
}

// One end of an assumed: range, a number (a whole one for an integer key).
double assumed_end(const YamlReader& a, const std::string& path, const FileKey& row, const YAML::Node& v) {
  const std::string expected = "[low, high], two numbers with low <= high";
  double x = 0;
  if (!v.IsScalar() || !parse_yaml_number(v.Scalar(), x))
    throw InvalidArgument(a.where(v) + ": assumed." + path + ": '" + detail::shorten(v.IsScalar() ? v.Scalar() : "(not a value)") +
                          "' is not a number; expected " + expected);
  if (row.type == "integer" && x != std::floor(x))
    throw InvalidArgument(a.where(v) + ": assumed." + path + ": " + number_text(x) +
                          " is not a whole number; " + path + " takes whole numbers");
  if ((row.min == row.min && x < row.min) || (row.max == row.max && x > row.max))
    throw InvalidArgument(a.where(v) + ": assumed." + path + ": " + number_text(x) +
                          " is outside the key's allowed range; expected " + detail::describe_range(row));
  return x;
}

// The scenario's assumed: block: {key path: [low, high]} (DeclaredAssumption). It changes
// nothing in a run; plan/sensitivity.hpp moves each key over its range.
std::vector<DeclaredAssumption> read_assumed(const YamlReader& r) {
  std::vector<DeclaredAssumption> out;
  if (!r.has("assumed")) return out;
  const YamlReader a = r.child("assumed");
  if (!a.is_map())
    throw InvalidArgument(a.where(a.node()) +
                          ": assumed: expected a map of key paths to [low, high], e.g. assumed: "
                          "{cluster.host.cpu.sockets: [1, 2], workload.compress_pct: [0, 50]}");
  for (const auto& kv : a.node()) {
    const std::string path = kv.first.IsScalar() ? kv.first.Scalar() : std::string();
    const FileKey row = assumed_key_row(a, path, kv.first);
    const YAML::Node& v = kv.second;
    if (!v.IsSequence() || v.size() != 2)
      throw InvalidArgument(a.where(kv.first) + ": assumed." + path + " is not allowed; expected [low, high], two "
                            "numbers with low <= high");
    DeclaredAssumption d{path, assumed_end(a, path, row, v[0]), assumed_end(a, path, row, v[1]), kv.first.Mark().line + 1};
    if (d.low > d.high)
      throw InvalidArgument(a.where(kv.first) + ": assumed." + path + " = [" + number_text(d.low) + ", " +
                            number_text(d.high) + "]: low is above high; expected [low, high] with low <= high");
    for (const DeclaredAssumption& e : out)
      if (e.path == path) throw InvalidArgument(a.where(kv.first) + ": assumed." + path + " is given twice");
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace

static Scenario parse_root(YAML::Node root, const std::string& source, const std::vector<std::string>& overrides,
                    const HardwareCatalog& catalog) {
  for (const auto& o : overrides) apply_override(root, o);
  const YamlReader r(root, source, "scenario");
  r.expect_keys();
  Scenario s;
  s.source = source;
  s.prices = catalog.prices();
  s.name = r.text("name", source);
  s.seed = static_cast<std::uint64_t>(r.integer("seed"));
  s.replication = static_cast<std::uint64_t>(r.integer("replication"));
  catalog.calibration().apply_settings(s.cluster);   // the scenario's own keys may override
  read_cluster(r.child("cluster"), catalog, s.cluster, s.warnings);
  if (r.has("policy")) {
    const YamlReader p = r.child("policy");
    p.expect_keys();
    const std::string raid = p.choice("raid");
    s.cluster.policy.raid = raid == "raid1" ? RaidLevel::raid1 : raid == "raid5" ? RaidLevel::raid5 : RaidLevel::raid6;
    const long default_ftt = raid == "raid6" ? 2 : 1;
    s.cluster.policy.ftt = static_cast<int>(p.integer("ftt", default_ftt));
    s.cluster.policy.checksum = p.flag("checksum");
    s.cluster.policy.encryption = p.flag("encryption");
    s.cluster.policy.stripe_width = static_cast<int>(p.integer("stripe_width"));
    if (s.cluster.policy.stripe_width > 1 && s.cluster.architecture == Architecture::esa)
      s.warnings.emplace_back(p.where(p.node()["stripe_width"]) +
                              ": policy.stripe_width changes nothing on ESA here: a storage pool already spreads "
                              "every component over its devices by 1 MiB range");
  }
  if (r.has("data_services")) {
    const YamlReader d = r.child("data_services");
    d.expect_keys();
    s.cluster.services.dedupe = d.flag("dedupe");
    s.cluster.services.compression = d.flag("compression", s.cluster.services.dedupe);
    // A planner's data-reduction ratio for the capacity line (1.5 for 1.5:1); the performance
    // model still takes the workload's compress_pct and dedupe_pct.
    if (d.has("reduction_ratio")) {
      const double ratio = d.number("reduction_ratio", 0);
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
    throw InvalidArgument(cluster_rule_where(r, e.what(), s.cluster.hosts.size()) + ": " + e.what());
  }
  if (!r.has("workload")) r.fail("missing key 'workload'");
  read_workload(r.child("workload"), s.cluster, s, s.warnings);
  try {
    check_combination(s);
  } catch (const InvalidArgument& e) {
    const std::string msg = e.what();
    r.child("workload").fail(msg.rfind("workload ", 0) == 0 ? msg.substr(9) : msg);   // no "workload: workload"
  }
  s.assumed = read_assumed(r);
  s.stated_keys = stated_keys(root);
  note_assumed_large_writes(s);
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
    // The switches a file without `switch:` gets (SwitchSpec::default_name).
    FabricSpec& f = s.cluster.fabric;
    if (f.leaf.name.empty())
      f.leaf = catalog->network_switch(SwitchSpec::default_name(f.link_gbps > 0 ? f.link_gbps : f.nic.speed_gbps));
    if (f.spine.name.empty()) f.spine = catalog->network_switch(SwitchSpec::default_spine_name());
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
  for (std::size_t h = 0; h < s.cluster.hosts.size(); ++h) {
    const CpuSpec& cpu = s.cluster.hosts[h].cpu;
    // Hosts alike are said once, at the first of them.
    if (h > 0 && s.cluster.hosts[h - 1].cpu.name == cpu.name && s.cluster.hosts[h - 1].cpu.ghz == cpu.ghz) continue;
    std::string turbo = detail::clock_above_turbo_note("hosts[" + std::to_string(h) + "].cpu.ghz", cpu);
    if (!turbo.empty()) s.warnings.push_back(std::move(turbo));
  }
  return s;
}

}  // namespace

bool scenario_states(const Scenario& s, std::string_view path) {
  const auto has = [&s](const std::string& p) { return std::binary_search(s.stated_keys.begin(), s.stated_keys.end(), p); };
  if (has(std::string(path))) return true;
  if (path.starts_with("workload.")) return has("workload.groups[]." + std::string(path.substr(9)));
  return false;
}

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
  return parse_scenario(read_scenario_file(path), path, overrides, catalog);
}

// A scenario is a few KiB; anything over 16 MiB (or endless, /dev/zero) is not one.
std::string read_scenario_file(const std::string& path) {
  return detail::read_small_file(path, "scenario file", 16u << 20);
}

const std::string& default_scenario_yaml() {
  static const std::string kYaml = R"(# Built-in default: seed 000 (000_9809ee29a465ffea.txt [S1]), 4 x Intel NUC 11 Extreme.
name: 4x NUC 11 Extreme, vSAN OSA, Optane P4800X cache
seed: 1
cluster:
  hosts: 4
  architecture: osa
  host:
    cpu: {model: intel-core-i7-11700b}
    memory_gib: 64                        # the write-up's 64 GB kit: a 262 MiB client cache
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
