// Every key of the three input files, declared once (FileKey in scenario.hpp; the lookups in
// file_keys.hpp). The readers take a key's range, default and "allowed" text from its row;
// unknown and retired keys, `--set`, `hcisim keys` and docs/reference.md's key list come from
// here. A new key is a row here, a field in its spec, a line in its reader and a line in
// docs/reference.md (docs/contributing.md).
#include "file_keys.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>

namespace hcisim {

namespace {

// Rows are designated initializers that leave the fields they do not name at FileKey's
// defaults; g++ 12 warns of that anyway (g++ 13 no longer does for designated initializers).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

// The C++ field a key sets, and a reader of it for tests and sensitivity studies.
#define HCISIM_FIELD(expr) \
  .field = #expr, .value = [](const Scenario& s) -> double { return static_cast<double>(s.expr); }

constexpr double kNone = FileKey::kNone;

// ---- scenario files ----------------------------------------------------------------------
constexpr FileKey kScenario[] = {
    {.path = "name", .type = "text", .default_text = "the file's path", .description = "the scenario's name in reports"},
    {.path = "seed", .type = "integer", .default_text = "1", .min = 0, .max = 2147483647,
     .description = "places the components and seeds every random stream", HCISIM_FIELD(seed)},
    {.path = "replication", .type = "integer", .default_text = "0", .min = 0, .max = 2147483647,
     .description = "an independent run of the same placement: every random stream but placement's",
     HCISIM_FIELD(replication)},
    {.path = "cluster", .type = "map", .default_text = "required", .description = "the hosts, their parts and the network"},
    {.path = "policy", .type = "map", .default_text = "RAID-1, FTT 1", .description = "the storage policy of every VMDK"},
    {.path = "data_services", .type = "map", .default_text = "none", .description = "dedupe and compression"},
    {.path = "workload", .type = "map", .default_text = "required",
     .description = "one workload (a tool's job or explicit keys), or groups of them"},
    {.path = "assumed", .type = "map", .default_text = "none",
     .allowed = "a map of scenario key paths to [low, high], e.g. {cluster.host.cpu.sockets: [1, 2]}",
     .description = "what the write-up does not state: each numeric key's plausible range, moved by --sensitivity "
                    "(no effect on a plain run)"},

    // cluster
    {.path = "cluster.hosts", .type = "integer", .default_text = "required", .min = 1, .max = 64,
     .description = "hosts built from cluster.host (more_hosts adds others)", HCISIM_FIELD(cluster.hosts.size())},
    {.path = "cluster.architecture", .type = "choice", .default_text = "osa", .allowed = "osa | esa",
     .description = "vSAN Original (disk groups) or Express (a storage pool) Storage Architecture",
     HCISIM_FIELD(cluster.architecture)},
    {.path = "cluster.vsan_release", .type = "choice", .default_text = "8.0u3",
     .allowed = "7.0 | 7.0u1 | 7.0u2 | 7.0u3 | 8.0 | 8.0u1 | 8.0u2 | 8.0u3",
     .description = "the vSAN release (ESA: 8.0 and later); it sets whether ESA has the large-I/O write path "
                    "(8.0 U1 and later) and whether Reserved Capacity exists (7.0 U1 and later)",
     .assumed_why = "write-ups rarely state it; the latest 8.0 release is the default",
     HCISIM_FIELD(cluster.release)},
    {.path = "cluster.witness_host", .type = "flag", .default_text = "false",
     .description = "a 2-node cluster with a witness host", HCISIM_FIELD(cluster.witness_host)},
    {.path = "cluster.capacity_reserve", .type = "choice", .default_text = "reserved on ESA (but 2-node), else slack",
     .allowed = "slack | reserved",
     .description = "the capacity rule: slack (vSAN 7.0: 30 % of raw or a host + 5 %) or reserved (7 U1+: operations + "
                    "host rebuild)",
     HCISIM_FIELD(cluster.capacity_reserve)},
    {.path = "cluster.client_cache_mib", .type = "number", .unit = "MiB", .default_text = "1024", .min = 0, .max = 1e9,
     .description = "the DOM client read cache's maximum per host; 0 turns it off",
     HCISIM_FIELD(cluster.client_cache_mb)},
    {.path = "cluster.failed_hosts", .type = "list", .default_text = "none", .allowed = "host names, e.g. [esx02]",
     .description = "hosts down for the whole run: the cluster runs degraded"},
    {.path = "cluster.resync", .type = "map", .default_text = "off", .description = "rebuilding the failed hosts' components"},
    {.path = "cluster.resync.active", .type = "flag", .default_text = "false",
     .description = "rebuild the failed hosts' components during the run", HCISIM_FIELD(cluster.resync.active)},
    {.path = "cluster.resync.throttle_mbit_s", .type = "number", .unit = "Mbit/s", .default_text = "0", .min = 0,
     .max = 512, .allowed = "0 (no cap) or 1 .. 512 Mbit/s",
     .description = "each host's resync traffic cap, megabits a second (esxcli vsan resync throttle); 0: no cap",
     HCISIM_FIELD(cluster.resync.throttle_mbit_s)},
    {.path = "cluster.resync.outstanding", .type = "integer", .default_text = "4", .min = 1, .max = 64,
     .description = "resync copies in flight per rebuilding host",
     .assumed_min = 1, .assumed_max = 16,
     .assumed_why = "vSAN's adaptive resync scheduler is not published: 4 copies in flight, from one to four times that",
     HCISIM_FIELD(cluster.resync.outstanding)},
    {.path = "cluster.resync.throttle_mbps", .type = "number", .unit = "Mbit/s", .default_text = "none",
     .description = "the resync throttle, in megabits a second where throughput_mbps elsewhere is megabytes",
     .replaced_by = "cluster.resync.throttle_mbit_s (the same figure, megabits a second)"},
    {.path = "cluster.host", .type = "map", .default_text = "required", .description = "the first `hosts` hosts' parts"},
    {.path = "cluster.more_hosts", .type = "list", .default_text = "none",
     .description = "hosts that differ, after cluster.host's: each {count} and cluster.host's keys but network"},
    {.path = "cluster.more_hosts[].count", .type = "integer", .default_text = "required", .min = 1, .max = 64,
     .description = "hosts of this kind (64 hosts in all)"},
    {.path = "cluster.client_cache_mb", .type = "number", .unit = "MiB", .default_text = "none",
     .description = "the client cache's maximum, in binary MiB under a decimal name",
     .replaced_by = "cluster.client_cache_mib (the same figure, MiB)"},
    {.path = "cluster.osa", .type = "map", .default_text = "data/calibration.yaml's",
     .description = "OSA software settings (no effect on ESA)"},
    {.path = "cluster.esa", .type = "map", .default_text = "data/calibration.yaml's",
     .description = "ESA software settings (no effect on OSA)"},

    // cluster.host
    {.path = "cluster.host.cpu", .type = "forms", .default_text = "required", .allowed = "{model} or {cores, ghz}",
     .description = "a catalog CPU (cpus.csv) and/or its figures"},
    {.path = "cluster.host.cpu.model", .type = "name", .default_text = "none", .allowed = "a name in data/cpus.csv",
     .description = "the CPU model: sockets, cores, threads and clock from the catalog"},
    {.path = "cluster.host.cpu.sockets", .type = "integer", .default_text = "the model's, else 1", .min = 1, .max = 8,
     .description = "CPU sockets per host", HCISIM_FIELD(cluster.hosts.front().cpu.sockets)},
    {.path = "cluster.host.cpu.cores", .type = "integer", .default_text = "the model's; required without one", .min = 1,
     .max = 256, .description = "cores per socket", HCISIM_FIELD(cluster.hosts.front().cpu.cores_per_socket)},
    {.path = "cluster.host.cpu.threads_per_core", .type = "integer", .default_text = "the model's, else 2", .min = 1,
     .max = 8, .description = "hardware threads per core", HCISIM_FIELD(cluster.hosts.front().cpu.threads_per_core)},
    {.path = "cluster.host.cpu.ghz", .type = "number", .unit = "GHz", .default_text = "the model's sustained all-core clock",
     .min = 0.1, .max = 10, .allowed = "the sustained all-core clock, 0.1 .. 10 GHz",
     .description = "ghz is the sustained all-core clock busy cores run at (not the base clock: a Xeon Gold 6338's is "
                    "2.6, its base 2.0); with a model, a ghz more than 10 % from the catalog's is said",
     HCISIM_FIELD(cluster.hosts.front().cpu.ghz)},
    {.path = "cluster.host.memory_gib", .type = "number", .unit = "GiB", .default_text = "0", .min = 0, .max = 65536,
     .allowed = "1 .. 65536 (GiB of memory per host), or 0: not stated",
     .description = "memory per host, which sizes the client cache (0.4 % of it, up to client_cache_mib); 0: not stated",
     .assumed_min = 64, .assumed_max = 256,
     .assumed_why = "not stated, the client cache is client_cache_mib; 64 GiB (seed 000's hosts, 262 MiB of cache) to "
                    "256 GiB, where 0.4 % reaches the 1 GiB maximum",
     HCISIM_FIELD(cluster.hosts.front().memory_gib)},
    {.path = "cluster.host.network", .type = "map", .default_text = "required", .description = "the NIC, its ports and the fabric"},
    {.path = "cluster.host.disk_groups", .type = "list", .default_text = "none", .allowed = "1 .. 5 of {cache, capacity}",
     .description = "OSA: disk groups of one cache drive and 1 .. 7 capacity drives"},
    {.path = "cluster.host.disk_groups[].cache", .type = "forms", .default_text = "required",
     .allowed = "a drive: a catalog name, {device, connection} or its figures",
     .description = "the group's cache drive (write buffer; read cache on hybrid)"},
    {.path = "cluster.host.disk_groups[].capacity", .type = "forms", .default_text = "required",
     .allowed = "a drive or a list of drives (with count)", .description = "the group's capacity drives"},
    {.path = "cluster.host.pool", .type = "forms", .default_text = "none", .allowed = "a drive or a list of drives (with count)",
     .description = "ESA: the storage pool's drives"},
    {.path = "cluster.host.memory_gb", .type = "number", .unit = "GiB", .default_text = "none",
     .description = "host memory, in binary GiB under a decimal name",
     .replaced_by = "cluster.host.memory_gib (the same figure: GiB, as DIMMs are counted)"},

    // cluster.host.network
    {.path = "cluster.host.network.speed_gbe", .type = "number", .unit = "Gbit/s", .default_text = "the NIC's; required without nic",
     .allowed = "1, 2.5, 5, 10, 25, 40, 50, 100, 200 or 400", .description = "the host links' line rate",
     HCISIM_FIELD(cluster.fabric.link_gbps)},
    {.path = "cluster.host.network.ports", .type = "integer", .default_text = "1", .min = 1, .max = 8,
     .description = "NIC ports per host cabled for vSAN",
     .field = "fabric.nic.ports (at least), fabric.active_ports (lacp)"},
    {.path = "cluster.host.network.teaming", .type = "choice", .default_text = "failover",
     .allowed = "failover | lacp",
     .description = "failover: active/standby, one port carries vSAN (vSAN's usual design [S29] [S65]); lacp: flows "
                    "spread over the ports by hash",
     HCISIM_FIELD(cluster.fabric.teaming)},
    {.path = "cluster.host.network.nic", .type = "name", .default_text = "a generic NIC at speed_gbe",
     .allowed = "a name in data/nics.csv",
     .description = "the NIC model; without one, 2 ports, 5 us per side, receive interrupts every 50 us",
     .assumed_why = "the generic NIC (NicSpec::generic) stands in for an unstated card: its interrupt moderation is "
                    "rx_interrupt_us's assumed range"},
    {.path = "cluster.host.network.mtu", .type = "integer", .unit = "bytes", .default_text = "1500", .min = 576, .max = 9216,
     .description = "the vSAN vmknic's MTU", HCISIM_FIELD(cluster.network.framing.mtu)},
    {.path = "cluster.host.network.transport", .type = "choice", .default_text = "tcp", .allowed = "tcp | rdma",
     .description = "vSAN over TCP or RDMA (RoCE v2)", HCISIM_FIELD(cluster.network.framing.transport)},
    {.path = "cluster.host.network.switch", .type = "name",
     .default_text = "Dell S4048-ON to 10 GbE, S5248F-ON to 25, S5232F-ON above", .allowed = "a name in data/switches.csv",
     .description = "the top-of-rack switch (each leaf of a leaf-spine)",
     .assumed_why = "an unstated switch is a common data-centre model of the links' speed (SwitchSpec::default_name)"},
    {.path = "cluster.host.network.fabric", .type = "choice", .default_text = "single_switch",
     .allowed = "single_switch | direct | leaf_spine", .description = "one switch, hosts cabled directly (2 hosts), or leaf-spine",
     HCISIM_FIELD(cluster.fabric.kind)},
    {.path = "cluster.host.network.hosts_per_leaf", .type = "integer", .default_text = "the hosts, at most 16", .min = 1,
     .max = 1024, .description = "leaf_spine: hosts on each leaf", HCISIM_FIELD(cluster.fabric.hosts_per_leaf)},
    {.path = "cluster.host.network.spines", .type = "integer", .default_text = "2", .min = 1, .max = 64,
     .description = "leaf_spine: spine switches", HCISIM_FIELD(cluster.fabric.spines)},
    {.path = "cluster.host.network.uplink_gbe", .type = "number", .unit = "Gbit/s", .default_text = "100",
     .allowed = "1, 2.5, 5, 10, 25, 40, 50, 100, 200 or 400", .description = "leaf_spine: each leaf-spine link",
     HCISIM_FIELD(cluster.fabric.uplink_gbps)},
    {.path = "cluster.host.network.rx_queues", .type = "integer", .unit = "queues", .default_text = "4", .min = 0, .max = 64,
     .description = "receive queues (RSS) carrying vSAN's TCP traffic, one thread each; 0: receive work on the shared cores",
     .assumed_min = 1, .assumed_max = 8,
     .assumed_why = "how many queues the vSAN vmknic gets is not published: most NICs offer at least 4 [S69]; 1 is a NIC "
                    "without RSS for it, 8 twice the assumed 4",
     HCISIM_FIELD(cluster.fabric.rx_queues)},
    {.path = "cluster.host.network.rx_interrupt_us", .type = "number", .unit = "us",
     .default_text = "the NIC's catalog figure; 50 without one", .min = 0, .max = 1000,
     .allowed = "0 (an interrupt per packet) .. 1000 us between receive interrupts",
     .description = "the shortest time between two receive interrupts of a queue; 0: none",
     .assumed_min = 10, .assumed_max = 50,
     .assumed_why = "without a catalog NIC: the catalog's NICs span 10 (Broadcom) to 50 us (Intel's 20,000 a second)",
     HCISIM_FIELD(cluster.fabric.nic.rx_interrupt_us)},

    // A drive given by its figures, wherever a drive goes (cache, capacity, pool).
    {.path = "drive.device", .type = "name", .default_text = "none (then the figures below)",
     .allowed = "a name in data/devices.csv", .description = "a catalog drive"},
    {.path = "drive.count", .type = "integer", .default_text = "1", .min = 1, .max = 35,
     .description = "this many alike (capacity and pool lists only)"},
    {.path = "drive.connection", .type = "name", .default_text = "the interface's usual: nvme-direct, sas-hba, sata-hba, usb-nvme",
     .allowed = "a name in data/connections.csv", .description = "how the drive is attached (controller, bridge)"},
    {.path = "drive.name", .type = "text", .default_text = "inline-<its key path>", .description = "an inline drive's name"},
    {.path = "drive.kind", .type = "choice", .default_text = "ssd", .allowed = "ssd | hdd", .description = "flash or disk"},
    {.path = "drive.interface", .type = "choice", .default_text = "nvme (ssd), sas (hdd)", .allowed = "nvme | sas | sata | usb-nvme",
     .description = "the drive's interface"},
    {.path = "drive.capacity_gb", .type = "number", .unit = "GB", .default_text = "required (inline)",
     .description = "the drive's capacity (decimal GB)"},
    {.path = "drive.read_iops_4k", .type = "number", .unit = "IOPS", .default_text = "required (inline ssd)",
     .description = "4 KiB random reads per second (datasheet)"},
    {.path = "drive.write_iops_4k", .type = "number", .unit = "IOPS", .default_text = "required (inline ssd)",
     .description = "4 KiB random writes per second (datasheet)"},
    {.path = "drive.read_latency_us", .type = "number", .unit = "us", .default_text = "required (inline ssd)",
     .description = "a 4 KiB read's latency at queue depth 1"},
    {.path = "drive.write_latency_us", .type = "number", .unit = "us", .default_text = "required (inline ssd)",
     .description = "a 4 KiB write's latency at queue depth 1"},
    {.path = "drive.seq_read_mbps", .type = "number", .unit = "MB/s", .default_text = "seq_mbps",
     .description = "sequential read bandwidth"},
    {.path = "drive.seq_write_mbps", .type = "number", .unit = "MB/s", .default_text = "seq_mbps",
     .description = "sequential write bandwidth"},
    {.path = "drive.seq_mbps", .type = "number", .unit = "MB/s", .default_text = "0",
     .description = "both sequential bandwidths at once"},
    {.path = "drive.rpm", .type = "number", .unit = "rpm", .default_text = "required (inline hdd)", .description = "spindle speed"},
    {.path = "drive.seek_ms", .type = "number", .unit = "ms", .default_text = "required (inline hdd)",
     .description = "average seek time"},

    // cluster.resync is above; cluster.osa
    {.path = "cluster.osa.write_buffer_gb", .type = "number", .unit = "GB", .default_text = "600", .min = 0.001, .max = 1e5,
     .allowed = "0.001 .. 100000 GB", .description = "logical write buffer per disk group (all-flash: 600, or 1600 selectable)",
     HCISIM_FIELD(cluster.osa.write_buffer.gb())},
    {.path = "cluster.osa.hybrid_read_cache_share", .type = "number", .default_text = "0.7", .min = 0, .max = 0.95,
     .description = "hybrid: the cache drive's share that is read cache", HCISIM_FIELD(cluster.osa.hybrid_read_cache_share)},
    {.path = "cluster.osa.destage_start_fill", .type = "number", .default_text = "0.3", .min = 0, .max = 1,
     .description = "the elevator destages above this buffer fill", HCISIM_FIELD(cluster.osa.destage_start_fill)},
    {.path = "cluster.osa.destage_idle_fill", .type = "number", .default_text = "0.05", .min = 0, .max = 1,
     .description = "after a second without writes it destages down to this fill",
     .assumed_min = 0, .assumed_max = 0.3,
     .assumed_why = "no source gives it: from an empty buffer to no idle drain (destage_start_fill)",
     HCISIM_FIELD(cluster.osa.destage_idle_fill)},
    {.path = "cluster.osa.destage_batch_blocks", .type = "integer", .unit = "4 KiB blocks", .default_text = "64", .min = 1,
     .max = 4096, .description = "blocks per elevator batch", HCISIM_FIELD(cluster.osa.destage_batch_blocks)},
    {.path = "cluster.osa.destage_depth", .type = "integer", .default_text = "8", .min = 1, .max = 256,
     .description = "destage I/Os in flight per capacity drive", HCISIM_FIELD(cluster.osa.destage_depth)},
    {.path = "cluster.osa.congestion_start_fill", .type = "number", .default_text = "0.7", .min = 0, .max = 1,
     .description = "congestion rises from 0 at this buffer fill", HCISIM_FIELD(cluster.osa.congestion_start_fill)},
    {.path = "cluster.osa.congestion_full_fill", .type = "number", .default_text = "0.95", .min = 0, .max = 1,
     .description = "... to 255 at this fill", HCISIM_FIELD(cluster.osa.congestion_full_fill)},
    {.path = "cluster.osa.congestion_delay_a_us", .type = "number", .unit = "us",
     .default_text = "data/calibration.yaml congestion_delay_a_us", .min = 0, .max = kNone,
     .description = "a in the congestion delay a x exp(b x congestion)", HCISIM_FIELD(cluster.osa.congestion_delay_a_us)},
    {.path = "cluster.osa.congestion_delay_b", .type = "number", .unit = "per congestion unit", .default_text = "0.035",
     .min = 0, .max = 0.1, .description = "b in the congestion delay", HCISIM_FIELD(cluster.osa.congestion_delay_b)},
    {.path = "cluster.osa.stripe_unit_kb", .type = "integer", .unit = "KiB", .default_text = "1024", .min = 4, .max = 65536,
     .description = "erasure coding's column width", HCISIM_FIELD(cluster.osa.stripe_unit.count() / 1024)},
    {.path = "cluster.osa.dedupe_lookup_miss", .type = "number", .default_text = "data/calibration.yaml dedupe_lookup_miss",
     .min = 0, .max = 1, .allowed = "a probability 0..1",
     .description = "the chance a capacity read misses the dedupe map's in-memory part",
     HCISIM_FIELD(cluster.osa.dedupe_lookup_miss)},
    {.path = "cluster.osa.lsom_worlds_per_dg", .type = "integer", .default_text = "1", .min = 0, .max = 64,
     .description = "servers of each disk group's own LSOM work; 0: the shared cores",
     HCISIM_FIELD(cluster.osa.lsom_worlds_per_dg)},
    {.path = "cluster.osa.lsom_cost_factor", .type = "number", .default_text = "data/calibration.yaml lsom_cost_factor",
     .min = 0, .max = 1000, .allowed = "a number > 0 and <= 1000", .description = "scales the per-operation work of the LSOM worlds",
     HCISIM_FIELD(cluster.osa.lsom_cost_factor)},
    {.path = "cluster.osa.destage_reduction", .type = "choice", .default_text = "world", .allowed = "world | shared",
     .description = "where the elevator's SHA-1 and LZ4 run: the group's LSOM world or the shared cores",
     .assumed_why = "VMware publishes neither; the fit keeps world (docs/accuracy.md)",
     HCISIM_FIELD(cluster.osa.destage_reduction)},

    // cluster.esa
    {.path = "cluster.esa.lfs_overhead", .type = "number", .default_text = "0.131", .min = 0, .max = kNone,
     .description = "the log-structured layer's capacity overhead [S44]", HCISIM_FIELD(cluster.esa.lfs_overhead)},
    {.path = "cluster.esa.gc_factor", .type = "number", .default_text = "data/calibration.yaml esa_gc_factor", .min = 0,
     .max = 100, .allowed = "a number > 0 and <= 100", .description = "segment cleaning's write amplification", HCISIM_FIELD(cluster.esa.gc_factor)},
    {.path = "cluster.esa.stripe_unit_kb", .type = "integer", .unit = "KiB", .default_text = "128", .min = 4, .max = 65536,
     .description = "the capacity leg's column width", HCISIM_FIELD(cluster.esa.stripe_unit.count() / 1024)},
    {.path = "cluster.esa.large_write_kib", .type = "integer", .unit = "KiB",
     .default_text = "one full stripe of the capacity leg (stripe_unit_kb x data columns) from 8.0 U1; 0 on 8.0",
     .min = 0, .max = 65536, .allowed = "0 (no large-I/O path) or one full stripe .. 65536 KiB; 0 before vsan_release 8.0u1",
     .description = "the write size from which a write skips the performance leg and is written as full stripes [S248]",
     .assumed_min = 128, .assumed_max = 2048,
     .assumed_why = "VMware publishes no size: from one 128 KiB stripe unit (a mirrored capacity leg's stripe) to four "
                    "RAID-6 4+2 stripes",
     .field = "esa_large_write(cluster)",
     .value = [](const Scenario& s) -> double { return static_cast<double>(esa_large_write(s.cluster).count()) / 1024; }},
    {.path = "cluster.esa.client_worlds_per_object", .type = "integer",
     .default_text = "1 before vsan_release 8.0u2; 4 from 8.0u2 (helper threads)", .min = 1, .max = 64,
     .allowed = "a whole number in [1, 64]; 1 before vsan_release 8.0u2",
     .description = "the worlds that run one object's DOM client work on the VM's host: one object's I/O "
                    "takes them one job per world at a time [S250]",
     .assumed_min = 2, .assumed_max = 8,
     .assumed_why = "8.0 U2 added helper threads to the object manager client [S250]; VMware gives no count: "
                    "from two (one helper thread) to eight (twice the assumed four)",
     .field = "esa_client_worlds(cluster)",
     .value = [](const Scenario& s) -> double { return esa_client_worlds(s.cluster); }},
    {.path = "cluster.esa.cpu_per_io_factor", .type = "number",
     .default_text = "data/calibration.yaml esa_cpu_per_io_factor", .min = 0, .max = 100,
     .allowed = "a number > 0 and <= 100",
     .description = "ESA's log-structured back end's (zDOM/LFS) CPU per operation relative to the component's base cost",
     HCISIM_FIELD(cluster.esa.cpu_per_io_factor)},

    // policy, data_services
    {.path = "policy.raid", .type = "choice", .default_text = "raid1", .allowed = "raid1 | raid5 | raid6",
     .description = "mirroring or erasure coding", HCISIM_FIELD(cluster.policy.raid)},
    {.path = "policy.ftt", .type = "integer", .default_text = "2 for raid6, else 1", .min = 0, .max = 3,
     .description = "failures to tolerate", HCISIM_FIELD(cluster.policy.ftt)},
    {.path = "policy.checksum", .type = "flag", .default_text = "true", .description = "vSAN's end-to-end checksum",
     HCISIM_FIELD(cluster.policy.checksum)},
    {.path = "policy.encryption", .type = "flag", .default_text = "false", .description = "data-at-rest encryption",
     HCISIM_FIELD(cluster.policy.encryption)},
    {.path = "policy.stripe_width", .type = "integer", .default_text = "1", .min = 1, .max = 12,
     .description = "OSA: disk stripes per object", HCISIM_FIELD(cluster.policy.stripe_width)},
    {.path = "data_services.dedupe", .type = "flag", .default_text = "false", .description = "deduplication (OSA: with compression)",
     HCISIM_FIELD(cluster.services.dedupe)},
    {.path = "data_services.compression", .type = "flag", .default_text = "dedupe's value", .description = "compression",
     HCISIM_FIELD(cluster.services.compression)},
    {.path = "data_services.reduction_ratio", .type = "number", .unit = "x", .default_text = "from compress_pct and dedupe_pct",
     .min = 1, .max = 100, .allowed = "a ratio 1..100 (1.5 for 1.5:1)",
     .description = "a planner's data-reduction ratio for the capacity line",
     HCISIM_FIELD(cluster.services.planned_reduction_ratio)},

    // workload (and each of workload.groups)
    {.path = "workload.hcibench", .type = "name", .default_text = "none",
     .allowed = "an HCIBench job name, e.g. fio-8vmdk-100ws-4k-70rdpct-100randompct-4threads",
     .description = "a workload from HCIBench's job name"},
    {.path = "workload.diskspd", .type = "text", .default_text = "none", .allowed = "a DiskSpd command line",
     .description = "a workload from a DiskSpd command line (runs alone)"},
    {.path = "workload.fio", .type = "text", .default_text = "none", .allowed = "fio options, e.g. bs=4k rw=randrw",
     .description = "a workload from fio's options"},
    {.path = "workload.preset", .type = "choice", .default_text = "none", .allowed = "oltp32k",
     .description = "a named workload"},
    {.path = "workload.easy_run", .type = "choice", .default_text = "none",
     .allowed = "4k-100read | 4k-0read | 4k-70read | 8k-50read | seq-read | seq-write",
     .description = "HCIBench Easy Run: VMs, VMDKs, threads and working set derived from the cluster"},
    {.path = "workload.easy_run_release", .type = "text", .default_text = "2.8.4",
     .allowed = "an HCIBench release, e.g. 2.8.2", .description = "the HCIBench release whose Easy Run layout is used"},
    {.path = "workload.name", .type = "text", .default_text = "the source's, else custom", .description = "the workload's name"},
    {.path = "workload.vms", .type = "integer", .default_text = "the source's, else one per host", .min = 1, .max = 10000,
     .allowed = "a whole number in [1, 10000] (leave vms out for the source's count, or one VM per host)",
     .description = "benchmark VMs in all", HCISIM_FIELD(workload.vms)},
    {.path = "workload.vmdks_per_vm", .type = "integer", .default_text = "the source's, else 1", .min = 1, .max = 64,
     .description = "virtual disks per VM", HCISIM_FIELD(workload.vmdks_per_vm)},
    {.path = "workload.outstanding_per_vmdk", .type = "integer", .default_text = "the source's, else 4", .min = 1,
     .max = 1024, .description = "I/Os each VMDK keeps outstanding", HCISIM_FIELD(workload.outstanding_per_vmdk)},
    {.path = "workload.block_size", .type = "size", .unit = "bytes", .default_text = "the source's, else 4k",
     .allowed = "a size such as 4k or 256k, a multiple of 512 bytes up to 16m", .description = "the I/O size",
     HCISIM_FIELD(workload.block.count())},
    {.path = "workload.read_pct", .type = "number", .unit = "%", .default_text = "the source's, else 70", .min = 0,
     .max = 100, .allowed = "a percentage 0..100", .description = "reads among the I/Os", HCISIM_FIELD(workload.read_pct)},
    {.path = "workload.random_pct", .type = "number", .unit = "%", .default_text = "the source's, else 100", .min = 0,
     .max = 100, .allowed = "a percentage 0..100", .description = "random I/Os among them",
     HCISIM_FIELD(workload.random_pct)},
    {.path = "workload.working_set_pct", .type = "number", .unit = "%", .default_text = "the source's, else 100", .min = 0,
     .max = 100, .allowed = "a percentage in (0, 100]", .description = "the share of each VMDK addressed",
     HCISIM_FIELD(workload.working_set_pct)},
    {.path = "workload.vmdk_size", .type = "size", .unit = "bytes", .default_text = "the source's, else 10g",
     .allowed = "a size with its unit, such as 10g (binary: k, m, g, t)", .description = "each virtual disk's size",
     HCISIM_FIELD(workload.vmdk_size.count())},
    {.path = "workload.compress_pct", .type = "number", .unit = "%", .default_text = "the source's, else 0", .min = 0,
     .max = 100, .allowed = "a percentage 0..100", .description = "how compressible the data is (fio buffer_compress_percentage)",
     HCISIM_FIELD(workload.compress_pct)},
    {.path = "workload.dedupe_pct", .type = "number", .unit = "%", .default_text = "the source's, else 0", .min = 0,
     .max = 99, .allowed = "0..99", .description = "duplicate blocks among the data (fio dedupe_percentage)",
     HCISIM_FIELD(workload.dedupe_pct)},
    {.path = "workload.duration_s", .type = "forms", .unit = "s", .default_text = "the source's, else 30", .min = 1e-6,
     .max = 86400, .allowed = "1e-6..86400 seconds, or auto",
     .description = "the measured window; auto: until the 95 % intervals are within auto_precision_pct",
     HCISIM_FIELD(workload.duration_s)},
    {.path = "workload.warmup_s", .type = "number", .unit = "s", .default_text = "the source's, else 5", .min = 0,
     .max = 86400, .allowed = "0..86400 seconds", .description = "simulated time before the window",
     HCISIM_FIELD(workload.warmup_s)},
    {.path = "workload.history_s", .type = "number", .unit = "s", .default_text = "the source's, else 1800", .min = 0,
     .max = 1e7, .allowed = "0..1e7 seconds",
     .description = "how long the workload ran before the window (HCIBench's warm-up), which ages OSA write buffers",
     .assumed_min = 0, .assumed_max = 3600,
     .assumed_why = "a write-up rarely says how long the test ran first: from fresh buffers to an hour",
     HCISIM_FIELD(workload.history_s)},
    {.path = "workload.auto_precision_pct", .type = "number", .unit = "%", .default_text = "1", .min = 0.01, .max = 50,
     .allowed = "0.01..50 (% of the mean)", .description = "duration_s auto: the 95 % intervals' half-width",
     HCISIM_FIELD(workload.auto_precision_pct)},
    {.path = "workload.auto_max_s", .type = "number", .unit = "s", .default_text = "600", .min = 1, .max = 86400,
     .allowed = "1..86400 seconds", .description = "duration_s auto: the longest window", HCISIM_FIELD(workload.auto_max_s)},
    {.path = "workload.iops_limit_per_vm", .type = "number", .unit = "IOPS", .default_text = "0", .min = 0, .max = 1e8,
     .allowed = "0 (no limit) or 0.001..1e8 I/O/s per VM", .description = "> 0: an open loop at this rate per VM (fio rate_iops)",
     HCISIM_FIELD(workload.iops_limit_per_vm)},
    {.path = "workload.latency_target_ms", .type = "number", .unit = "ms", .default_text = "0", .min = 0, .max = kNone,
     .description = "> 0: HCIBench's latency-target mode (one workload)", HCISIM_FIELD(workload.latency_target_ms)},
    {.path = "workload.vscsi", .type = "choice", .default_text = "pvscsi", .allowed = "pvscsi | lsilogic",
     .description = "the VMDKs' virtual adapter", HCISIM_FIELD(workload.vscsi)},
    {.path = "workload.vscsi_disk_queue", .type = "integer", .default_text = "0", .min = 0, .max = 1024,
     .description = "I/Os out of the guest per disk; 0: the adapter's (PVSCSI 64, LSI Logic 32)",
     HCISIM_FIELD(workload.vscsi_disk_queue)},
    {.path = "workload.vscsi_adapter_queue", .type = "integer", .default_text = "0", .min = 0, .max = 4096,
     .description = "I/Os out of the guest per adapter; 0: the adapter's (PVSCSI 254, LSI Logic 128)",
     HCISIM_FIELD(workload.vscsi_adapter_queue)},
    {.path = "workload.vcpus_per_vm", .type = "integer", .default_text = "0", .min = 0, .max = 768,
     .description = "the benchmark VM's vCPUs, for its own CPU table; 0: not stated", HCISIM_FIELD(workload.vcpus_per_vm)},
    {.path = "workload.guest_os", .type = "choice", .default_text = "windows for a DiskSpd command line, else linux",
     .allowed = "linux | windows", .description = "the guest's storage stack: its CPU per I/O", HCISIM_FIELD(workload.guest_os)},
    {.path = "workload.groups", .type = "list", .default_text = "none",
     .description = "workloads at once: each item the workload keys above (and a name) laid over the workload's"},
};

// ---- requirements files (hcisim size) ------------------------------------------------------
constexpr FileKey kRequirements[] = {
    {.path = "name", .type = "text", .default_text = "the file's path", .description = "the study's name"},
    {.path = "workload", .type = "map", .default_text = "required (or workloads)", .description = "one demand"},
    {.path = "workloads", .type = "list", .default_text = "none", .allowed = "2 .. 64 named demands",
     .description = "demands that run at once: each a workload map with a name"},
    {.path = "workloads[].name", .type = "text", .default_text = "required", .allowed = "a workload's name, 1 to 64 characters",
     .description = "the demand's name"},
    {.path = "workload.iops", .type = "number", .unit = "IOPS", .default_text = "required", .min = 1, .max = 1e9,
     .allowed = "IOPS from 1 to 1e9", .description = "the IOPS the cluster must deliver today"},
    {.path = "workload.block_size", .type = "size", .unit = "bytes", .default_text = "8k",
     .allowed = "a size such as 8k, 512 to 16m", .description = "the I/O size"},
    {.path = "workload.read_pct", .type = "integer", .unit = "%", .default_text = "70", .min = 0, .max = 100,
     .description = "reads among the I/Os"},
    {.path = "workload.random_pct", .type = "integer", .unit = "%", .default_text = "100", .min = 0, .max = 100,
     .description = "random I/Os among them"},
    {.path = "workload.mean_ms", .type = "number", .unit = "ms", .default_text = "one of mean_ms, p95_ms, p99_ms",
     .min = 0, .max = 1e4, .allowed = "a latency in ms, > 0 and at most 10000", .description = "the mean latency target"},
    {.path = "workload.p95_ms", .type = "number", .unit = "ms", .default_text = "one of mean_ms, p95_ms, p99_ms", .min = 0,
     .max = 1e4, .allowed = "a latency in ms, > 0 and at most 10000", .description = "the 95th percentile target"},
    {.path = "workload.p99_ms", .type = "number", .unit = "ms", .default_text = "one of mean_ms, p95_ms, p99_ms", .min = 0,
     .max = 1e4, .allowed = "a latency in ms, > 0 and at most 10000", .description = "the 99th percentile target"},
    {.path = "workload.capacity_tb", .type = "number", .unit = "TB", .default_text = "0", .min = 0, .max = 1e6,
     .allowed = "decimal TB from 0 to 1e6", .description = "usable VM data today (decimal TB); 0: no capacity demand"},
    {.path = "workload.compress_pct", .type = "integer", .unit = "%", .default_text = "0", .min = 0, .max = 100,
     .description = "how compressible the data is (the same in every demand)"},
    {.path = "workload.dedupe_pct", .type = "integer", .unit = "%", .default_text = "0", .min = 0, .max = 100,
     .description = "duplicate blocks among the data (the same in every demand)"},
    {.path = "workload.vms", .type = "integer", .default_text = "24", .min = 1, .max = 1000,
     .description = "VMs that carry the demand (4 VMDKs, 32 outstanding each)"},
    {.path = "workload.guest_os", .type = "choice", .default_text = "linux", .allowed = "linux | windows",
     .description = "their OS: its storage stack's CPU per I/O"},
    {.path = "growth", .type = "map", .default_text = "none", .description = "how the demand grows"},
    {.path = "growth.per_year_pct", .type = "number", .unit = "% a year", .default_text = "0", .min = 0, .max = 1000,
     .allowed = "0..1000 % a year", .description = "growth of IOPS and capacity a year"},
    {.path = "growth.years", .type = "integer", .unit = "years", .default_text = "1", .min = 0, .max = 20,
     .description = "years of growth to plan for"},
    {.path = "host_failures", .type = "integer", .unit = "hosts", .default_text = "0", .min = 0, .max = 3,
     .description = "hosts down while the demand must still be met"},
    {.path = "require_rebuild", .type = "flag", .default_text = "false",
     .description = "fail designs with no host or no free capacity to rebuild on after host_failures"},
    {.path = "existing", .type = "map", .default_text = "none", .description = "hosts the cluster has today"},
    {.path = "existing.count", .type = "integer", .unit = "hosts", .default_text = "required", .min = 1, .max = 63,
     .description = "how many"},
    {.path = "existing.host", .type = "map", .default_text = "required",
     .description = "their parts: a scenario's cluster.host keys but network"},
    {.path = "existing.network", .type = "map", .default_text = "required", .description = "a scenario's cluster.host.network"},
    {.path = "candidates", .type = "map", .default_text = "required", .description = "the building blocks to choose from"},
    {.path = "candidates.hosts", .type = "map", .default_text = "3 .. 16 (existing: 0 .. 8 added)",
     .description = "the host counts to try"},
    {.path = "candidates.hosts.min", .type = "integer", .unit = "hosts", .default_text = "3 (existing: 0)", .min = 0,
     .max = 64, .description = "the fewest (with existing hosts: added)"},
    {.path = "candidates.hosts.max", .type = "integer", .unit = "hosts", .default_text = "16 (existing: 8)", .min = 0,
     .max = 64, .description = "the most"},
    {.path = "candidates.host_models", .type = "list", .default_text = "required",
     .description = "host models: each a name and a scenario's cluster.host keys but network"},
    {.path = "candidates.host_models[].name", .type = "text", .default_text = "required",
     .description = "the host model's name in the answers"},
    {.path = "candidates.networks", .type = "list", .default_text = "required (existing: theirs)",
     .description = "networks: each a scenario's cluster.host.network"},
    {.path = "candidates.policies", .type = "list", .default_text = "required", .description = "policies: each a scenario's policy"},
    {.path = "candidates.data_services", .type = "map", .default_text = "none",
     .description = "a scenario's data_services, for every design"},
    {.path = "prices", .type = "text", .default_text = "the catalog's", .allowed = "a price file's path",
     .description = "a price file, relative to this file, laid over the catalog's prices"},
    {.path = "run", .type = "map", .default_text = "short runs", .description = "how each candidate is simulated"},
    {.path = "run.duration_s", .type = "number", .unit = "s", .default_text = "0.5", .min = 0.05, .max = 60,
     .allowed = "0.05..60 s", .description = "each run's measured window"},
    {.path = "run.warmup_s", .type = "number", .unit = "s", .default_text = "0.2", .min = 0, .max = 60,
     .allowed = "0..60 s", .description = "each run's warm-up"},
    {.path = "run.seed", .type = "integer", .default_text = "1", .min = 0, .max = 2147483647, .description = "the runs' seed"},
    {.path = "run.max_simulations", .type = "integer", .unit = "runs", .default_text = "200", .min = 1, .max = 100000,
     .description = "the search stops after this many runs"},
    {.path = "top", .type = "integer", .unit = "designs", .default_text = "3", .min = 1, .max = 20,
     .description = "designs reported"},
};

// ---- price files -----------------------------------------------------------------------------
constexpr FileKey kPrices[] = {
    {.path = "currency", .type = "choice", .default_text = "required", .allowed = "USD", .description = "prices are US dollars"},
    {.path = "source", .type = "text", .default_text = "price file <path>", .description = "where the prices come from"},
    {.path = "host_base", .type = "number", .unit = "USD", .default_text = "the catalog's", .min = 0, .max = 1e9,
     .allowed = "US dollars from 0 to 1e9", .description = "a host without CPUs, drives or NICs"},
    {.path = "cpus", .type = "map", .default_text = "none", .allowed = "cpus.csv names to US dollars", .description = "per CPU"},
    {.path = "devices", .type = "map", .default_text = "none", .allowed = "devices.csv names to US dollars",
     .description = "per drive"},
    {.path = "nics", .type = "map", .default_text = "none", .allowed = "nics.csv names to US dollars", .description = "per NIC card"},
    {.path = "switches", .type = "map", .default_text = "none", .allowed = "switches.csv names to {switch, cable}",
     .description = "per switch and per cable"},
    {.path = "switches.<name>.switch", .type = "number", .unit = "USD", .default_text = "the catalog's", .min = 0, .max = 1e9,
     .allowed = "US dollars from 0 to 1e9", .description = "one switch"},
    {.path = "switches.<name>.cable", .type = "number", .unit = "USD", .default_text = "the catalog's", .min = 0, .max = 1e9,
     .allowed = "US dollars from 0 to 1e9", .description = "one cable to it"},
    {.path = "licences", .type = "map", .default_text = "the catalog's", .description = "vSAN licences"},
    {.path = "licences.per_core", .type = "number", .unit = "USD", .default_text = "the catalog's", .min = 0, .max = 1e9,
     .allowed = "US dollars from 0 to 1e9", .description = "per licensed core"},
    {.path = "licences.min_cores_per_socket", .type = "integer", .unit = "cores", .default_text = "0", .min = 0, .max = 1024,
     .description = "per_core: the fewest cores licensed per socket"},
    {.path = "licences.per_tib_raw", .type = "number", .unit = "USD", .default_text = "the catalog's", .min = 0, .max = 1e9,
     .allowed = "US dollars from 0 to 1e9", .description = "per TiB of raw capacity"},
};

#undef HCISIM_FIELD
#pragma GCC diagnostic pop

struct File {
  std::string_view name;
  const FileKey* begin;
  const FileKey* end;
};

constexpr File kFiles[] = {{"scenario", std::begin(kScenario), std::end(kScenario)},
                           {"requirements", std::begin(kRequirements), std::end(kRequirements)},
                           {"prices", std::begin(kPrices), std::end(kPrices)}};

FileKey completed(const FileKey& row, std::string_view file) {
  FileKey k = row;
  k.file = file;
  double v = 0;
  const auto [p, ec] = std::from_chars(k.default_text.data(), k.default_text.data() + k.default_text.size(), v);
  if (ec == std::errc{} && p == k.default_text.data() + k.default_text.size()) k.default_number = v;
  return k;
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// Whether `path` is `prefix` or lies under it (cluster.host selects cluster.host.cpu, not
// cluster.hosts).
bool under(std::string_view path, std::string_view prefix) {
  if (!starts_with(path, prefix)) return false;
  return path.size() == prefix.size() || path[prefix.size()] == '.' || path[prefix.size()] == '[' ||
         prefix.back() == '.';
}

}  // namespace

std::vector<FileKey> file_keys(std::string_view prefix) {
  std::vector<FileKey> out;
  for (const File& f : kFiles)
    for (const FileKey* k = f.begin; k != f.end; ++k)
      if (prefix.empty() || prefix == f.name || under(k->path, prefix)) out.push_back(completed(*k, f.name));
  return out;
}

namespace detail {

std::optional<FileKey> find_file_key(std::string_view file, std::string_view path) {
  for (const File& f : kFiles)
    if (f.name == file)
      for (const FileKey* k = f.begin; k != f.end; ++k)
        if (k->path == path) return completed(*k, f.name);
  return std::nullopt;
}

std::vector<std::string_view> section_keys(std::string_view file, std::string_view section) {
  std::vector<std::string_view> out;
  for (const File& f : kFiles)
    if (f.name == file)
      for (const FileKey* k = f.begin; k != f.end; ++k) {
        const std::string_view p = k->path;
        const std::size_t dot = p.rfind('.');
        const std::string_view parent = dot == std::string_view::npos ? std::string_view{} : p.substr(0, dot);
        if (parent == section) out.push_back(dot == std::string_view::npos ? p : p.substr(dot + 1));
      }
  return out;
}

std::string canonical_section(std::string_view file, std::string_view section) {
  std::string s(section);
  if (file == "scenario") {
    // A group is the workload's keys; a more_hosts item cluster.host's (its count aside); a
    // drive given by figures sits under cache, capacity and pool, in a list or alone.
    if (s == "workload.groups[]") return "workload";
    if (starts_with(s, "cluster.more_hosts[]") && s != "cluster.more_hosts[]")
      s = "cluster.host" + s.substr(std::string_view("cluster.more_hosts[]").size());
    for (const char* drive : {".cache", ".capacity", ".capacity[]", ".pool", ".pool[]"}) {
      const std::string_view d = drive;
      if (starts_with(s, "cluster.host") && s.size() > d.size() && s.compare(s.size() - d.size(), d.size(), d) == 0)
        return "drive";
    }
  } else if (file == "requirements") {
    if (s == "workloads[]") return "workload";
  } else if (file == "prices") {
    if (starts_with(s, "switches.") && s.find('.', 9) == std::string::npos) return "switches.<name>";
  }
  return s;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Optimal string alignment: insertions, deletions, substitutions and swaps of neighbours.
  // The distance is at least the lengths' difference: a long key (a file's megabyte of
  // letters) is far from every name without a table of its length.
  const std::size_t longer = std::max(a.size(), b.size()), shorter = std::min(a.size(), b.size());
  if (longer - shorter > 8) return longer - shorter;
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

std::string did_you_mean(std::string_view file, std::string_view section, std::string_view key) {
  // The nearest key of the same section, if it is a typo away ...
  std::string_view best;
  std::size_t best_distance = 3;
  for (const std::string_view k : section_keys(file, section)) {
    const std::size_t d = edit_distance(key, k);
    if (d < best_distance && d <= std::max<std::size_t>(1, k.size() / 3)) best = k, best_distance = d;
  }
  if (!best.empty()) return section.empty() ? std::string(best) : std::string(section) + "." + std::string(best);
  // ... or the same key in another section (mtu under cluster.host instead of its network).
  for (const FileKey& k : file_keys())
    if (k.file == file && !k.retired()) {
      const std::size_t dot = k.path.rfind('.');
      if (dot != std::string_view::npos && k.path.substr(dot + 1) == key && k.path.substr(0, 5) != "drive")
        return std::string(k.path);
    }
  return {};
}

std::string describe_range(const FileKey& k) {
  if (!k.allowed.empty()) return std::string(k.allowed);
  const bool integer = k.type == "integer";
  std::string out = integer ? "a whole number" : "a number";
  if (k.min == k.min && k.max == k.max)
    out += integer ? " in [" + number_text(k.min) + ", " + number_text(k.max) + "]"
                   : " from " + number_text(k.min) + " to " + number_text(k.max);
  else if (k.min == k.min)
    out += " of at least " + number_text(k.min);
  else if (k.max == k.max)
    out += " of at most " + number_text(k.max);
  if (!k.unit.empty() && !integer) out += " " + std::string(k.unit);
  return out;
}

}  // namespace detail

}  // namespace hcisim
