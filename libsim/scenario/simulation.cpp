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

// A run that cannot have finished right is an internal error, never a result. A guest I/O
// still in flight after far longer than the I/Os that completed (100 times their mean, and
// at least 10 simulated seconds) is stuck: a deadlock in the model (a write larger than its
// write buffer, or one lost between two buffers' queues), which a report would otherwise
// show with normal latencies. The mean is
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

namespace {

// An end-of-run invariant that does not hold: a broken model, reported as an internal error
// naming what broke, never as a result.
[[noreturn]] void broken(const std::string& what) { throw std::runtime_error(what + "; no result is given"); }

// Only a calibrated scenario runs.
void check_calibrated(const Scenario& scenario) {
  if (scenario.calibration == Scenario::Calibration::none)
    throw InvalidArgument("scenario '" + scenario.name +
                          "' is not calibrated: build it with parse_scenario, load_scenario or make_scenario "
                          "(make_uncalibrated_scenario runs the uncalibrated model on purpose)");
}

// The run's settings (length, warm-up, history, data profile) are the same in every group
// (the file reader checks it; a scenario built in code is checked here).
void check_run_settings(const Scenario& scenario) {
  const WorkloadSpec& w = scenario.workload;
  for (const WorkloadSpec& g : scenario.groups)
    if (g.duration_s != w.duration_s || g.auto_duration != w.auto_duration || g.warmup_s != w.warmup_s ||
        g.history_s != w.history_s || g.auto_precision_pct != w.auto_precision_pct || g.auto_max_s != w.auto_max_s ||
        g.compress_pct != w.compress_pct || g.dedupe_pct != w.dedupe_pct)
      throw InvalidArgument("workload group '" + g.name + "': its run length or data profile differs from the scenario's "
                            "workload (Scenario::workload is the first group; these settings are the whole run's)");
}

// One run of a scenario, phase by phase (simulate): built (the engine, the VMs and the
// cluster), warmed up, measured, its invariants checked, and its result collected.
class Run {
 public:
  // Build: the engine, the workloads and the cluster, in that order; writes that could never
  // fit an OSA write buffer are refused before anything runs.
  Run(const Scenario& scenario, const ProgressFn& progress, std::chrono::steady_clock::time_point wall0)
      : scenario_(scenario),
        w_(scenario.workload),
        progress_(progress),
        wall0_(wall0),
        load_(engine_, scenario),
        cluster_(engine_, scenario.cluster, DataProfile{w_.compress_pct, w_.dedupe_pct}, scenario.seed, load_,
                 scenario.replication),
        warmup_(Time::from_seconds(w_.warmup_s)),
        cap_(Time::from_seconds(w_.auto_duration ? w_.auto_max_s : w_.duration_s)),
        planned_(warmup_ + cap_) {
    check_write_sizes();
  }

  void warm_up();
  RunLength measure();
  void check_invariants() const;
  RunResult collect(const RunLength& length);

 private:
  void check_write_sizes() const;
  void report() const;
  void advance_to(Time until);
  void mark();
  void run_batch(BatchSeries& series, Time until, bool in_window);
  void measure_fixed();
  void measure_automatic(RunLength& length);
  void check_guests() const;
  void check_amplification() const;
  void collect_answers(RunResult& r);
  void collect_window_warnings(RunResult& r) const;
  void collect_short_window_warnings(RunResult& r) const;
  void collect_hosts(RunResult& r, std::vector<int>& counts) const;
  void collect_devices_and_buffers(RunResult& r, std::vector<int>& counts) const;
  void collect_lsom_and_ports(RunResult& r, std::vector<int>& counts) const;
  void name_bottleneck(RunResult& r) const;
  void note_assumed_client_worlds(RunResult& r) const;
  const std::string& host_name(int h) const { return scenario_.cluster.hosts[static_cast<std::size_t>(h)].name; }

