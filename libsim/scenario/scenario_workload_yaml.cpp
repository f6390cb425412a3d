// The scenario file's `workload:` section (scenario_sections.hpp; the schema is in
// scenario_yaml.cpp): one workload from a tool's command line, a preset or Easy Run profile
// and explicit keys, or groups of them that run at once.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "hcisim/core/check.hpp"
#include "hcisim/model/workload/vm_workload.hpp"
#include "hcisim/model/workload/workload_parsers.hpp"
#include "scenario_sections.hpp"

namespace hcisim::detail {

namespace {

// A disk's size needs its unit: a bare number is bytes, and "14336" meant as MB would be a
// 14 KiB disk that the client cache holds whole (block sizes may stay bytes).
void check_size_has_unit(const YamlReader& w, const char* key) {
  const std::string text = w.text(key, "");
  if (text.empty() || text.find_first_not_of("0123456789.") != std::string::npos) return;
  const double n = std::strtod(text.c_str(), nullptr);
  char allowed[240];
  std::snprintf(allowed, sizeof allowed,
                "a size with its unit (binary: k, m, g, t), e.g. %sm (%.3g GiB) or %sg (%.3g TiB); a bare number "
                "would be %s bytes",
                text.c_str(), n / 1024, text.c_str(), n / 1024, text.c_str());
  w.fail_value(w.key_path(key), text, allowed, w.node()[key]);
}

// One workload's keys (`workload:`, or a group with the workload's keys laid under its own).
// `threads_per_vmdk` gets DiskSpd's -t.
WorkloadSpec read_workload_spec(const YamlReader& w, const ClusterSpec& cluster, int& threads_per_vmdk) {
  w.expect_keys();
  int sources = 0;
  for (const char* k : {"hcibench", "diskspd", "fio", "preset", "easy_run"}) sources += w.has(k);
  if (sources > 1) w.fail("give at most one of hcibench, diskspd, fio, preset, easy_run");
  WorkloadSpec spec;
  // A parser's complaint is put at its key's line (or "(--set)"); the reader's own errors
  // (a list where a value belongs) already carry their place and are not wrapped again
  // (a place is given once, never "file:20: workload: file (--set): ...").
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
  // Written, vms is a count of 1..10000 (an explicit 0 is refused: it used to mean one VM per
  // host without saying so). Left out, the source's count stays (easy_run's, one VM for a
  // DiskSpd command line), else 0: one VM per host.
  spec.vms = static_cast<int>(w.integer("vms", spec.vms));
  spec.vmdks_per_vm = static_cast<int>(w.integer("vmdks_per_vm", spec.vmdks_per_vm));
  spec.outstanding_per_vmdk = static_cast<int>(w.integer("outstanding_per_vmdk", spec.outstanding_per_vmdk));
  if (w.has("block_size"))
    spec.block = at_key("block_size", [&w](const std::string& v) { return parse_size(v, w.key_path("block_size")); });
  if (w.has("vmdk_size")) {
    check_size_has_unit(w, "vmdk_size");
    spec.vmdk_size = at_key("vmdk_size", [&w](const std::string& v) { return parse_size(v, w.key_path("vmdk_size")); });
  }
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
  spec.vscsi = w.choice("vscsi", adapter_name(spec.vscsi)) == "pvscsi" ? VscsiAdapter::pvscsi : VscsiAdapter::lsilogic;
  spec.vscsi_disk_queue = static_cast<int>(w.integer("vscsi_disk_queue", spec.vscsi_disk_queue));
  spec.vscsi_adapter_queue = static_cast<int>(w.integer("vscsi_adapter_queue", spec.vscsi_adapter_queue));
  spec.vcpus_per_vm = static_cast<int>(w.integer("vcpus_per_vm", spec.vcpus_per_vm));
  // The guest OS: the source's (a DiskSpd command line: windows), else linux.
  spec.guest_os = w.choice("guest_os", guest_os_name(spec.guest_os)) == "windows"
                      ? GuestOs::windows
                      : GuestOs::linux_os;
  if (w.has("name")) spec.name = w.text("name", spec.name);
  threads_per_vmdk = std::min(spec.threads_per_vmdk, spec.outstanding_per_vmdk);
  try {
    spec.validate();
  } catch (const InvalidArgument& e) {
    // A complaint about one key goes to that key's line, or to "(--set)" when the command line
    // gave it; one about several keys, or a value a tool's command line set, stays at
    // `workload:`.
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

const char* const kSources[] = {"hcibench", "diskspd", "fio", "preset", "easy_run"};
const char* const kRunKeys[] = {"duration_s", "warmup_s", "history_s", "auto_precision_pct", "auto_max_s"};

bool is_run_key(const std::string& k) {
  return std::find_if(std::begin(kRunKeys), std::end(kRunKeys), [&](const char* x) { return k == x; }) != std::end(kRunKeys);
}

// Whether a group names its own source (hcibench, fio, preset ...), which replaces the workload's.
bool own_source(const YamlReader& g) {
  bool own = false;
  for (const char* k : kSources) own = own || g.has(k);
  return own;
}

// The workload's keys beside groups: a latency target, a name, Easy Run and a DiskSpd command
// line belong to one workload, not to groups.
void check_workload_beside_groups(const YamlReader& w) {
  if (w.has("latency_target_ms") && w.number("latency_target_ms", 0) > 0)
    w.fail("latency_target_ms (HCIBench's latency-target mode) drives one workload; it cannot be combined with groups");
  if (w.has("name")) w.fail("name: with groups each group has its own name (workload.groups[i].name)");
  for (const char* k : {"easy_run", "diskspd"})
    if (w.has(k))
      w.fail(std::string(k) + (std::string(k) == "easy_run"
                                   ? ": HCIBench's Easy Run sizes one workload for the whole cluster; give the groups "
                                     "their own keys (or an hcibench or fio name)"
                                   : ": a DiskSpd command line (its per-thread tables) runs alone; give the groups "
                                     "hcibench, fio, preset or explicit keys"));
}

// A key of the workload that every group gives itself does nothing: said (an error when
// --set gave it, since the user meant it to change something).
void note_unused_keys(const YamlReader& w, const YamlReader& list, std::vector<std::string>& notes) {
  for (const auto& kv : w.node()) {
    const std::string key = kv.first.Scalar();
    if (key == "groups" || is_run_key(key)) continue;
    bool used = false;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const YamlReader g = list.item(i);
      used = used || !(g.has(key.c_str()) || own_source(g));
    }
    if (used) continue;
    const std::string what = w.key_path(key.c_str()) + " is given by every group (or replaced by its own source), so it " +
                             "changes nothing";
    if (kv.second.Mark().line < 0)
      throw InvalidArgument(w.where(kv.second) + ": " + what + "; set a group's: workload.groups.<index or name>." + key);
    notes.push_back(what);
  }
}

// A group's own keys: a map, without the run's keys or the ones that drive one workload.
void check_group_keys(const YamlReader& g) {
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
}

// A group's spec: the workload's keys are laid under the group's in the document itself, so
// every value keeps its own line for errors (a copy of the map would lose the marks), and
// taken out again after (a group aliased twice must not see the first reading's keys). A
// group with its own hcibench, fio or preset takes only the run's keys.
WorkloadSpec read_group_spec(const YamlReader& w, const YamlReader& g, const ClusterSpec& cluster, int& threads) {
  const bool own = own_source(g);
  YAML::Node merged = g.node();
  const YAML::Node& view = merged;
  std::vector<std::string> added;
  for (const auto& kv : w.node()) {
    const std::string key = kv.first.Scalar();
    if (key == "groups" || view[key]) continue;
    if (own && !is_run_key(key)) continue;
    merged[key] = kv.second;
    added.push_back(key);
  }
  WorkloadSpec spec;
  try {
    spec = read_workload_spec(g, cluster, threads);
  } catch (...) {
    for (const std::string& k : added) merged.remove(k);
    throw;
  }
  for (const std::string& k : added) merged.remove(k);
  return spec;
}

// Every group has the first one's data profile and run length.
void check_same_run(const YamlReader& g, const WorkloadSpec& spec, const WorkloadSpec& first) {
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

// Group i (0-based) of `list`, checked against the groups read before it.
WorkloadSpec read_group(const YamlReader& w, const YamlReader& list, std::size_t i, const ClusterSpec& cluster,
                        const std::vector<WorkloadSpec>& before) {
  const YamlReader g = list.item(i);
  check_group_keys(g);
  int threads = 1;
  WorkloadSpec spec = read_group_spec(w, g, cluster, threads);
  // The buffers' history is the run's, like its length: no fio ramp_time sets it, the
  // workload's or a group's (workload.history_s beside the groups does).
  if (!w.has("history_s")) spec.history_s = WorkloadSpec{}.history_s;
  if (threads > 1 || spec.tool == WorkloadTool::diskspd)
    g.fail("a DiskSpd command line (its per-thread tables) runs alone; a group takes hcibench, fio, preset, easy_run or explicit keys");
  spec.name = g.has("name") ? g.text("name", "") : "group" + std::to_string(i + 1);
  if (spec.name.empty()) g.fail("name: expected a group name");
  for (const WorkloadSpec& other : before)
    if (other.name == spec.name) g.fail("name '" + spec.name + "' is given to two groups; each group needs its own");
  if (!before.empty()) check_same_run(g, spec, before.front());
  return spec;
}

// What a workload's keys say against each other, though each is allowed: a guest OS that
// contradicts the fio engine (guest_os wins: it sets the guest's CPU per I/O), and the auto
// keys without duration_s: auto (they change nothing).
void note_contradictions(const YamlReader& w, const WorkloadSpec& spec, std::vector<std::string>& notes) {
  if (w.has("fio") && w.has("guest_os") && w.text("fio", "").find("ioengine=") != std::string::npos) {
    const GuestOs engine = parse_fio_options(w.text("fio", "")).guest_os;
    if (engine != spec.guest_os)
      notes.push_back(w.key_path("guest_os") + " = " + guest_os_name(spec.guest_os) + " contradicts the fio ioengine (a " +
                      guest_os_name(engine) + " engine): the guest's CPU per I/O is modelled as " +
                      guest_os_name(spec.guest_os) + ", as guest_os says");
  }
  if (!spec.auto_duration)
    for (const char* key : {"auto_precision_pct", "auto_max_s"})
      if (w.has(key)) notes.push_back(w.key_path(key) + " changes nothing without duration_s: auto");
}

}  // namespace

// workload: one workload, or `groups` that run at once on the cluster:
// each group is the workload map with the group's own keys laid over it (a group's hcibench,
// fio, preset or easy_run replaces the workload's). The run's length, warm-up and history are
// the whole run's, and the data profile (compress_pct, dedupe_pct) the cluster's: the same in
// every group.
void read_workload(const YamlReader& w, const ClusterSpec& cluster, Scenario& s, std::vector<std::string>& notes) {
  if (!w.has("groups")) {
    s.workload = read_workload_spec(w, cluster, s.threads_per_vmdk);
    note_contradictions(w, s.workload, notes);
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
  check_workload_beside_groups(w);
  note_unused_keys(w, list, notes);
  for (std::size_t i = 0; i < list.size(); ++i) {
    s.groups.push_back(read_group(w, list, i, cluster, s.groups));
    if (list.item(i).has("fio")) note_contradictions(list.item(i), s.groups.back(), notes);
  }
  note_contradictions(w, s.groups.front(), notes);   // the run's keys (auto_*)
  s.workload = s.groups.front();
  s.threads_per_vmdk = 1;
}

}  // namespace hcisim::detail
