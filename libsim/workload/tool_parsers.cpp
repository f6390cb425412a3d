// HCIBench job names, DiskSpd command lines, fio job options and presets -> WorkloadSpec
// (workload_parsers.hpp). Naming rules from HCIBench's source, vmware-labs/hci-benchmark-appliance
// (docs/sources.md [S89]); vdbench and fio equivalents [S91] [S92] [S93]; DiskSpd flags from its
// documentation [S94].
#include <cctype>
#include <charconv>
#include <cmath>
#include <string>
#include <vector>

#include "hcisim/core/check.hpp"
#include "hcisim/model/workload/workload_parsers.hpp"

namespace hcisim {

namespace {

std::vector<std::string_view> split(std::string_view s, std::string_view seps) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && seps.find(s[i]) != std::string_view::npos) ++i;
    std::size_t j = i;
    while (j < s.size() && seps.find(s[j]) == std::string_view::npos) ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

[[noreturn]] void bad(std::string_view what, std::string_view token, std::string_view allowed) {
  throw InvalidArgument(std::string(what) + ": '" + std::string(token) + "' is not allowed; expected " +
                        std::string(allowed));
}

// A finite number (NaN and infinities are not numbers a tool takes).
double number(std::string_view text, std::string_view what, std::string_view token) {
  double v = 0;
  const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc{} || p != text.data() + text.size() || text.empty() || !std::isfinite(v))
    bad(what, token, "a number");
  return v;
}

double percentage(std::string_view text, std::string_view what, std::string_view token) {
  const double v = number(text, what, token);
  if (!(v >= 0 && v <= 100)) bad(what, token, "a percentage 0..100");
  return v;
}

// A whole number in [lo, hi] (counts such as threads and queue depths, checked before any
// product of them can overflow).
int integer(std::string_view text, std::string_view what, std::string_view token, int lo = 1, int hi = 1024) {
  int v = 0;
  const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc{} || p != text.data() + text.size() || text.empty()) bad(what, token, "a whole number");
  if (v < lo || v > hi) bad(what, token, "a whole number " + std::to_string(lo) + ".." + std::to_string(hi));
  return v;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// What ran before the measured window of a DiskSpd or fio run is the tool's own warm-up (-W,
// ramp_time), not HCIBench's half hour: the write buffers age by that much (workload_spec.hpp,
// history_s). None, or 0, keeps the default: a history of 0 would also drop the prepared start.
void age_by_tool_warmup(WorkloadSpec& w, double tool_warmup_s) {
  if (tool_warmup_s > 0) w.history_s = tool_warmup_s;
}

}  // namespace

Bytes parse_size(std::string_view text, std::string_view what) {
  if (text.empty()) bad(what, text, "a size like 4k, 256k, 1m, 10g");
  std::int64_t mult = 1;
  std::string_view digits = text;
  switch (std::tolower(static_cast<unsigned char>(text.back()))) {
    case 'k': mult = std::int64_t{1} << 10; break;
    case 'm': mult = std::int64_t{1} << 20; break;
    case 'g': mult = std::int64_t{1} << 30; break;
    case 't': mult = std::int64_t{1} << 40; break;
    case 'b': mult = 1; break;
    default: mult = 0; break;
  }
  if (mult != 0) digits = text.substr(0, text.size() - 1);
  else mult = 1;
  double v = 0;
  const auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec != std::errc{} || p != digits.data() + digits.size() || digits.empty() || !(v > 0))
    bad(what, text, "a positive size like 4k, 256k, 1m, 10g (binary units)");
  const double bytes = v * static_cast<double>(mult) + 0.5;
  if (!(bytes <= 1e18)) bad(what, text, "a size up to about 1e18 bytes (888 PiB)");   // inside int64
  return Bytes{static_cast<std::int64_t>(bytes)};
}