  const Scenario& scenario_;
  const WorkloadSpec& w_;   // the run's settings (the first group's, the same in every group)
  const ProgressFn& progress_;
  const std::chrono::steady_clock::time_point wall0_;
  Engine engine_;
  Workloads load_;
  Cluster cluster_;
  const Time warmup_;
  const Time cap_;   // the measured window, or with duration_s: auto its bound
  const Time planned_;
  // One batch of the series: completions and their latency since the last batch.
  std::uint64_t n0_ = 0;
  std::int64_t s0_ = 0;
  int batches_ = 0;
  std::vector<TimelinePoint> timeline_;   // the measured window's batches
  std::optional<BatchSeries> series_;     // the measured window's batch series
};

// An OSA write waits for room in its write buffers; one larger than a whole buffer would
// wait forever and stall every VM behind it. A write reaches vSAN in the
// virtual adapter's largest transfer at most (PVSCSI 512 KiB).
void Run::check_write_sizes() const {
  const double buffer = cluster_.smallest_write_buffer();
  for (const VmWorkload* l : load_.all()) {
    const WorkloadSpec& g = l->spec();
    const std::int64_t piece = std::min(g.block.count(), max_transfer(g.vscsi).count());
    if (g.read_pct < 100 && buffer > 0 && static_cast<double>(piece) > buffer)
      throw InvalidArgument(scenario_.source + ": " +
                            (load_.size() > 1 ? "workload group '" + g.name + "' " : std::string("workload ")) +
                            "block_size = " + std::to_string(g.block.count()) + " bytes (" + std::to_string(piece) +
                            " per transfer of the virtual adapter) is not allowed with a " +
                            std::to_string(static_cast<long long>(buffer)) +
                            "-byte OSA write buffer (cluster.osa.write_buffer_gb): a write must fit in the buffer");
  }
}

void Run::report() const {
  if (!progress_) return;
  RunProgress p;
  p.simulated_s = engine_.now().seconds();
  p.planned_s = planned_.seconds();
  p.planned_is_bound = w_.auto_duration;
  p.fraction = std::min(1.0, p.simulated_s / p.planned_s);
  p.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0_).count();
  progress_(p);
}

void Run::advance_to(Time until) {
  const int steps = progress_ ? 100 : 1;
  for (int i = 1; i <= steps; ++i) {
    engine_.run_until(engine_.now() + (until - engine_.now()) / (steps - i + 1));
    report();
  }
}

void Run::mark() {
  n0_ = load_.completed();
  s0_ = load_.completed_latency_ns();
}

// `in_window`: a batch of the measured window (on the timeline), not of the pilot.
void Run::run_batch(BatchSeries& series, Time until, bool in_window) {
  const Time from = engine_.now();
  engine_.run_until(until);
  const std::uint64_t n = load_.completed() - n0_;
  const std::int64_t latency_ns = load_.completed_latency_ns() - s0_;
  series.add(n, latency_ns);
  if (in_window) {
    TimelinePoint p;
    p.end_s = engine_.now().seconds();
    p.iops = static_cast<double>(n) / (engine_.now() - from).seconds();
    p.mean_latency_ms = n > 0 ? static_cast<double>(latency_ns) / static_cast<double>(n) * 1e-6 : 0.0;
    p.resync_done_gb = static_cast<double>(cluster_.resync_status().done_bytes) / 1e9;
    timeline_.push_back(p);
  }
  mark();
  report();
  // The progress watchdog every 16 batches, so a stall stops a long run early.
  if (++batches_ % 16 == 0)
    for (const VmWorkload* l : load_.all()) check_progress(*l, engine_.now());
}

// Warm-up: the VMs start, and the cluster runs for warmup_s.
// The measured window follows `history_s` of the same workload: start from prepared buffers
// and let the warm-up age them that long (time-compressed), then run at k = 1.
// The resync, if one runs, starts when the warm-up ends (the measured window, or with
// duration_s: auto its pilot, opens): the history is the VMs' workload before the host
// failed, and a resync started before it would have its writes aged into the buffers for
// history_s as well (every OSA disk group full and the writes at ~190 ms on seed 000 with
// one host down, where starting here gives a resync the buffers meet fresh).
void Run::warm_up() {
  load_.start(cluster_);
  if (w_.history_s > 0 && scenario_.cluster.architecture == Architecture::osa) {
    cluster_.prepare_write_buffers();
    if (warmup_ > Time::zero()) cluster_.set_buffer_time_compression(std::max(1.0, w_.history_s / w_.warmup_s));
  }
  if (warmup_ > Time::zero()) advance_to(warmup_);
  cluster_.set_buffer_time_compression(1.0);
  if (scenario_.cluster.resync.active) cluster_.start_resync();
}

