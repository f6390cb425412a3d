// One scenario run (simulation.hpp).
#include "hcisim/scenario/simulation.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>

#include "hcisim/model/core/batch_means.hpp"
#include "hcisim/core/check.hpp"
#include "hcisim/report/run_report.hpp"
#include "hcisim/version.hpp"
#include "hcisim/model/workload/vm_workload.hpp"

namespace hcisim {

namespace {

void add_use(std::vector<ResourceClassUse>& classes, const std::string& cls, const std::string& member, double u,
             std::vector<int>& counts) {
  auto it = std::find_if(classes.begin(), classes.end(), [&](const ResourceClassUse& c) { return c.name == cls; });
  if (it == classes.end()) {
    classes.push_back({cls, 0, -1, ""});
    counts.push_back(0);
    it = classes.end() - 1;
  }
  const auto i = static_cast<std::size_t>(it - classes.begin());
  it->mean += u;
  ++counts[i];
  if (u > it->max) {
    it->max = u;
    it->busiest = member;
  }
}

// The workloads of a run: one, or the scenario's groups (`workload.groups`) behind one
// client that hands each completion to its group by the token's upper bits
// (VmWorkload::group_of). Each group's VMs continue the round-robin over the hosts where the
// group before it stopped.
class Workloads final : public IoClient {
 public:
  Workloads(Engine& engine, const Scenario& s) {
    const std::vector<WorkloadSpec> specs = scenario_workloads(s);
    const int hosts = static_cast<int>(s.cluster.hosts.size());
    int first_vm = 0;
    for (std::size_t g = 0; g < specs.size(); ++g) {
      loads_.push_back(std::make_unique<VmWorkload>(engine, specs[g], s.seed, s.threads_per_vmdk, s.replication,
                                                    static_cast<int>(g), first_vm));
      first_vm += specs[g].vm_count(hosts);
    }
  }
  void on_io_done(Cluster& cluster, std::uint64_t token) override {
    loads_[static_cast<std::size_t>(VmWorkload::group_of(token))]->on_io_done(cluster, token);
  }
  void start(Cluster& cluster) {
    for (auto& l : loads_) l->start(cluster);
  }
  void reset_stats() {
    for (auto& l : loads_) l->reset_stats();
  }
  std::uint64_t completed() const {
    std::uint64_t n = 0;
    for (const auto& l : loads_) n += l->completed();
    return n;
  }
  std::int64_t completed_latency_ns() const {
    std::int64_t n = 0;
    for (const auto& l : loads_) n += l->completed_latency_ns();
    return n;
  }
  Time measured_since() const { return loads_.front()->measured_since(); }
  std::vector<const VmWorkload*> all() const {
    std::vector<const VmWorkload*> out;
    for (const auto& l : loads_) out.push_back(l.get());
    return out;
  }
  const VmWorkload& front() const { return *loads_.front(); }
  std::size_t size() const { return loads_.size(); }

 private:
  std::vector<std::unique_ptr<VmWorkload>> loads_;
};

}  // namespace

// A run that cannot have finished right is an internal error, never a result. A
// guest I/O still in flight after far longer than the I/Os that completed (100
// times their mean, and at least 10 simulated seconds) is stuck: a deadlock in the model
// (a write larger than its write buffer, or one lost between two buffers' queues), which
// a report would otherwise show with normal latencies. The mean is
// over every completion since the start, warm-up included: an overloaded run whose I/Os
// take longer than the measured window so far has completed none issued in it.
void check_progress(const VmWorkload& load, Time now) {
  const VmWorkload::InFlight oldest = load.oldest_in_flight();
  if (!oldest.found) return;
  const double done = static_cast<double>(load.completed());
  const double mean_s = done > 0 ? static_cast<double>(load.completed_latency_ns()) / done * 1e-9 : 0.0;
  const double limit_s = std::max(10.0, 100 * mean_s);
  const double age_s = (now - oldest.issued).seconds();
  if (age_s <= limit_s) return;
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "the model stalled: VM %d's VMDK %d has had a %s in flight for %.1f simulated seconds (the %.0f I/Os "
                "completed so far took %.3f ms on average); no result is given",
                oldest.vm + 1, oldest.vmdk + 1, oldest.op == IoOp::read ? "read" : "write", age_s, done, mean_s * 1e3);
  throw std::runtime_error(buf);
}