WorkloadSpec parse_hcibench_name(std::string_view name) {
  const auto parts = split(name, "-");
  constexpr const char* kForm =
      "fio|vdb-<N>vmdk-<W>ws-<size>-<R>rdpct-<X>randompct-<T>threads[-<C>compress-<D>dedupe]";
  if (parts.size() < 7) bad("HCIBench workload name", name, kForm);
  WorkloadSpec w;
  w.name = std::string(name);
  if (parts[0] == "fio") w.tool = WorkloadTool::fio;
  else if (parts[0] == "vdb") w.tool = WorkloadTool::vdbench;
  else bad("HCIBench workload name: tool", parts[0], "fio or vdb");
  auto field = [&](std::string_view part, std::string_view suffix) -> std::string_view {
    if (!ends_with(part, suffix)) bad("HCIBench workload name", part, std::string("<number>") + std::string(suffix));
    return part.substr(0, part.size() - suffix.size());
  };
  w.vmdks_per_vm = integer(field(parts[1], "vmdk"), "HCIBench workload name: vmdk count", parts[1]);
  w.working_set_pct = number(field(parts[2], "ws"), "HCIBench workload name: working set", parts[2]);
  w.block = parse_size(parts[3], "HCIBench workload name: block size");
  w.read_pct = number(field(parts[4], "rdpct"), "HCIBench workload name: read %", parts[4]);
  w.random_pct = number(field(parts[5], "randompct"), "HCIBench workload name: random %", parts[5]);
  w.outstanding_per_vmdk = integer(field(parts[6], "threads"), "HCIBench workload name: threads", parts[6]);
  std::size_t i = 7;
  if (i < parts.size() && ends_with(parts[i], "compress")) {
    w.compress_pct = number(field(parts[i], "compress"), "HCIBench workload name: compress %", parts[i]);
    ++i;
  }
  if (i < parts.size() && ends_with(parts[i], "dedupe")) {
    w.dedupe_pct = number(field(parts[i], "dedupe"), "HCIBench workload name: dedupe %", parts[i]);
    ++i;
  }
  if (i < parts.size()) bad("HCIBench workload name: unexpected part", parts[i], kForm);
  w.validate();
  return w;
}

WorkloadSpec parse_diskspd(std::string_view command_line) {
  WorkloadSpec w;
  w.tool = WorkloadTool::diskspd;
  // DiskSpd is Microsoft's Windows tool: its guest pays a Windows VM's CPU per I/O (ASSUMED,
  // split from the Linux load generator's with seed 002's guest CPU in view; docs/accuracy.md,
  // "Choices made with the data in view").
  w.guest_os = GuestOs::windows;
  w.name = "diskspd " + std::string(command_line);
  w.random_pct = 0;   // DiskSpd is sequential unless -r
  w.read_pct = 100;   // and read-only unless -w
  int threads = 1, outstanding = 2, targets = 0;
  double warmup = 5;   // DiskSpd's default -W5
  bool have_size = false;
  constexpr const char* kFlags = "-b<size> -c<size> -d<s> -W<s> -C<s> -t<n> -o<n> -w<pct> -r[<align>] -s[<stride>] "
                                 "-L -Sh -Su -Sw -h -Z<size> -g<rate> and target paths";
  for (std::string_view tok : split(command_line, " \t")) {
    if (tok.size() < 2 || (tok[0] != '-' && tok[0] != '/')) {
      ++targets;   // a target file or disk, e.g. E:\io.dat or #1
      continue;
    }
    const char f = tok[1];
    const std::string_view arg = tok.substr(2);
    switch (f) {
      case 'b': w.block = parse_size(arg, "DiskSpd -b (block size)"); break;
      case 'c': w.vmdk_size = parse_size(arg, "DiskSpd -c (file size)"); have_size = true; break;
      case 'd': w.duration_s = number(arg, "DiskSpd -d (duration s)", tok); break;
      case 'W': warmup = number(arg, "DiskSpd -W (warm-up s)", tok); break;
      case 'C': break;   // cool-down: not measured
      case 't': threads = integer(arg, "DiskSpd -t (threads per target)", tok); break;
      case 'o': outstanding = integer(arg, "DiskSpd -o (outstanding per thread)", tok); break;
      case 'w': w.read_pct = 100.0 - percentage(arg, "DiskSpd -w (write %)", tok); break;
      case 'r': w.random_pct = 100; break;
      case 's': w.random_pct = 0; break;
      case 'L': case 'h': case 'Z': break;   // latency stats, caching and buffer options: no effect here
      case 'S':
        if (arg != "h" && arg != "u" && arg != "w" && !arg.empty()) bad("DiskSpd -S", tok, "-Sh, -Su, -Sw or -S");
        break;
      case 'g': {
        // -g<bytes per ms per thread>: a throughput cap, turned into an IOPS cap per VM below.
        const double bytes_per_ms = number(arg, "DiskSpd -g (bytes per ms)", tok);
        w.iops_limit_per_vm = bytes_per_ms * 1000.0;   // scaled by threads and block below
        break;
      }
      default: bad("DiskSpd option", tok, kFlags);
    }
  }
  w.vmdks_per_vm = std::max(1, targets);
  w.outstanding_per_vmdk = threads * outstanding;
  w.threads_per_vmdk = threads;
  if (w.iops_limit_per_vm > 0)
    w.iops_limit_per_vm = w.iops_limit_per_vm * threads * w.vmdks_per_vm / static_cast<double>(w.block.count());
  if (!have_size) w.vmdk_size = Bytes{std::int64_t{1} << 30};
  w.warmup_s = warmup;
  age_by_tool_warmup(w, warmup);
  w.vms = 1;
  w.validate();
  return w;
}