// Measure: the statistics are cut and the window runs, fixed or until the intervals are
// narrow enough (duration_s: auto).
RunLength Run::measure() {
  RunLength length;
  length.automatic = w_.auto_duration;
  length.warmup_s = w_.warmup_s;
  if (!w_.auto_duration) measure_fixed();
  else measure_automatic(length);
  length.measured_s = (engine_.now() - load_.measured_since()).seconds();
  if (!(length.measured_s > 0))
    throw std::runtime_error("the measured window is empty; no result is given");
  return length;
}

// A fixed window, cut into kMaxBatches batches for its intervals.
void Run::measure_fixed() {
  load_.reset_stats();
  cluster_.reset_stats();
  series_.emplace(std::max(Time::ns(1), cap_ / BatchSeries::kMaxBatches));
  const Time cut = engine_.now();
  mark();
  // Batch i ends at cut + cap * i / kMaxBatches (cap <= 86400 s: the product fits in 64 bits).
  for (std::int64_t i = 1; i <= BatchSeries::kMaxBatches; ++i)
    run_batch(*series_, cut + Time::ns(cap_.count_ns() * i / BatchSeries::kMaxBatches), true);
}

void Run::measure_automatic(RunLength& length) {
  // The pilot: batches of 10 ms (doubling as they fill) until MSER puts the end of the
  // transient in the first half of a full series for both the rate and the mean latency,
  // i.e. both have settled; at most half the cap, so the window always gets the other half.
  // The pilot is all warm-up: only whether it settled is used, not MSER's truncation point.
  const Time start = engine_.now();
  const Time end = start + cap_;
  const Time pilot_end = start + cap_ / 2;
  BatchSeries pilot(Time::from_ms(10));
  mark();
  length.settled = false;
  while (engine_.now() + pilot.width() <= pilot_end) {
    run_batch(pilot, engine_.now() + pilot.width(), false);
    if (pilot.size() == BatchSeries::kMaxBatches && pilot.mser_truncation() < BatchSeries::kMaxBatches / 2 &&
        pilot.mser_truncation_latency() < BatchSeries::kMaxBatches / 2) {
      length.settled = true;
      break;
    }
  }
  length.pilot_s = (engine_.now() - start).seconds();
  // The window: batches as wide as the pilot's next, until both half-widths are within the
  // target. The rule is looked at with 64, 96 and 128 batches held (few looks: less bias
  // from stopping on a lucky stretch), and only once the window is at least 4 / target mean
  // latencies long: the I/Os in flight at its start, which the HCIBench IOPS leaves out,
  // are then under a quarter of the target.
  load_.reset_stats();
  cluster_.reset_stats();
  series_.emplace(pilot.width());
  mark();
  const double target = w_.auto_precision_pct / 100;
  length.target_met = false;
  while (engine_.now() + series_->width() <= end) {
    run_batch(*series_, engine_.now() + series_->width(), true);
    const double window_s = (engine_.now() - load_.measured_since()).seconds();
    if (series_->size() % 32 == 0 && series_->size() >= BatchSeries::kMaxBatches / 2 &&
        window_s * target >= 4 * series_->mean_latency_ms() * 1e-3 && series_->rate_interval().relative() <= target &&
        series_->latency_interval_ms().relative() <= target) {
      length.target_met = true;
      break;
    }
  }
  length.target_pct = w_.auto_precision_pct;
}

// The invariants at the end of the window: no I/O stalled, the guests' operations and bytes
// are the cluster's, and the devices were given the copies the policy makes.
void Run::check_invariants() const {
  for (const VmWorkload* l : load_.all()) check_progress(*l, engine_.now());
  check_guests();
  check_amplification();
}

