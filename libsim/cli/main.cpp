// The hcisim command line: run, sweep, compare and validate scenario files (the commands are
// in cli.hpp's files; here the catalog listing, the dispatch and the exit codes).
// Exit codes: 0 ok, 2 bad input (file, key, argument), 1 internal error.
#include <algorithm>
#include <charconv>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "cli.hpp"
#include "hcisim/model/report/text_escape.hpp"
#include "hcisim/scenario/hardware_catalog.hpp"

namespace hcisim::cli {
namespace {

// The rows of a catalog whose notes say a figure is estimated, borrowed or doubtful: a marker
// after each such row, and the notes' words below the listing.
struct Caveats {
  std::vector<RowCaveat> rows;
  const char* mark(const std::string& name) const {
    for (const RowCaveat& r : rows)
      if (r.name == name) return " *";
    return "";
  }
  void print_footnote(const std::string& csv) const {
    if (rows.empty()) return;
    std::printf("  * figures estimated, assumed, borrowed from a sibling or doubtful, as the notes of %s say:\n",
                csv.c_str());
    constexpr std::size_t kMost = 300;   // the rest is in the file
    for (const RowCaveat& r : rows)
      std::printf("    %s: %s\n", r.name.c_str(),
                  r.caveat.size() <= kMost ? r.caveat.c_str() : (std::string(utf8_prefix(r.caveat, kMost)) + " ...").c_str());
  }
};

// The catalogs' names, each with the figures a planner picks by.
int cmd_catalog(const Args& a, const HardwareCatalog& cat) {
  static const char* const kinds[] = {"devices", "cpus", "nics", "switches", "connections"};
  std::vector<std::string> which = a.files;
  if (which.empty()) which.assign(std::begin(kinds), std::end(kinds));
  for (const std::string& k : which)
    if (std::find(std::begin(kinds), std::end(kinds), k) == std::end(kinds))
      usage_error(a.command + ": '" + k + "' is not a catalog; expected devices, cpus, nics, switches or connections");
  for (const std::string& k : which) {
    const std::string csv = cat.dir() + "/" + k + ".csv";
    const Caveats caveats{catalog_caveats(csv)};
    std::printf("%s (%s):\n", k.c_str(), csv.c_str());
    if (k == "devices")
      for (const DeviceSpec& d : cat.devices())
        std::printf("  %-28s %6.0f GB  %8.0f / %7.0f IOPS 4K read / write  %5.0f / %5.0f MB/s%s\n", d.name.c_str(),
                    d.capacity_gb, d.read_iops_4k, d.write_iops_4k, d.seq_read_mbps, d.seq_write_mbps,
                    caveats.mark(d.name));
    if (k == "cpus")
      for (const CpuSpec& c : cat.cpus())
        std::printf("  %-28s %3d cores x %d threads, %.1f GHz sustained all-core (base %.1f, one-core turbo %.1f)%s\n",
                    c.name.c_str(), c.cores_per_socket, c.threads_per_core, c.ghz, c.base_ghz, c.turbo_ghz,
                    caveats.mark(c.name));
    if (k == "nics")
      for (const NicSpec& n : cat.nics()) {
        char moderation[64] = "no receive interrupt moderation";
        if (n.rx_interrupt_us > 0)
          std::snprintf(moderation, sizeof moderation, "receive interrupts %g us apart", n.rx_interrupt_us);
        std::printf("  %-34s %d x %g Gb/s, %g us per side, %s%s%s\n", n.name.c_str(), n.ports, n.speed_gbps,
                    n.latency_us, moderation, n.rdma ? ", RDMA" : "", caveats.mark(n.name));
      }
    if (k == "switches")
      for (const SwitchSpec& s : cat.switches())
        std::printf("  %-28s %3d x %g Gb/s, %.2f us%s\n", s.name.c_str(), s.ports, s.port_speed_gbps, s.latency_us,
                    caveats.mark(s.name));
    if (k == "connections")
      for (const ConnectionSpec& c : cat.connections()) {
        std::printf("  %-28s +%.0f us", c.name.c_str(), c.added_latency_us);
        if (c.read_protocol_us > 0 || c.write_protocol_us > 0)
          std::printf(" (+%g us per read, +%g us per write for its protocol)", c.read_protocol_us, c.write_protocol_us);
        if (c.max_mbps > 0) std::printf(", at most %d MB/s", static_cast<int>(c.max_mbps));
        if (c.commands > 0) std::printf(", %d command%s at a time", c.commands, c.commands == 1 ? "" : "s");
        std::printf("%s\n", caveats.mark(c.name));
      }
    caveats.print_footnote(csv);
  }
  return 0;
}

// A key's range as `hcisim keys` prints it: its own words, else "lo .. hi".
std::string range_text(const FileKey& k) {
  if (!k.allowed.empty()) return std::string(k.allowed);
  if (k.min == k.min && k.max == k.max) return number_text(k.min) + " .. " + number_text(k.max);
  if (k.min == k.min) return "at least " + number_text(k.min);
  if (k.max == k.max) return "at most " + number_text(k.max);
  return {};
}

// The input files' keys (scenario.hpp, file_keys()): whose path starts with the prefix.
int cmd_keys(const Args& a) {
  if (a.files.size() > 1) usage_error("keys takes at most one PREFIX, e.g. hcisim keys cluster.host.network");
  const std::vector<FileKey> keys = file_keys(a.files.empty() ? std::string_view{} : std::string_view(a.files[0]));
  if (keys.empty())
    usage_error("keys: no key starts with '" + a.files[0] + "'; try cluster, workload, policy, requirements or prices");
  const auto number = [](double v) { return v == v ? number_text(v) : std::string(); };
  if (a.csv) {
    std::printf("file,path,type,unit,default,min,max,allowed,description,assumed_min,assumed_max,assumed_why,replaced_by,"
                "field\n");
    for (const FileKey& k : keys)
      std::printf("%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", csv_field(k.file).c_str(), csv_field(k.path).c_str(),
                  csv_field(k.type).c_str(), csv_field(k.unit).c_str(), csv_field(k.default_text).c_str(),
                  number(k.min).c_str(), number(k.max).c_str(), csv_field(k.allowed).c_str(),
                  csv_field(k.description).c_str(), number(k.assumed_min).c_str(), number(k.assumed_max).c_str(),
                  csv_field(k.assumed_why).c_str(), csv_field(k.replaced_by).c_str(), csv_field(k.field).c_str());
    return 0;
  }
  if (a.json) {
    std::printf("[\n");
    for (std::size_t i = 0; i < keys.size(); ++i) {
      const FileKey& k = keys[i];
      const auto num = [&](double v) { return v == v ? number_text(v) : std::string("null"); };
      std::printf("  {\"file\": %s, \"path\": %s, \"type\": %s, \"unit\": %s, \"default\": %s, \"min\": %s, "
                  "\"max\": %s, \"allowed\": %s, \"description\": %s, \"assumed_min\": %s, \"assumed_max\": %s, "
                  "\"assumed_why\": %s, \"replaced_by\": %s, \"field\": %s}%s\n",
                  json_string(k.file).c_str(), json_string(k.path).c_str(), json_string(k.type).c_str(),
                  json_string(k.unit).c_str(), json_string(k.default_text).c_str(), num(k.min).c_str(),
                  num(k.max).c_str(), json_string(k.allowed).c_str(), json_string(k.description).c_str(),
                  num(k.assumed_min).c_str(), num(k.assumed_max).c_str(), json_string(k.assumed_why).c_str(),
                  json_string(k.replaced_by).c_str(), json_string(k.field).c_str(), i + 1 < keys.size() ? "," : "");
    }
    std::printf("]\n");
    return 0;
  }
  std::string_view file;
  for (const FileKey& k : keys) {
    if (k.file != file) {
      file = k.file;
      std::printf("%s%s file keys (docs/reference.md, \"Every key\"):\n", &k == &keys.front() ? "" : "\n",
                  std::string(file).c_str());
    }
    if (k.retired()) {
      std::printf("  %-40s retired: %s\n", std::string(k.path).c_str(), std::string(k.replaced_by).c_str());
      continue;
    }
    std::string what(k.type);
    if (!k.unit.empty()) what += ", " + std::string(k.unit);
    const std::string range = range_text(k);
    std::printf("  %-40s %s; default %s%s%s\n      %s\n", std::string(k.path).c_str(), what.c_str(),
                std::string(k.default_text).c_str(), range.empty() ? "" : "; ", range.c_str(),
                std::string(k.description).c_str());
    if (k.assumed())
      std::printf("      assumed%s: %s\n",
                  k.assumed_min == k.assumed_min
                      ? (" " + number_text(k.assumed_min) + " .. " + number_text(k.assumed_max)).c_str()
                      : "",
                  std::string(k.assumed_why).c_str());
  }
  return 0;
}

int dispatch(const Args& a) {
  if (a.command == "help") {
    std::fputs(help_text(), stdout);
    return 0;
  }
  if (a.command == "version") {
    std::string data;
    try {
      data = default_data_dir();
    } catch (const InvalidArgument& e) {
      data = std::string("not found (") + e.what() + ")";
    }
    std::printf("hcisim %s\ndata: %s\n", kVersion, data.c_str());
    return 0;
  }
  if (a.command == "keys") return cmd_keys(a);
  HardwareCatalog cat = HardwareCatalog::load();
  if (!a.prices.empty()) cat.add_prices(load_price_file(a.prices, cat));
  if (a.command == "catalog" || a.command == "list") return cmd_catalog(a, cat);
  if (a.command == "validate") return cmd_validate(a, cat);
  if (a.command == "capacity") return cmd_capacity(a, cat);
  if (a.command == "knee") return cmd_knee(a, cat);
  if (a.command == "size") return cmd_size(a, cat);
  if (a.command == "curve") return cmd_curve(a, cat);
  if (a.command == "sweep") return cmd_sweep(a, cat);
  if (a.command == "compare") return cmd_compare(a, cat);
  if (a.command == "accuracy") return cmd_accuracy(a, cat);
  if (a.command == "calibrate") return cmd_calibrate(a, cat);
  return cmd_run(a, cat);
}

}  // namespace
}  // namespace hcisim::cli

int main(int argc, char** argv) {
  try {
    const int rc = hcisim::cli::dispatch(hcisim::cli::parse_args(argc, argv));
    // A result that did not reach stdout (a full disk, a closed pipe or descriptor) is not a
    // success (exit 1).
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
      std::fprintf(stderr, "hcisim: cannot write the output to stdout: %s\n", std::strerror(errno));
      return 1;
    }
    return rc;
  } catch (const hcisim::InvalidArgument& e) {
    std::fprintf(stderr, "hcisim: %s\n", e.what());
    return 2;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "hcisim: out of memory: the run needs more memory than this process may use (ulimit -v, a "
                         "container's limit); try fewer --jobs (each thread holds a run) or a smaller scenario\n");
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hcisim: internal error: %s\n", e.what());
    return 1;
  }
}