WorkloadSpec parse_fio_options(std::string_view options) {
  WorkloadSpec w;
  w.tool = WorkloadTool::fio;
  w.name = "fio " + std::string(options);
  int iodepth = 1, numjobs = 1;
  std::string rw = "read";
  double rwmixread = -1, percentage_random = -1;
  double ramp_s = 0;   // fio's ramp_time (its default: none)
  constexpr const char* kKeys = "bs, rw, rwmixread, rwmixwrite, percentage_random, iodepth, numjobs, size, "
                                "runtime, ramp_time, buffer_compress_percentage, dedupe_percentage, rate_iops";
  for (std::string_view tok : split(options, " \t\n,")) {
    while (!tok.empty() && tok[0] == '-') tok.remove_prefix(1);
    const auto eq = tok.find('=');
    if (eq == std::string_view::npos) {
      if (tok == "direct" || tok == "time_based" || tok == "group_reporting") continue;
      bad("fio option", tok, std::string("key=value with key one of ") + kKeys);
    }
    const std::string_view key = tok.substr(0, eq), val = tok.substr(eq + 1);
    if (key == "bs" || key == "blocksize") w.block = parse_size(val, "fio bs");
    else if (key == "rw" || key == "readwrite") rw = std::string(val);
    else if (key == "rwmixread") rwmixread = percentage(val, "fio rwmixread", tok);
    else if (key == "rwmixwrite") rwmixread = 100.0 - percentage(val, "fio rwmixwrite", tok);
    else if (key == "percentage_random") percentage_random = percentage(val, "fio percentage_random", tok);
    else if (key == "iodepth") iodepth = integer(val, "fio iodepth", tok);
    else if (key == "numjobs") numjobs = integer(val, "fio numjobs", tok);
    else if (key == "size") w.vmdk_size = parse_size(val, "fio size");
    else if (key == "runtime") w.duration_s = number(val, "fio runtime", tok);
    else if (key == "ramp_time") w.warmup_s = ramp_s = number(val, "fio ramp_time", tok);
    else if (key == "buffer_compress_percentage") w.compress_pct = number(val, "fio buffer_compress_percentage", tok);
    else if (key == "dedupe_percentage") w.dedupe_pct = number(val, "fio dedupe_percentage", tok);
    else if (key == "rate_iops") w.iops_limit_per_vm = number(val, "fio rate_iops", tok);
    // fio's Windows engine runs only on Windows (fio HOWTO, ioengine=windowsaio): the guest's
    // CPU per I/O is a Windows VM's; every other engine is taken as a Linux guest's.
    else if (key == "ioengine") w.guest_os = val == "windowsaio" ? GuestOs::windows : GuestOs::linux_os;
    else if (key == "direct" || key == "filename" || key == "name" || key == "time_based") continue;
    else bad("fio option", key, kKeys);
  }
  if (rw == "read") { w.read_pct = 100; w.random_pct = 0; }
  else if (rw == "write") { w.read_pct = 0; w.random_pct = 0; }
  else if (rw == "randread") { w.read_pct = 100; w.random_pct = 100; }
  else if (rw == "randwrite") { w.read_pct = 0; w.random_pct = 100; }
  else if (rw == "rw" || rw == "readwrite") { w.read_pct = 50; w.random_pct = 0; }
  else if (rw == "randrw") { w.read_pct = 50; w.random_pct = 100; }
  else bad("fio rw", rw, "read, write, randread, randwrite, rw, readwrite or randrw");
  if (rwmixread >= 0) w.read_pct = rwmixread;
  if (percentage_random >= 0) w.random_pct = percentage_random;
  w.outstanding_per_vmdk = iodepth * numjobs;
  age_by_tool_warmup(w, ramp_s);
  w.validate();
  return w;
}

WorkloadSpec preset(std::string_view name) {
  if (name == "oltp32k") {
    WorkloadSpec w;
    w.name = "OLTP32K";
    w.block = Bytes{32 * 1024};
    w.read_pct = 70;
    w.random_pct = 100;
    return w;
  }
  bad("workload preset", name, "oltp32k");
}

}  // namespace hcisim