// Each group's guests against the operations they have out; all of them against the
// cluster. Bytes through the guest/cluster boundary: what left the guests in the window is
// what the cluster took in (the cluster counts each operation, the guests each I/O they split).
void Run::check_guests() const {
  std::uint64_t out_ops = 0;
  for (const VmWorkload* l : load_.all()) {
    out_ops += l->operations_out();
    if (const std::string guest = l->audit(engine_.now(), l->operations_out()); !guest.empty())
      broken(load_.size() > 1 ? "workload group '" + l->spec().name + "': " + guest : guest);
  }
  if (out_ops != cluster_.live_requests())
    broken("the guests have " + std::to_string(out_ops) + " operations out, the cluster holds " +
           std::to_string(cluster_.live_requests()));
  std::int64_t out_of_guests[2] = {0, 0};
  for (const VmWorkload* l : load_.all())
    for (const VmStats& vm : l->vm_stats())
      for (std::size_t op = 0; op < 2; ++op) out_of_guests[op] += vm.dispatched_bytes[op];
  const IoCounters& in = cluster_.counters();
  if (out_of_guests[0] != in.host_read_bytes || out_of_guests[1] != in.host_write_bytes)
    broken("the guests sent " + std::to_string(out_of_guests[0]) + " read and " + std::to_string(out_of_guests[1]) +
           " write bytes in the window, the cluster took in " + std::to_string(in.host_read_bytes) + " and " +
           std::to_string(in.host_write_bytes));
}

// Bytes through the amplification, where the rule is exact: a healthy cluster writes each
// guest write byte to FTT + 1 foreground copies (OSA RAID-1: the replicas' write buffers,
// reduced only at destage; ESA, any policy: the performance leg's mirrors, compressed at
// ingest: docs/sources.md [S23] [S38] [S41]), and an ESA write that took the large-I/O path
// to the capacity leg's (k+m)/k (or FTT + 1 mirrored copies) per byte ([S248]). The copies
// are counted where the devices are given work, the guest bytes where the cluster takes them
// in; the window's edges hold at most every slot's block on either side (and a column's
// rounding per operation).
void Run::check_amplification() const {
  const IoCounters& in = cluster_.counters();
  const ClusterSpec& cs = scenario_.cluster;
  const bool esa = cs.architecture == Architecture::esa;
  if (!(cs.failed_hosts.empty() && !cs.resync.active && !cs.witness_host && (esa || cs.policy.raid == RaidLevel::raid1)))
    return;
  const Layout layout = cluster_.layout();
  const double copies = std::max(cs.policy.ftt + 1, layout.data + layout.parity);
  const double per_byte = (cs.policy.ftt + 1) / (esa ? cluster_.reduction().compression : 1.0);
  const double large_per_byte =
      (layout.erasure_coded() ? static_cast<double>(layout.data + layout.parity) / layout.data : cs.policy.ftt + 1.0) /
      (esa ? cluster_.reduction().compression : 1.0);
  const double large = static_cast<double>(in.large_write_bytes);
  const double expected = per_byte * (static_cast<double>(in.host_write_bytes) - large) + large_per_byte * large;
  double slot_bytes = 0;   // every slot's block, over the groups
  for (const VmWorkload* l : load_.all())
    slot_bytes += static_cast<double>(l->vms()) * l->spec().vmdks_per_vm * l->spec().outstanding_per_vmdk *
                  static_cast<double>(l->spec().block.count());
  const double edges = 2 * per_byte * slot_bytes + copies * static_cast<double>(in.submitted);
  const double written = static_cast<double>(in.fg_device_write_bytes);
  if (std::abs(written - expected) > edges + 1e-9 * expected) {
    char buf[400];
    std::snprintf(buf, sizeof buf,
                  "the devices were given %.0f foreground write bytes for %.0f guest write bytes; %.0f copies per "
                  "byte%s (the large-I/O path's %.0f bytes: %.3g) give %.0f, +- %.0f at the window's edges",
                  written, static_cast<double>(in.host_write_bytes), cs.policy.ftt + 1.0, esa ? " (compressed)" : "",
                  large, large_per_byte, expected, edges);
    broken(buf);
  }
}

