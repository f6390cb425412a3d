// The scenario file's `cluster:` section (scenario_sections.hpp; the schema is in
// scenario_yaml.cpp): hosts, drives with their connections, CPU, network and the OSA/ESA keys.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "hcisim/core/check.hpp"
#include "scenario_sections.hpp"

namespace hcisim::detail {

std::string clock_above_turbo_note(const std::string& key, const CpuSpec& cpu, double catalog_ghz) {
  if (!(cpu.turbo_ghz > 0 && cpu.ghz > cpu.turbo_ghz)) return {};
  char sustained[64] = "";
  if (catalog_ghz > 0) std::snprintf(sustained, sizeof sustained, " (sustained all-core %g GHz)", catalog_ghz);
  char note[320];
  std::snprintf(note, sizeof note, "%s = %g exceeds the %g GHz one-core turbo of CPU '%s'%s: modelled at %g GHz",
                key.c_str(), cpu.ghz, cpu.turbo_ghz, cpu.name.c_str(), sustained, cpu.ghz);
  return note;
}

namespace {

// A clock more than 10 % from the catalog CPU's sustained all-core clock (most often its base
// clock typed instead): modelled as asked, and said with the catalog's figure.
std::string clock_off_catalog_note(const std::string& key, const CpuSpec& cpu, double catalog_ghz) {
  if (!(catalog_ghz > 0) || std::abs(cpu.ghz / catalog_ghz - 1) <= 0.10) return {};
  if (cpu.turbo_ghz > 0 && cpu.ghz > cpu.turbo_ghz) return {};   // the turbo note says it
  const bool is_base = cpu.base_ghz > 0 && std::abs(cpu.ghz - cpu.base_ghz) < 1e-9;
  const double off = 100 * (cpu.ghz / catalog_ghz - 1);
  char note[400];
  std::snprintf(note, sizeof note,
                "%s = %g is %.0f %% %s the %g GHz sustained all-core clock of CPU '%s' in the catalog%s; ghz is the "
                "sustained all-core clock busy cores run at: modelled at %g GHz (leave ghz out for the catalog's)",
                key.c_str(), cpu.ghz, std::abs(off), off < 0 ? "below" : "above", catalog_ghz, cpu.name.c_str(),
                is_base ? " (it is its base clock)" : "", cpu.ghz);
  return note;
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
  // An unknown name is reported at `device:` (or at the scalar itself).
  auto lookup = [&](const std::string& name) -> DeviceSpec {
    try {
      return cat.device(name);
    } catch (const InvalidArgument& e) {
      r.fail_at("device", e.what());
    }
  };
  if (r.is_scalar()) return {connect(lookup(r.scalar()), "", cat)};
  r.expect_keys();
  if (!allow_count && r.has("count"))
    r.fail_value(r.key_path("count"), r.text("count", ""), "no count: a disk group has one cache drive", r.node()["count"]);
  const long count = allow_count ? r.integer("count") : 1;
  DeviceSpec d;
  if (r.has("device")) {
    d = lookup(r.text("device", ""));
  } else {
    d.name = r.text("name", "inline-" + r.path());
    const std::string kind = r.choice("kind");
    d.kind = kind == "ssd" ? DeviceKind::ssd : DeviceKind::hdd;
    d.interface = r.choice("interface", d.kind == DeviceKind::hdd ? "sas" : "nvme");
    d.capacity_gb = r.required_number("capacity_gb");
    const double seq = r.number("seq_mbps");
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
    r.fail_at("connection", e.what());
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

// A host's own parts: its CPU and its disk groups or storage pool (the network is the
// cluster's). `h` is cluster.host or an item of cluster.more_hosts.
HostSpec read_host_hardware(const YamlReader& h, const HardwareCatalog& cat, std::vector<std::string>& notes) {
  HostSpec host;
  // CPU: a catalog model and/or explicit figures.
  host.cpu.name = "cpu";
  host.cpu.cores_per_socket = 0;
  host.cpu.threads_per_core = 2;
  if (h.has("cpu")) {
    const YamlReader cpu = h.child("cpu");
    cpu.expect_keys();
    if (cpu.has("model")) {
      try {
        host.cpu = cat.cpu(cpu.text("model", ""));
      } catch (const InvalidArgument& e) {
        cpu.fail_at("model", e.what());
      }
    }
    host.cpu.sockets = static_cast<int>(cpu.integer("sockets", host.cpu.sockets));
    host.cpu.cores_per_socket = static_cast<int>(cpu.integer("cores", host.cpu.cores_per_socket));
    host.cpu.threads_per_core = static_cast<int>(cpu.integer("threads_per_core", host.cpu.threads_per_core));
    const double catalog_ghz = host.cpu.ghz;   // the model's sustained clock, before any override
    host.cpu.ghz = cpu.number("ghz", host.cpu.ghz);
    if (host.cpu.cores_per_socket == 0) cpu.fail("missing key 'cores' (or a catalog 'model')");
    if (!(host.cpu.ghz > 0)) {
      // The value as typed, at its key (not '0.000000' at the cpu map's line).
      const bool typed = cpu.has("ghz");
      cpu.fail_value(cpu.key_path("ghz"), typed ? cpu.text("ghz", "") : std::to_string(host.cpu.ghz), "a clock > 0 GHz",
                     typed ? cpu.node()["ghz"] : cpu.node());
    }
    // A clock above the catalog CPU's one-core turbo, or far from its sustained clock: modelled
    // as asked, and said.
    if (cpu.has("ghz")) {
      for (const std::string& note : {clock_above_turbo_note(cpu.key_path("ghz"), host.cpu, catalog_ghz),
                                      clock_off_catalog_note(cpu.key_path("ghz"), host.cpu, catalog_ghz)})
        if (!note.empty()) notes.push_back(cpu.where(cpu.node()["ghz"]) + ": " + note);
    }
  } else {
    h.fail("missing key 'cpu' ({cores, ghz} or {model})");
  }
  // Storage.
  if (h.has("disk_groups")) {
    const YamlReader groups = h.child("disk_groups");
    if (!groups.is_sequence()) groups.fail("expected a list of {cache, capacity}");
    // Counted before any group is read: a list of thousands of aliased groups was expanded
    // (and copied to every host) before the 1-5 rule fired.
    if (groups.size() > 5) groups.fail(std::to_string(groups.size()) + " disk groups; an OSA host has 1 to 5");
    for (std::size_t g = 0; g < groups.size(); ++g) {
      const YamlReader dg = groups.item(g);
      dg.expect_keys();
      DiskGroupSpec spec;
      spec.cache = read_drives(dg.child("cache"), cat, false).front();
      spec.capacity = read_drive_list(dg.child("capacity"), cat);
      host.disk_groups.push_back(spec);
    }
  }
  if (h.has("pool")) host.pool = read_drive_list(h.child("pool"), cat);
  // Memory, which sizes the DOM client cache (ClusterSpec::client_cache_mb_of); absent or 0:
  // not stated.
  host.memory_gib = h.number("memory_gib");
  if (!HostSpec::memory_gib_allowed(host.memory_gib))
    h.fail_value(h.key_path("memory_gib"), h.text("memory_gib", ""), "1 .. 65536 (GiB of memory per host), or 0: not stated",
                 h.node()["memory_gib"]);
  return host;
}

// The cluster's own keys: size, architecture, witness, capacity reserve, client cache.
// Returns cluster.hosts.
long read_cluster_shape(const YamlReader& c, ClusterSpec& out) {
  const long hosts = c.integer("hosts", 0);
  if (hosts == 0) c.fail("missing key 'cluster.hosts' (1 to 64)");
  out.architecture = c.choice("architecture") == "osa" ? Architecture::osa : Architecture::esa;
  out.witness_host = c.flag("witness_host");
  // ESA exists from vSAN 8, whose rule is Reserved Capacity (not on 2-node clusters); OSA
  // clusters default to the older slack guidance that the seeds' vSAN versions used.
  const char* default_reserve = out.architecture == Architecture::esa && !out.witness_host ? "reserved" : "slack";
  out.capacity_reserve = c.choice("capacity_reserve", default_reserve) == "slack"
                             ? CapacityReserve::slack
                             : CapacityReserve::reserved;
  if (out.capacity_reserve == CapacityReserve::reserved && out.witness_host)
    c.fail_value(c.key_path("capacity_reserve"), "reserved",
                 "slack: a 2-node cluster (witness_host) has no Reserved Capacity", c.node()["capacity_reserve"]);
  out.client_cache_mb = c.number("client_cache_mib", out.client_cache_mb);
  const std::string release = c.choice("vsan_release", vsan_release_name(out.release));
  for (int r = 0; r <= static_cast<int>(VsanRelease::v8_0u3); ++r)
    if (release == vsan_release_name(static_cast<VsanRelease>(r))) out.release = static_cast<VsanRelease>(r);
  if (out.architecture == Architecture::esa && out.release < VsanRelease::v8_0)
    c.fail_value(c.key_path("vsan_release"), release, "8.0 | 8.0u1 | 8.0u2 | 8.0u3: ESA exists from vSAN 8.0",
                 c.node()["vsan_release"]);
  return hosts;
}

// Hosts that differ (an expansion of a newer generation): `hosts` of cluster.host, then each
// cluster.more_hosts item's `count` of its own CPU and storage, on the cluster's network.
// Returns each kind of host with its count; `total` gets the hosts in all.
std::vector<std::pair<long, HostSpec>> read_host_kinds(const YamlReader& c, const YamlReader& h, long hosts,
                                                       const HardwareCatalog& cat, std::vector<std::string>& notes,
                                                       long& total) {
  std::vector<std::pair<long, HostSpec>> templates{{hosts, read_host_hardware(h, cat, notes)}};
  total = hosts;
  if (!c.has("more_hosts")) return templates;
  const YamlReader more = c.child("more_hosts");
  if (!more.is_sequence() || more.size() == 0)
    more.fail("expected a list of {count, cpu, disk_groups or pool, memory_gib}: hosts beyond cluster.hosts that differ from "
              "cluster.host");
  if (more.size() > 64) more.fail(std::to_string(more.size()) + " items; a cluster has at most 64 hosts");
  for (std::size_t i = 0; i < more.size(); ++i) {
    const YamlReader m = more.item(i);
    m.as("scenario", "cluster.host").expect_keys({"count"}, {"network"});
    const long count = m.integer("count", 0);
    if (count == 0) m.fail("missing key 'count' (1 to 64 hosts of this kind)");
    total += count;
    if (total > 64)
      m.fail_value(m.key_path("count"), std::to_string(count),
                   "at most " + std::to_string(64 - (total - count)) + ": a cluster has 1 to 64 hosts in all",
                   m.node()["count"]);
    templates.emplace_back(count, read_host_hardware(m.as("scenario", "cluster.host"), cat, notes));
  }
  return templates;
}

// A part asked to do more than its catalog figure: modelled as asked, and said
// (Scenario::warnings).
void note_exceeds(const YamlReader& n, const char* key, double value, double limit, const char* part,
                  const std::string& name, std::vector<std::string>& notes) {
  const bool speed_key = std::string_view(key) == "speed_gbe";
  char note[320];
  if (speed_key)
    std::snprintf(note, sizeof note, "%s = %g exceeds the %g GbE ports of %s '%s': modelled as that %s at %g GbE",
                  n.key_path(key).c_str(), value, limit, part, name.c_str(), part, value);
  else
    std::snprintf(note, sizeof note, "%s = %g exceeds the %g ports of %s '%s': modelled with %g ports",
                  n.key_path(key).c_str(), value, limit, part, name.c_str(), value);
  notes.emplace_back(note);
}

// The NIC: a catalog model or a generic one of the given speed, its interrupt moderation and
// the link speed. Returns the link speed in Gbit/s.
double read_nic(const YamlReader& n, const HardwareCatalog& cat, FabricSpec& f) {
  if (n.has("nic")) {
    try {
      f.nic = cat.nic(n.text("nic", ""));
    } catch (const InvalidArgument& e) {
      n.fail_at("nic", e.what());
    }
  } else {
    f.nic = NicSpec::generic(n.required_number("speed_gbe"));
  }
  f.nic.rx_interrupt_us = n.number("rx_interrupt_us", f.nic.rx_interrupt_us);
  const double speed = n.number("speed_gbe", f.nic.speed_gbps);
  try {
    validate_link_speed(speed, n.key_path("speed_gbe"));
  } catch (const InvalidArgument& e) {
    throw InvalidArgument(n.where(n.has("speed_gbe") ? n.node()["speed_gbe"] : n.node()) + ": " + e.what());
  }
  f.link_gbps = speed;
  return speed;
}

// Ports and teaming, the receive queues, MTU and transport.
void read_ports(const YamlReader& n, double speed, ClusterSpec& out, std::vector<std::string>& notes) {
  FabricSpec& f = out.fabric;
  if (n.has("nic") && f.nic.speed_gbps < speed) note_exceeds(n, "speed_gbe", speed, f.nic.speed_gbps, "NIC", f.nic.name, notes);
  if (f.nic.speed_gbps < speed) f.nic.speed_gbps = speed;
  const long ports = n.integer("ports");
  if (n.has("nic") && ports > f.nic.ports)
    note_exceeds(n, "ports", static_cast<double>(ports), f.nic.ports, "NIC", f.nic.name, notes);
  // More ports than the card has take more cards (report/cost.hpp prices cards).
  f.nic_cards = n.has("nic") ? static_cast<int>((ports + f.nic.ports - 1) / f.nic.ports) : 1;
  f.nic.ports = std::max(f.nic.ports, static_cast<int>(ports));
  // Without `teaming`, more ports are active/standby: vSAN's one vmknic uses one of them
  // ([S29] [S65]); LACP only when the file says so.
  f.teaming = n.choice("teaming") == "lacp" ? Teaming::lacp : Teaming::failover;
  f.active_ports = f.teaming == Teaming::lacp ? static_cast<int>(ports) : 1;
  f.rx_queues = static_cast<int>(n.integer("rx_queues", f.rx_queues));
  out.network.framing.mtu = static_cast<int>(n.integer("mtu"));
  out.network.framing.transport = n.choice("transport") == "tcp" ? Transport::tcp : Transport::rdma;
  for (const char* key : {"rx_queues", "rx_interrupt_us"})
    if (n.has(key) && out.network.framing.transport == Transport::rdma)
      notes.push_back(n.key_path(key) + " has no effect with transport rdma: RDMA receives without the " +
                      "vmkernel's receive queues");
  if (n.has("rx_interrupt_us") && f.rx_queues == 0)
    notes.push_back(n.key_path("rx_interrupt_us") + " has no effect with rx_queues 0: moderation is modelled on " +
                    "the receive queues");
}

// The switch and the fabric: one switch, direct links or leaf-spine.
void read_switches(const YamlReader& n, double speed, long total, const HardwareCatalog& cat, FabricSpec& f,
                   std::vector<std::string>& notes) {
  if (n.has("switch")) {
    try {
      f.leaf = cat.network_switch(n.text("switch", ""));
    } catch (const InvalidArgument& e) {
      n.fail_at("switch", e.what());
    }
    if (f.leaf.port_speed_gbps > 0 && f.leaf.port_speed_gbps < speed)
      note_exceeds(n, "speed_gbe", speed, f.leaf.port_speed_gbps, "switch", f.leaf.name, notes);
  } else {
    f.leaf = cat.network_switch(SwitchSpec::default_name(speed));
  }
  const std::string fabric = n.choice("fabric");
  f.kind = fabric == "direct" ? FabricKind::direct : fabric == "leaf_spine" ? FabricKind::leaf_spine : FabricKind::single_switch;
  f.hosts_per_leaf = static_cast<int>(n.integer("hosts_per_leaf", std::min<long>(total, 16)));
  f.spines = static_cast<int>(n.integer("spines"));
  f.uplink_gbps = n.number("uplink_gbe");
  f.spine = cat.network_switch(SwitchSpec::default_spine_name());
}

// cluster.host.network: NIC, teaming, fabric.
void read_network(const YamlReader& n, long total, const HardwareCatalog& cat, ClusterSpec& out,
                  std::vector<std::string>& notes) {
  n.expect_keys();
  const double speed = read_nic(n, cat, out.fabric);
  read_ports(n, speed, out, notes);
  read_switches(n, speed, total, cat, out.fabric, notes);
}

// Hosts that are down for the whole run, by name (ClusterSpec::failed_hosts).
void read_failed_hosts(const YamlReader& c, ClusterSpec& out) {
  if (!c.has("failed_hosts")) return;
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

void read_resync(const YamlReader& c, ClusterSpec& out) {
  if (!c.has("resync")) return;
  const YamlReader rs = c.child("resync");
  rs.expect_keys();
  out.resync.active = rs.flag("active");
  out.resync.throttle_mbit_s = rs.number("throttle_mbit_s");
  const double t = out.resync.throttle_mbit_s;
  if (t > 0 && t < 1)   // esxcli vsan resync throttle's range: 0 or 1 .. 512
    rs.fail_value(rs.key_path("throttle_mbit_s"), rs.text("throttle_mbit_s", ""), describe_range(rs.row("throttle_mbit_s")),
                  rs.node()["throttle_mbit_s"]);
  out.resync.outstanding = static_cast<int>(rs.integer("outstanding", out.resync.outstanding));
  if (out.resync.active && out.failed_hosts.empty())
    rs.fail("cluster.resync.active rebuilds the components of failed hosts; list them in cluster.failed_hosts");
}

void read_osa(const YamlReader& c, OsaSettings& s) {
  if (!c.has("osa")) return;
  const YamlReader o = c.child("osa");
  o.expect_keys();
  const double buffer_gb = o.number("write_buffer_gb", static_cast<double>(s.write_buffer.count()) / 1e9);
  s.write_buffer = Bytes{static_cast<std::int64_t>(buffer_gb * 1e9)};
  s.hybrid_read_cache_share = o.number("hybrid_read_cache_share", s.hybrid_read_cache_share);
  s.destage_start_fill = o.number("destage_start_fill", s.destage_start_fill);
  s.destage_idle_fill = o.number("destage_idle_fill", s.destage_idle_fill);
  s.destage_batch_blocks = static_cast<int>(o.integer("destage_batch_blocks", s.destage_batch_blocks));
  s.destage_depth = static_cast<int>(o.integer("destage_depth", s.destage_depth));
  s.congestion_start_fill = o.number("congestion_start_fill", s.congestion_start_fill);
  s.congestion_full_fill = o.number("congestion_full_fill", s.congestion_full_fill);
  s.congestion_delay_a_us = o.number("congestion_delay_a_us", s.congestion_delay_a_us);
  s.congestion_delay_b = o.number("congestion_delay_b", s.congestion_delay_b);
  s.stripe_unit = Bytes{o.integer("stripe_unit_kb", s.stripe_unit.count() / 1024) * 1024};
  s.dedupe_lookup_miss = o.number("dedupe_lookup_miss", s.dedupe_lookup_miss);
  s.lsom_worlds_per_dg = static_cast<int>(o.integer("lsom_worlds_per_dg", s.lsom_worlds_per_dg));
  s.lsom_cost_factor = o.number("lsom_cost_factor", s.lsom_cost_factor);
  const bool world = s.destage_reduction == DestageReduction::world;
  s.destage_reduction = o.choice("destage_reduction", world ? "world" : "shared") == "world"
                            ? DestageReduction::world
                            : DestageReduction::shared;
}

void read_esa(const YamlReader& c, EsaSettings& s) {
  if (!c.has("esa")) return;
  const YamlReader e = c.child("esa");
  e.expect_keys();
  s.lfs_overhead = e.number("lfs_overhead", s.lfs_overhead);
  s.gc_factor = e.number("gc_factor", s.gc_factor);
  s.cpu_per_io_factor = e.number("cpu_per_io_factor", s.cpu_per_io_factor);
  s.stripe_unit = Bytes{e.integer("stripe_unit_kb", s.stripe_unit.count() / 1024) * 1024};
  if (e.has("large_write_kib")) s.large_write = Bytes{e.integer("large_write_kib", 0) * 1024};
  if (e.has("client_worlds_per_object")) s.client_worlds = static_cast<int>(e.integer("client_worlds_per_object", 1));
}

}  // namespace

void read_cluster(const YamlReader& c, const HardwareCatalog& cat, ClusterSpec& out, std::vector<std::string>& notes) {
  c.expect_keys();
  const long hosts = read_cluster_shape(c, out);
  const YamlReader h = c.child("host");
  h.expect_keys();
  long total = 0;
  const std::vector<std::pair<long, HostSpec>> templates = read_host_kinds(c, h, hosts, cat, notes, total);
  read_network(h.child("network"), total, cat, out, notes);
  for (const auto& [count, host] : templates)
    for (long i = 0; i < count; ++i) {
      HostSpec copy = host;
      char name[32];
      std::snprintf(name, sizeof name, "esx%02zu", out.hosts.size() + 1);
      copy.name = name;
      out.hosts.push_back(copy);
    }
  read_failed_hosts(c, out);
  read_resync(c, out);
  read_osa(c, out.osa);
  read_esa(c, out.esa);
  if (out.architecture == Architecture::esa && out.esa.large_write.count() > 0 && out.release < VsanRelease::v8_0u1) {
    const YamlReader e = c.child("esa");
    e.fail_value(e.key_path("large_write_kib"), e.text("large_write_kib", ""),
                 "0: vSAN " + std::string(vsan_release_name(out.release)) +
                     " has no large-I/O write path (8.0 U1 added it: cluster.vsan_release 8.0u1 or later)",
                 e.node()["large_write_kib"]);
  }
  if (out.architecture == Architecture::esa && out.esa.client_worlds > 1 && out.release < VsanRelease::v8_0u2) {
    const YamlReader e = c.child("esa");
    e.fail_value(e.key_path("client_worlds_per_object"), e.text("client_worlds_per_object", ""),
                 "1: vSAN " + std::string(vsan_release_name(out.release)) +
                     " has no DOM client helper threads (8.0 U2 added them: cluster.vsan_release 8.0u2 or later)",
                 e.node()["client_worlds_per_object"]);
  }
}

}  // namespace hcisim::detail