RunResult simulate(const Scenario& scenario, const ProgressFn& progress) {
  if (scenario.calibration == Scenario::Calibration::none)
    throw InvalidArgument("scenario '" + scenario.name +
                          "' is not calibrated: build it with parse_scenario, load_scenario or make_scenario "
                          "(make_uncalibrated_scenario runs the uncalibrated model on purpose)");
  const auto wall0 = std::chrono::steady_clock::now();
  // The run's settings (length, warm-up, history, data profile) are the same in every group
  // (the file reader checks it; a scenario built in code is checked here).
  const WorkloadSpec& w = scenario.workload;
  for (const WorkloadSpec& g : scenario.groups)
    if (g.duration_s != w.duration_s || g.auto_duration != w.auto_duration || g.warmup_s != w.warmup_s ||
        g.history_s != w.history_s || g.auto_precision_pct != w.auto_precision_pct || g.auto_max_s != w.auto_max_s ||
        g.compress_pct != w.compress_pct || g.dedupe_pct != w.dedupe_pct)
      throw InvalidArgument("workload group '" + g.name + "': its run length or data profile differs from the scenario's "
                            "workload (Scenario::workload is the first group; these settings are the whole run's)");
  Engine engine;
  Workloads load(engine, scenario);
  Cluster cluster(engine, scenario.cluster, DataProfile{w.compress_pct, w.dedupe_pct}, scenario.seed, load,
                  scenario.replication);
  // An OSA write waits for room in its write buffers; one larger than a whole buffer would
  // wait forever and stall every VM behind it. A write reaches vSAN in the
  // virtual adapter's largest transfer at most (PVSCSI 512 KiB).
  const double buffer = cluster.smallest_write_buffer();
  for (const VmWorkload* l : load.all()) {
    const WorkloadSpec& g = l->spec();
    const std::int64_t piece = std::min(g.block.count(), max_transfer(g.vscsi).count());
    if (g.read_pct < 100 && buffer > 0 && static_cast<double>(piece) > buffer)
      throw InvalidArgument((load.size() > 1 ? "workload group '" + g.name + "' " : std::string("workload ")) +
                            "block_size = " + std::to_string(g.block.count()) + " bytes (" + std::to_string(piece) +
                            " per transfer of the virtual adapter) is not allowed with a " +
                            std::to_string(static_cast<long long>(buffer)) +
                            "-byte OSA write buffer (cluster.osa.write_buffer_gb): a write must fit in the buffer");
  }
  load.start(cluster);
  if (scenario.cluster.resync.active) cluster.start_resync();

  const Time warmup = Time::from_seconds(w.warmup_s);
  const Time cap = Time::from_seconds(w.auto_duration ? w.auto_max_s : w.duration_s);
  const Time planned = warmup + cap;
  auto report = [&] {
    if (!progress) return;
    RunProgress p;
    p.simulated_s = engine.now().seconds();
    p.planned_s = planned.seconds();
    p.planned_is_bound = w.auto_duration;
    p.fraction = std::min(1.0, p.simulated_s / p.planned_s);
    p.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    progress(p);
  };
  auto advance_to = [&](Time until) {
    const int steps = progress ? 100 : 1;
    for (int i = 1; i <= steps; ++i) {
      engine.run_until(engine.now() + (until - engine.now()) / (steps - i + 1));
      report();
    }
  };
  // One batch of the series: completions and their latency since the last batch.
  std::uint64_t n0 = 0;
  std::int64_t s0 = 0;
  auto mark = [&] {
    n0 = load.completed();
    s0 = load.completed_latency_ns();
  };
  int batches = 0;
  std::vector<TimelinePoint> timeline;   // the measured window's batches
  // `in_window`: a batch of the measured window (on the timeline), not of the pilot.
  auto run_batch = [&](BatchSeries& series, Time until, bool in_window) {
    const Time from = engine.now();
    engine.run_until(until);
    const std::uint64_t n = load.completed() - n0;
    const std::int64_t latency_ns = load.completed_latency_ns() - s0;
    series.add(n, latency_ns);
    if (in_window) {
      TimelinePoint p;
      p.end_s = engine.now().seconds();
      p.iops = static_cast<double>(n) / (engine.now() - from).seconds();
      p.mean_latency_ms = n > 0 ? static_cast<double>(latency_ns) / static_cast<double>(n) * 1e-6 : 0.0;
      p.resync_done_gb = static_cast<double>(cluster.resync_status().done_bytes) / 1e9;
      timeline.push_back(p);
    }
    mark();
    report();
    // The progress watchdog every 16 batches, so a stall stops a long run early.
    if (++batches % 16 == 0)
      for (const VmWorkload* l : load.all()) check_progress(*l, engine.now());
  };
  // The measured window follows `history_s` of the same workload: start from prepared
  // buffers and let the warm-up age them that long (time-compressed), then run at k = 1.
  if (w.history_s > 0 && scenario.cluster.architecture == Architecture::osa) {
    cluster.prepare_write_buffers();
    if (warmup > Time::zero()) cluster.set_buffer_time_compression(std::max(1.0, w.history_s / w.warmup_s));
  }
  if (warmup > Time::zero()) advance_to(warmup);
  cluster.set_buffer_time_compression(1.0);

  RunLength length;
  length.automatic = w.auto_duration;
  length.warmup_s = w.warmup_s;
  std::optional<BatchSeries> series;
  if (!w.auto_duration) {
    // A fixed window, cut into kMaxBatches batches for its intervals.
    load.reset_stats();
    cluster.reset_stats();
    series.emplace(std::max(Time::ns(1), cap / BatchSeries::kMaxBatches));
    const Time cut = engine.now();
    mark();
    // Batch i ends at cut + cap * i / kMaxBatches (cap <= 86400 s: the product fits in 64 bits).
    for (std::int64_t i = 1; i <= BatchSeries::kMaxBatches; ++i)
      run_batch(*series, cut + Time::ns(cap.count_ns() * i / BatchSeries::kMaxBatches), true);
  } else {
    // The pilot: batches of 10 ms (doubling as they fill) until MSER puts the end of the
    // transient in the first half of a full series for both the rate and the mean latency,
    // i.e. both have settled; at most half the cap, so the window always gets the other half.
    // The pilot is all warm-up: only whether it settled is used, not MSER's truncation point.
    const Time start = engine.now();
    const Time end = start + cap;
    const Time pilot_end = start + cap / 2;
    BatchSeries pilot(Time::from_ms(10));
    mark();
    length.settled = false;
    while (engine.now() + pilot.width() <= pilot_end) {
      run_batch(pilot, engine.now() + pilot.width(), false);
      if (pilot.size() == BatchSeries::kMaxBatches && pilot.mser_truncation() < BatchSeries::kMaxBatches / 2 &&
          pilot.mser_truncation_latency() < BatchSeries::kMaxBatches / 2) {
        length.settled = true;
        break;
      }
    }
    length.pilot_s = (engine.now() - start).seconds();
    // The window: batches as wide as the pilot's next, until both half-widths are within the
    // target. The rule is looked at with 64, 96 and 128 batches held (few looks: less bias
    // from stopping on a lucky stretch), and only once the window is at least 4 / target mean
    // latencies long: the I/Os in flight at its start, which the HCIBench IOPS leaves out,
    // are then under a quarter of the target.
    load.reset_stats();
    cluster.reset_stats();
    series.emplace(pilot.width());
    mark();
    const double target = w.auto_precision_pct / 100;
    length.target_met = false;
    while (engine.now() + series->width() <= end) {
      run_batch(*series, engine.now() + series->width(), true);
      const double window_s = (engine.now() - load.measured_since()).seconds();
      if (series->size() % 32 == 0 && series->size() >= BatchSeries::kMaxBatches / 2 &&
          window_s * target >= 4 * series->mean_latency_ms() * 1e-3 && series->rate_interval().relative() <= target &&
          series->latency_interval_ms().relative() <= target) {
        length.target_met = true;
        break;
      }
    }
    length.target_pct = w.auto_precision_pct;
  }
  length.measured_s = (engine.now() - load.measured_since()).seconds();
  if (!(length.measured_s > 0))
    throw std::runtime_error("the measured window is empty; no result is given");

  for (const VmWorkload* l : load.all()) check_progress(*l, engine.now());
  // The end-of-run invariants. A violation is a broken model: an internal
  // error naming what broke, never a result.
  const auto broken = [](const std::string& what) {
    throw std::runtime_error(what + "; no result is given");
  };
  // Each group's guests against the operations they have out; all of them against the cluster.
  std::uint64_t out_ops = 0;
  for (const VmWorkload* l : load.all()) {
    out_ops += l->operations_out();
    if (const std::string guest = l->audit(engine.now(), l->operations_out()); !guest.empty())
      broken(load.size() > 1 ? "workload group '" + l->spec().name + "': " + guest : guest);
  }
  if (out_ops != cluster.live_requests())
    broken("the guests have " + std::to_string(out_ops) + " operations out, the cluster holds " +
           std::to_string(cluster.live_requests()));
  // Bytes through the guest/cluster boundary: what left the guests in the window is what the
  // cluster took in (the cluster counts each operation, the guests each I/O they split).
  std::int64_t out_of_guests[2] = {0, 0};
  for (const VmWorkload* l : load.all())
    for (const VmStats& vm : l->vm_stats())
      for (std::size_t op = 0; op < 2; ++op) out_of_guests[op] += vm.dispatched_bytes[op];
  const IoCounters& in = cluster.counters();
  if (out_of_guests[0] != in.host_read_bytes || out_of_guests[1] != in.host_write_bytes)
    broken("the guests sent " + std::to_string(out_of_guests[0]) + " read and " + std::to_string(out_of_guests[1]) +
           " write bytes in the window, the cluster took in " + std::to_string(in.host_read_bytes) + " and " +
           std::to_string(in.host_write_bytes));
  // Bytes through the amplification, where the rule is exact: a healthy cluster writes each
  // guest write byte to FTT + 1 foreground copies (OSA RAID-1: the replicas' write buffers,
  // reduced only at destage; ESA, any policy: the performance leg's mirrors, compressed at
  // ingest: docs/sources.md [S23] [S38] [S41]). The copies are counted where the devices are
  // given work, the guest bytes where the cluster takes them in; the window's edges hold at
  // most every slot's block on either side (and half a byte of rounding per operation).
  const ClusterSpec& cs = scenario.cluster;
  const bool esa = cs.architecture == Architecture::esa;
  if (cs.failed_hosts.empty() && !cs.resync.active && !cs.witness_host &&
      (esa || cs.policy.raid == RaidLevel::raid1)) {
    const double copies = cs.policy.ftt + 1;
    const double per_byte = copies / (esa ? cluster.reduction().compression : 1.0);
    const double expected = per_byte * static_cast<double>(in.host_write_bytes);
    double slot_bytes = 0;   // every slot's block, over the groups
    for (const VmWorkload* l : load.all())
      slot_bytes += static_cast<double>(l->vms()) * l->spec().vmdks_per_vm * l->spec().outstanding_per_vmdk *
                    static_cast<double>(l->spec().block.count());
    const double edges = 2 * per_byte * slot_bytes + copies * static_cast<double>(in.submitted);
    const double written = static_cast<double>(in.fg_device_write_bytes);
    if (std::abs(written - expected) > edges + 1e-9 * expected) {
      char buf[300];
      std::snprintf(buf, sizeof buf,
                    "the devices were given %.0f foreground write bytes for %.0f guest write bytes; %.0f copies per "
                    "byte%s give %.0f, +- %.0f at the window's edges",
                    written, static_cast<double>(in.host_write_bytes), copies, esa ? " (compressed)" : "", expected, edges);
      broken(buf);
    }
  }

  RunResult r;
  r.scenario = scenario.name;
  r.job_name = w.name;
  for (std::size_t g = 1; g < scenario.groups.size(); ++g) r.job_name += "+" + scenario.groups[g].name;
  r.version = kVersion;
  r.seed = scenario.seed;
  r.replication = scenario.replication;
  r.inputs.source = scenario.source;
  r.inputs.architecture = architecture_name(scenario.cluster.architecture);
  r.inputs.hosts = static_cast<int>(scenario.cluster.hosts.size());
  r.inputs.layout = scenario.cluster.layout().describe();
  r.inputs.workload = describe_workloads(scenario);
  r.inputs.warnings = scenario.warnings;
  r.workload = w;
  for (const VmWorkload* l : load.all()) {
    const int outstanding = l->vms() * l->spec().vmdks_per_vm * l->spec().outstanding_per_vmdk;
    r.vms += l->vms();
    r.configured_outstanding += outstanding;
    if (!scenario.groups.empty()) {
      GroupResult g{l->spec().name, l->spec().describe(), l->vms(), outstanding, l->spec().iops_limit_per_vm,
                    summarize(*l, engine.now()), {}};
      g.guest_os = l->spec().guest_os;
      for (const VmStats& vm : l->vm_stats())
        for (std::size_t op = 0; op < 2; ++op) g.pooled[op].merge(vm.latency[op]);
      r.groups.push_back(std::move(g));
    }
  }
  r.result = summarize(load.all(), engine.now());
  // A window shorter than every I/O completes none: its rates are 0 and its latencies mean
  // nothing, which the reports say rather than print zeros alone (the shortest window allowed, 1 us, does this);
  // likewise for an operation the workload issues, or a workload group, that completed none
  // while the rest did.
  const double secs = r.result.seconds;
  if (r.result.simulated_ios == 0) {
    r.window_warnings.push_back(no_io_warning(secs));
  } else {
    bool reads = false, writes = false;
    for (const VmWorkload* l : load.all()) {
      reads = reads || l->spec().read_pct > 0;
      writes = writes || l->spec().read_pct < 100;
    }
    if (reads && r.result.read_iops == 0) r.window_warnings.push_back(none_completed_warning("no read", secs));
    if (writes && r.result.write_iops == 0) r.window_warnings.push_back(none_completed_warning("no write", secs));
    for (const GroupResult& g : r.groups)
      if (g.result.simulated_ios == 0)
        r.window_warnings.push_back(none_completed_warning("workload group '" + g.name + "': no I/O", secs));
  }
  for (const std::string& said : r.window_warnings) r.inputs.warnings.push_back(said);
  r.result.iops_ci = series->rate_interval();
  r.result.latency_ci_ms = series->latency_interval_ms();
  r.length = length;
  r.timeline = std::move(timeline);
  r.counters = cluster.counters();
  r.resync_active = scenario.cluster.resync.active;
  r.resync = cluster.resync_status();
  for (const VmWorkload* l : load.all())
    for (const VmStats& vm : l->vm_stats())
      for (std::size_t op = 0; op < 2; ++op) r.pooled[op].merge(vm.latency[op]);
  if (load.size() == 1) r.threads = load.front().thread_stats();   // DiskSpd's rows (groups run no DiskSpd)
  r.capacity = scenario_capacity(scenario);
  r.cost = cluster_cost(scenario.cluster, r.capacity, scenario.prices);

  std::vector<int> counts;
  // A failed host reports nothing (its CPU, devices, LSOM worlds and ports are idle, not free
  // capacity).
  for (int h = 0; h < cluster.hosts(); ++h)
    if (!cluster.host_up(h)) r.failed_hosts.push_back(scenario.cluster.hosts[static_cast<std::size_t>(h)].name);
  const auto failed = [&r](const std::string& host) {
    return std::find(r.failed_hosts.begin(), r.failed_hosts.end(), host) != r.failed_hosts.end();
  };
  for (int h = 0; h < cluster.hosts(); ++h) {
    if (!cluster.host_up(h)) continue;
    const HostCpu& cpu = cluster.cpu(h);
    r.hosts.push_back({scenario.cluster.hosts[static_cast<std::size_t>(h)].name, cpu.usage_pct(), cpu.utilization_pct(), -1,
                       scenario.cluster.client_cache_mb_of(static_cast<std::size_t>(h))});
    for (int st = 0; st < kCpuStages; ++st)
      r.hosts.back().stage_cores[static_cast<std::size_t>(st)] =
          r.result.seconds > 0 ? cpu.stage_time(static_cast<CpuStage>(st)).seconds() / r.result.seconds : 0.0;
    // The shared cores; cores pinned to LSOM worlds are the "lsom" class below.
    const double shared = cpu.cores().utilisation();   // busy threads: 1 when every thread is taken
    add_use(r.resources, "cpu", scenario.cluster.hosts[static_cast<std::size_t>(h)].name, shared, counts);
    r.stations.push_back({scenario.cluster.hosts[static_cast<std::size_t>(h)].name + "/cpu", cpu.full_speed_servers(),
                          r.result.seconds > 0 ? cpu.full_speed_work().seconds() / r.result.seconds : 0.0});
    // The NIC's receive queues (network.hpp): the busiest one, and each as a station of its
    // own (flows are hashed to one, so they do not share the work as one pool would).
    if (cluster.network().receive_queues(h) > 0) {
      const std::string name = scenario.cluster.hosts[static_cast<std::size_t>(h)].name + "/rx";
      add_use(r.resources, "rx_queue", name, cluster.network().receive_utilisation_max(h), counts);
      const std::vector<double> busy = cluster.network().receive_queue_utilisation(h);
      for (std::size_t q = 0; q < busy.size(); ++q) r.stations.push_back({name + std::to_string(q), 1, busy[q]});
    }
  }
  for (const auto& d : cluster.devices())
    if (cluster.host_up(d.host))
      add_use(r.resources, d.role + "_device", scenario.cluster.hosts[static_cast<std::size_t>(d.host)].name + "/" +
                                                 d.device->spec().name,
            d.device->utilisation(), counts);
  for (const auto& d : cluster.devices())
    if (cluster.host_up(d.host))
      r.stations.push_back({scenario.cluster.hosts[static_cast<std::size_t>(d.host)].name + "/" + d.device->spec().name,
                            d.device->servers(), d.device->utilisation() * d.device->servers()});
  // OSA disk groups' write buffers (an ESA host has no disk groups).
  for (int h = 0; h < cluster.hosts(); ++h) {
    if (!cluster.host_up(h)) continue;
    const HostSpec& host = scenario.cluster.hosts[static_cast<std::size_t>(h)];
    for (std::size_t g = 0; g < host.disk_groups.size(); ++g) {
      const WriteBuffer& b = cluster.write_buffer(h, static_cast<int>(g));
      r.write_buffers.push_back({host.name + "/dg" + std::to_string(g), b.capacity() / 1e9, b.working_set() / 1e9, b.fill(),
                                 b.hit_probability(), b.congestion(), b.congestion_delay().seconds() * 1e3});
    }
  }
  for (const auto& world : cluster.lsom_worlds()) {
    if (failed(world->name().substr(0, world->name().find('/')))) continue;   // "esx02/dg0/lsom"
    add_use(r.resources, "lsom", world->name(), world->utilisation(), counts);
    r.stations.push_back({world->name(), world->servers(), world->utilisation() * world->servers()});
  }
  for (const PortReport& p : cluster.network().ports())
    if (!failed(p.from) && !failed(p.to))
      add_use(r.resources, "network_port", p.from + "->" + p.to, p.utilisation, counts);
  for (const PortReport& p : cluster.network().ports())
    if (!failed(p.from) && !failed(p.to)) r.stations.push_back({p.from + "->" + p.to, 1, p.utilisation});   // one server
  for (std::size_t i = 0; i < r.resources.size(); ++i) r.resources[i].mean /= std::max(1, counts[i]);
  // Utilisation is a share of time: above 1 (past rounding) the model double-books a resource.
  for (const ResourceClassUse& c : r.resources)
    if (!(c.max >= 0 && c.max <= 1 + 1e-9)) broken(c.name + " " + c.busiest + " busy " + std::to_string(c.max) + " of the time");
  for (const HostResourceRow& h : r.hosts)
    if (!(h.cpu_usage_pct >= 0 && h.cpu_usage_pct <= 100 + 1e-6 && h.cpu_utilization_pct <= 100 + 1e-6))
      broken("host " + h.host + " cpu.usage " + std::to_string(h.cpu_usage_pct) + " %");
  double worst = -1;
  for (const auto& c : r.resources)
    if (c.max > worst) {
      worst = c.max;
      r.bottleneck = c.name + " (" + c.busiest + ")";
    }
  // Nothing near saturation: the workload, not a resource, sets the rate.
  if (worst < 0.8) {
    char buf[48];
    std::snprintf(buf, sizeof buf, " at %.0f %%", std::floor(100.0 * std::max(0.0, worst)));
    std::size_t open = 0;
    for (const VmWorkload* l : load.all()) open += l->spec().iops_limit_per_vm > 0 ? 1u : 0u;
    const char* why = open == load.size()       ? "the open-loop rate limit sets the rate"
                      : open > 0                ? "the open groups' rates and the others' outstanding I/O set the rate"
                      : w.latency_target_ms > 0 ? "the latency target sets the outstanding I/O"
                                                : "latency-bound at this outstanding I/O";
    r.bottleneck = "none (busiest: " + r.bottleneck + buf + "; " + why + ")";
  }
  r.simulated_seconds = engine.now().seconds();
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  return r;
}

}  // namespace hcisim