// Collect: the run's inputs and answers, then what each resource did, the checks on their
// utilisations and the bottleneck.
RunResult Run::collect(const RunLength& length) {
  RunResult r;
  r.scenario = scenario_.name;
  r.job_name = w_.name;
  for (std::size_t g = 1; g < scenario_.groups.size(); ++g) r.job_name += "+" + scenario_.groups[g].name;
  r.version = kVersion;
  r.seed = scenario_.seed;
  r.replication = scenario_.replication;
  r.inputs.source = scenario_.source;
  r.inputs.architecture = architecture_name(scenario_.cluster.architecture);
  r.inputs.vsan_release = vsan_release_name(scenario_.cluster.release);
  const ClusterSpec& cs = scenario_.cluster;
  if (cs.release >= VsanRelease::v7_0u3) {
    const bool legs = cs.architecture == Architecture::esa && cs.release >= VsanRelease::v8_0u1;
    r.inputs.read_counters = legs ? VsanCounters::capacity_leg : VsanCounters::one_leg;
    r.inputs.write_counters = legs ? VsanCounters::performance_leg : VsanCounters::one_leg;
    r.inputs.large_write_counters = legs ? VsanCounters::capacity_leg : VsanCounters::one_leg;
  }
  r.inputs.hosts = static_cast<int>(scenario_.cluster.hosts.size());
  r.inputs.layout = scenario_.cluster.layout().describe();
  r.inputs.workload = describe_workloads(scenario_);
  r.inputs.warnings = scenario_.warnings;
  r.workload = w_;
  collect_answers(r);
  r.length = length;
  r.timeline = std::move(timeline_);
  r.counters = cluster_.counters();
  r.resync_active = scenario_.cluster.resync.active;
  r.resync = cluster_.resync_status();
  for (const VmWorkload* l : load_.all())
    for (const VmStats& vm : l->vm_stats())
      for (std::size_t op = 0; op < 2; ++op) r.pooled[op].merge(vm.latency[op]);
  if (load_.size() == 1) r.threads = load_.front().thread_stats();   // DiskSpd's rows (groups run no DiskSpd)
  r.capacity = scenario_capacity(scenario_);
  r.cost = cluster_cost(scenario_.cluster, r.capacity, scenario_.prices);

  std::vector<int> counts;
  collect_hosts(r, counts);
  collect_devices_and_buffers(r, counts);
  collect_lsom_and_ports(r, counts);
  for (std::size_t i = 0; i < r.resources.size(); ++i) r.resources[i].mean /= std::max(1, counts[i]);
  // Utilisation is a share of time: above 1 (past rounding) the model double-books a resource.
  for (const ResourceClassUse& c : r.resources)
    if (!(c.max >= 0 && c.max <= 1 + 1e-9)) broken(c.name + " " + c.busiest + " busy " + std::to_string(c.max) + " of the time");
  for (const HostResourceRow& h : r.hosts)
    if (!(h.cpu_usage_pct >= 0 && h.cpu_usage_pct <= 100 + 1e-6 && h.cpu_utilization_pct <= 100 + 1e-6))
      broken("host " + h.host + " cpu.usage " + std::to_string(h.cpu_usage_pct) + " %");
  name_bottleneck(r);
  note_assumed_client_worlds(r);
  r.simulated_seconds = engine_.now().seconds();
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0_).count();
  return r;
}

// The VMs and outstanding I/O, each group's result, the whole run's, its warnings and its
// intervals.
void Run::collect_answers(RunResult& r) {
  for (const VmWorkload* l : load_.all()) {
    const int outstanding = l->vms() * l->spec().vmdks_per_vm * l->spec().outstanding_per_vmdk;
    r.vms += l->vms();
    r.configured_outstanding += outstanding;
    if (!scenario_.groups.empty()) {
      GroupResult g{l->spec().name, l->spec().describe(), l->vms(), outstanding, l->spec().iops_limit_per_vm,
                    summarize(*l, engine_.now()), {}};
      g.guest_os = l->spec().guest_os;
      for (const VmStats& vm : l->vm_stats())
        for (std::size_t op = 0; op < 2; ++op) g.pooled[op].merge(vm.latency[op]);
      r.groups.push_back(std::move(g));
    }
  }
  r.result = summarize(load_.all(), engine_.now());
  collect_window_warnings(r);
  for (const std::string& said : r.window_warnings) r.inputs.warnings.push_back(said);
  r.result.iops_ci = series_->rate_interval();
  r.result.latency_ci_ms = series_->latency_interval_ms();
}

// A window shorter than every I/O completes none: its rates are 0 and its latencies mean
// nothing, which the reports say rather than print zeros alone (the shortest window allowed, 1 us, does this);
// likewise for an operation the workload issues, or a workload group, that completed none
// while the rest did.
void Run::collect_window_warnings(RunResult& r) const {
  const double secs = r.result.seconds;
  if (r.result.simulated_ios == 0) {
    r.window_warnings.push_back(no_io_warning(secs));
    return;
  }
  bool reads = false, writes = false;
  for (const VmWorkload* l : load_.all()) {
    reads = reads || l->spec().read_pct > 0;
    writes = writes || l->spec().read_pct < 100;
  }
  if (reads && r.result.read_iops == 0) r.window_warnings.push_back(none_completed_warning("no read", secs));
  if (writes && r.result.write_iops == 0) r.window_warnings.push_back(none_completed_warning("no write", secs));
  for (const GroupResult& g : r.groups)
    if (g.result.simulated_ios == 0)
      r.window_warnings.push_back(none_completed_warning("workload group '" + g.name + "': no I/O", secs));
  collect_short_window_warnings(r);
}

// A window that cannot carry its answers (report/run_report.hpp, window_problem): too few
// completions for a p95, or a closed loop whose IOPS x mean latency misses the I/Os in flight
// (Little's law). The numbers stand; the warning says what they rest on.
void Run::collect_short_window_warnings(RunResult& r) const {
  const auto warn = [&r](const WorkloadResult& w, const std::string& who, bool closed) {
    const std::string p = window_problem(w, who, closed, kRunCompletionsForP95, "p95");
    if (!p.empty()) r.window_warnings.push_back(p + "; lengthen workload.duration_s");
  };
  const auto closed = [](const WorkloadSpec& w) { return w.iops_limit_per_vm == 0 && w.latency_target_ms == 0; };
  bool all_closed = true;
  for (const VmWorkload* l : load_.all()) all_closed = all_closed && closed(l->spec());
  warn(r.result, "the run", all_closed);
  const std::vector<const VmWorkload*> loads = load_.all();
  for (std::size_t g = 0; g < r.groups.size() && g < loads.size(); ++g)
    if (r.groups[g].result.simulated_ios > 0)
      warn(r.groups[g].result, "workload group '" + r.groups[g].name + "'", closed(loads[g]->spec()));
}

// The hosts that are up: their CPU (rows, stages, shared cores) and their NICs' receive
// queues. A failed host reports nothing (its CPU, devices, LSOM worlds and ports are idle,
// not free capacity).
void Run::collect_hosts(RunResult& r, std::vector<int>& counts) const {
  for (int h = 0; h < cluster_.hosts(); ++h)
    if (!cluster_.host_up(h)) r.failed_hosts.push_back(host_name(h));
  for (int h = 0; h < cluster_.hosts(); ++h) {
    if (!cluster_.host_up(h)) continue;
    const HostCpu& cpu = cluster_.cpu(h);
    r.hosts.push_back({host_name(h), cpu.usage_pct(), cpu.utilization_pct(), -1,
                       scenario_.cluster.client_cache_mb_of(static_cast<std::size_t>(h))});
    HostResourceRow& row = r.hosts.back();
    for (int st = 0; st < kCpuStages; ++st)
      row.stage_cores[static_cast<std::size_t>(st)] =
          r.result.seconds > 0 ? cpu.stage_time(static_cast<CpuStage>(st)).seconds() / r.result.seconds : 0.0;
    row.cpu_cores = cpu.spec().cores();
    row.cpu_core_capacity = cpu.full_speed_capacity();   // hyper-threading's 1.25 [S80]
    row.shared_thread_share = cpu.cores().utilisation();
    // The host's CPU: busy cores (every stage, on the shared cores, the LSOM worlds' pinned
    // cores and the receive queues' threads) over what its cores do at most, or the shared
    // threads' busy share when higher (idle pinned cores do not relieve full shared ones).
    // The receive queues' threads are stations of their own, so the busy cores can pass the
    // capacity by a little; the share is held at 1, the busy cores are reported as they are.
    add_use(r.resources, "cpu", host_name(h), row.cpu_share(), counts);
    r.stations.push_back({host_name(h) + "/cpu", cpu.full_speed_servers(),
                          r.result.seconds > 0 ? cpu.full_speed_work().seconds() / r.result.seconds : 0.0});
    // The NIC's receive queues (network.hpp): the busiest one, and each as a station of its
    // own (flows are hashed to one, so they do not share the work as one pool would).
    if (cluster_.network().receive_queues(h) > 0) {
      const std::string name = host_name(h) + "/rx";
      add_use(r.resources, "rx_queue", name, cluster_.network().receive_utilisation_max(h), counts);
      const std::vector<double> busy = cluster_.network().receive_queue_utilisation(h);
      for (std::size_t q = 0; q < busy.size(); ++q) r.stations.push_back({name + std::to_string(q), 1, busy[q]});
    }
  }
}

// The devices of the hosts that are up, and the OSA disk groups' write buffers (an ESA host
// has no disk groups).
void Run::collect_devices_and_buffers(RunResult& r, std::vector<int>& counts) const {
  for (const auto& d : cluster_.devices())
    if (cluster_.host_up(d.host))
      add_use(r.resources, d.role + "_device", host_name(d.host) + "/" + d.device->spec().name, d.device->utilisation(),
              counts);
  for (const auto& d : cluster_.devices())
    if (cluster_.host_up(d.host))
      r.stations.push_back({host_name(d.host) + "/" + d.device->spec().name, d.device->servers(),
                            d.device->utilisation() * d.device->servers()});
  for (int h = 0; h < cluster_.hosts(); ++h) {
    if (!cluster_.host_up(h)) continue;
    const HostSpec& host = scenario_.cluster.hosts[static_cast<std::size_t>(h)];
    for (std::size_t g = 0; g < host.disk_groups.size(); ++g) {
      const WriteBuffer& b = cluster_.write_buffer(h, static_cast<int>(g));
      r.write_buffers.push_back({host.name + "/dg" + std::to_string(g), b.capacity() / 1e9, b.working_set() / 1e9, b.fill(),
                                 b.hit_probability(), b.congestion(), b.congestion_delay().seconds() * 1e3});
    }
  }
}

// The LSOM worlds, ESA objects' DOM client worlds and the network ports between hosts that are up.
void Run::collect_lsom_and_ports(RunResult& r, std::vector<int>& counts) const {
  const auto failed = [&r](const std::string& host) {
    return std::find(r.failed_hosts.begin(), r.failed_hosts.end(), host) != r.failed_hosts.end();
  };
  for (const auto& world : cluster_.lsom_worlds()) {
    if (failed(world->name().substr(0, world->name().find('/')))) continue;   // "esx02/dg0/lsom"
    add_use(r.resources, "lsom", world->name(), world->utilisation(), counts);
    r.stations.push_back({world->name(), world->servers(), world->utilisation() * world->servers()});
  }
  // ESA: each object's DOM client worlds (cluster.esa.client_worlds_per_object), on the host
  // of the VM whose disk it is, for the objects that had I/O. Not a station of the analytic
  // curve: their jobs' work is the host CPU station's already, and mean-value analysis has no
  // way to hold a world and a core at once.
  if (cluster_.client_worlds() > 0)
    for (int o = 0; o < cluster_.objects(); ++o) {
      if (cluster_.object_client_host(o) < 0) continue;
      const std::string host = host_name(cluster_.object_client_host(o));
      if (failed(host)) continue;
      add_use(r.resources, "object_client", host + "/object" + std::to_string(o) + "/dom_client",
              cluster_.client_world_utilisation(o), counts);
    }
  for (const PortReport& p : cluster_.network().ports())
    if (!failed(p.from) && !failed(p.to))
      add_use(r.resources, "network_port", p.from + "->" + p.to, p.utilisation, counts);
  for (const PortReport& p : cluster_.network().ports())
    if (!failed(p.from) && !failed(p.to)) r.stations.push_back({p.from + "->" + p.to, 1, p.utilisation});   // one server
}

// The busiest resource; with nothing near saturation the workload, not a resource, sets the
// rate.
void Run::name_bottleneck(RunResult& r) const {
  double worst = -1;
  const HostResourceRow* cpu = nullptr;   // the busiest class is the CPU: this host's
  for (const auto& c : r.resources)
    if (c.max > worst) {
      worst = c.max;
      r.bottleneck = c.name + " (" + c.busiest + ")";
      cpu = c.name == "cpu" ? r.host(c.busiest) : nullptr;
    }
  // A CPU is said in the resource table's busy cores, so the two read the same.
  if (cpu) r.bottleneck_detail = busy_cores_text(*cpu);
  if (worst < 0.8) {
    char buf[48];
    std::snprintf(buf, sizeof buf, " at %.0f %%", std::floor(100.0 * std::max(0.0, worst)));
    std::size_t open = 0;
    for (const VmWorkload* l : load_.all()) open += l->spec().iops_limit_per_vm > 0 ? 1u : 0u;
    const char* why = open == load_.size()      ? "the open-loop rate limit sets the rate"
                      : open > 0                ? "the open groups' rates and the others' outstanding I/O set the rate"
                      : w_.latency_target_ms > 0 ? "the latency target sets the outstanding I/O"
                                                 : "latency-bound at this outstanding I/O";
    r.bottleneck = "none (busiest: " + r.bottleneck + buf + "; " + why + ")";
  }
}

// A run whose objects' DOM client worlds serve jobs 80 % of the time or more, more than its
// busiest host's CPU is busy, with their number from 8.0 U2 assumed (VMware publishes none:
// EsaSettings::client_worlds), says so: the answer moves with that number.
void Run::note_assumed_client_worlds(RunResult& r) const {
  const ClusterSpec& c = scenario_.cluster;
  if (cluster_.client_worlds() == 0 || c.release < VsanRelease::v8_0u2 ||
      scenario_states(scenario_, "cluster.esa.client_worlds_per_object"))
    return;
  const ResourceClassUse* cpu = r.resource("cpu");
  for (const ResourceClassUse& u : r.resources)
    if (u.name == "object_client" && u.max >= 0.8 && !(cpu && cpu->max >= u.max)) {
      char busy[16];
      std::snprintf(busy, sizeof busy, "%.0f %%", 100 * u.max);
      const std::string said =
          "one object's DOM client worlds are " + std::string(busy) + " busy (" + u.busiest +
          "), and their number is assumed: " + std::to_string(cluster_.client_worlds()) +
          " per object from vSAN 8.0 U2 (cluster.esa.client_worlds_per_object, assumed 2 .. 8; VMware publishes "
          "none); spreading the VM's I/O over more VMDKs moves this limit";
      r.window_warnings.push_back(said);
      r.inputs.warnings.push_back(said);
      return;
    }
}

}  // namespace

RunResult simulate(const Scenario& scenario, const ProgressFn& progress) {
  check_calibrated(scenario);
  const auto wall0 = std::chrono::steady_clock::now();
  check_run_settings(scenario);
  Run run(scenario, progress, wall0);
  run.warm_up();
  const RunLength length = run.measure();
  run.check_invariants();
  return run.collect(length);
}

}  // namespace hcisim
