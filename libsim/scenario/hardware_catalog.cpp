// Loading the data/ catalogs (devices, connections, NICs, switches, CPUs) into specs, with validation that names
// the file and line, and unknown-name errors that suggest the closest catalog names.
#include "hcisim/scenario/hardware_catalog.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <numeric>

#include "hcisim/core/check.hpp"
#include "hcisim/model/scenario/csv.hpp"

namespace hcisim {

namespace {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

// What an unknown name is, and how to go on without a catalog entry: the catalog's listing
// (`hcisim catalog <listing>`) and the inline form the scenario reader takes instead, if any.
struct CatalogPart {
  const char* what;
  const char* listing;
  const char* instead;
};

constexpr CatalogPart kDevicePart{
    "device", "devices",
    "a drive that is not in the catalog is described inline by its datasheet figures, e.g. {kind: ssd, interface: "
    "nvme, capacity_gb: 3840, read_iops_4k: 1000000, write_iops_4k: 180000, read_latency_us: 80, write_latency_us: "
    "20, seq_read_mbps: 6800, seq_write_mbps: 4000} (an hdd: rpm, seek_ms, seq_mbps; the drive keys in "
    "docs/reference.md)"};
constexpr CatalogPart kCpuPart{
    "CPU", "cpus",
    "a CPU that is not in the catalog is described inline: {cores: N, ghz: its sustained all-core clock, sockets: "
    "N} (docs/reference.md, cluster.host.cpu)"};
constexpr CatalogPart kNicPart{"NIC", "nics", "leave nic: out for a generic NIC of the link's speed (speed_gbe)"};
constexpr CatalogPart kSwitchPart{"switch", "switches",
                                  "leave switch: out for a common switch of the link's speed (speed_gbe)"};
constexpr CatalogPart kConnectionPart{"connection", "connections",
                                      "leave connection: out for the drive interface's usual attachment"};

// The catalog names close enough to `name` to be what was meant: one containing it, or within
// a third of its length in edits (at least 2). Far names are no help and are not offered.
std::vector<std::string> close_names(std::string_view name, const std::vector<std::string>& names) {
  std::vector<std::string> out;
  const std::size_t most = std::max<std::size_t>(2, name.size() / 3);
  for (const std::string& c : closest_names(name, names))
    if (c.find(name) != std::string::npos || edit_distance(name, c) <= most) out.push_back(c);
  return out;
}

template <class Spec>
const Spec& lookup(const std::vector<Spec>& specs, std::string_view name, const CatalogPart& part) {
  for (const Spec& s : specs)
    if (s.name == name) return s;
  std::vector<std::string> names;
  for (const Spec& s : specs) names.push_back(s.name);
  const std::string unknown = std::string("unknown ") + part.what + " '" + std::string(name) + "'";
  if (specs.empty())
    throw InvalidArgument(unknown + ": the " + part.what + " catalog is empty (its CSV file has a header and no rows)");
  const auto near = close_names(name, names);
  std::string msg = unknown;
  if (near.empty()) {
    msg += std::string(": no catalog name is close to it (hcisim catalog ") + part.listing + " lists them); ";
  } else {
    msg += "; closest catalog names: ";
    for (std::size_t i = 0; i < near.size(); ++i) msg += (i ? ", " : "") + near[i];
    msg += "; or ";
  }
  throw InvalidArgument(msg + part.instead);
}

DeviceKind parse_kind(const CsvTable& t, std::size_t row) {
  const std::string& k = t.text(row, "kind");
  if (k == "ssd") return DeviceKind::ssd;
  if (k == "hdd") return DeviceKind::hdd;
  throw InvalidArgument(t.path() + ":" + std::to_string(t.line_of(row)) + ": column 'kind' = '" + k +
                        "' is not allowed; expected ssd or hdd");
}

// Validates a spec read from `t`'s row, prefixing any error with file:line.
template <class Spec>
void validate_at(const CsvTable& t, std::size_t row, const Spec& spec) {
  try {
    spec.validate();
  } catch (const InvalidArgument& e) {
    throw InvalidArgument(t.path() + ":" + std::to_string(t.line_of(row)) + ": " + e.what());
  }
}

// Validates row `row` of `t` and appends it, refusing a name already in the catalog.
template <typename Spec>
void add_row(const CsvTable& t, std::size_t row, Spec spec, std::vector<Spec>& into) {
  validate_at(t, row, spec);
  for (const Spec& s : into)
    if (s.name == spec.name)
      throw InvalidArgument(t.path() + ":" + std::to_string(t.line_of(row)) + ": name '" + spec.name +
                            "' appears twice; names must be unique");
  if (spec.name.empty()) throw InvalidArgument(t.path() + ":" + std::to_string(t.line_of(row)) + ": empty name");
  into.push_back(std::move(spec));
}

// data/flash.csv: NAND internals of catalog SSDs, one row per device name (FlashSpec, hw/device_spec.hpp).
void load_flash(const CsvTable& t, std::vector<DeviceSpec>& devices) {
  for (std::size_t r = 0; r < t.rows(); ++r) {
    const std::string at = t.path() + ":" + std::to_string(t.line_of(r)) + ": ";
    const std::string& name = t.text(r, "device");
    DeviceSpec* d = nullptr;
    for (DeviceSpec& s : devices)
      if (s.name == name) d = &s;
    if (!d) throw InvalidArgument(at + "device '" + name + "' is not in devices.csv");
    if (d->flash) throw InvalidArgument(at + "device '" + name + "' appears twice; one row per device");
    FlashSpec f;
    f.cell = t.text(r, "cell");
    f.channels = t.integer(r, "channels");
    f.die_gbit = t.number(r, "die_gbit");
    f.planes = t.integer(r, "planes");
    f.page_kib = t.number(r, "page_kib");
    f.block_mib = t.number(r, "block_mib");
    f.read_us = t.number(r, "read_us");
    f.program_us = t.number(r, "program_us");
    f.erase_us = t.number(r, "erase_us");
    f.slc_read_us = t.number(r, "slc_read_us");
    f.slc_program_us = t.number(r, "slc_program_us");
    f.channel_mbps = t.number(r, "channel_mbps");
    f.spare_pct = t.number(r, "spare_pct");
    const std::string& map = t.text(r, "map");
    if (map == "dram") f.map = FtlMap::dram;
    else if (map == "hmb") f.map = FtlMap::hmb;
    else if (map == "sram") f.map = FtlMap::sram;
    else throw InvalidArgument(at + "column 'map' = '" + map + "' is not allowed; expected dram, hmb or sram");
    f.map_cache_mb = t.number(r, "map_cache_mb");
    f.map_miss_us = t.number(r, "map_miss_us");
    f.controller_cores = t.integer(r, "controller_cores", 1);
    f.pslc_cache_gb = t.number(r, "pslc_cache_gb");
    f.write_buffer_mb = t.number(r, "write_buffer_mb");
    f.controller_us = t.number(r, "controller_us");
    try {
      f.validate(name);
    } catch (const InvalidArgument& e) {
      throw InvalidArgument(at + e.what());
    }
    d->flash = f;
  }
}

// The optional `price_usd` column of a catalog row (and `cable_usd` for switches): a price
// needs its `price_source`, and must be a finite amount of at least 0.
void load_price(const CsvTable& t, std::size_t row, PriceBook::Part part, const std::string& name, PriceBook& into,
                const char* column = "price_usd") {
  if (!t.has_column(column) || t.text(row, column).empty()) return;
  const std::string at = t.path() + ":" + std::to_string(t.line_of(row)) + ": ";
  const double usd = t.number(row, column);
  if (!(usd >= 0) || usd > kMaxPriceUsd)
    throw InvalidArgument(at + "column '" + column + "' = '" + t.text(row, column) +
                          "' is not allowed; expected US dollars from 0 to 1e9");
  if (!t.has_column("price_source"))
    throw InvalidArgument(at + "column '" + column + "' has a price but the file has no 'price_source' column");
  if (t.text(row, "price_source").empty())
    throw InvalidArgument(at + "column '" + column + "' has a price but 'price_source' is empty; say where it comes from");
  into.set(part, name, {usd + 0.0, t.text(row, "price_source")});
}

}  // namespace

std::vector<std::string> closest_names(std::string_view name, const std::vector<std::string>& candidates,
                                       std::size_t n) {
  std::vector<std::pair<std::size_t, std::string>> scored;
  for (const auto& c : candidates) {
    // A candidate containing the typed text is as close as it gets (e.g. "p4800x").
    const std::size_t d = c.find(name) != std::string::npos ? 0 : edit_distance(name, c);
    scored.emplace_back(d, c);
  }
  std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (std::size_t i = 0; i < scored.size() && i < n; ++i) out.push_back(scored[i].second);
  return out;
}

namespace {

// Whether `phrase` occurs in `text` as whole words (no letter either side).
bool has_phrase(std::string_view text, std::string_view phrase) {
  const auto letter = [&text](std::size_t i) { return std::isalpha(static_cast<unsigned char>(text[i])) != 0; };
  for (std::size_t at = text.find(phrase); at != std::string_view::npos; at = text.find(phrase, at + 1)) {
    const std::size_t end = at + phrase.size();
    if ((at == 0 || !letter(at - 1)) && (end == text.size() || !letter(end))) return true;
  }
  return false;
}

}  // namespace

std::string figure_caveat(std::string_view notes) {
  // Phrases the catalogs' notes use when a figure is not the part's own published value; not
  // "derived" (arithmetic on published figures, such as DWPD from TBW) nor a bare "family" or
  // "series" (a part's family or driver series says nothing about its figures).
  static constexpr std::string_view kMarks[] = {
      "doubt",         "doubtful",      "estimate",  "guess",    "unverified", "borrowed", "not retrieved",
      "not found",     "not published", "family maxima", "stand-in", "conflict", "probable", "probably",
      "optimistic",    "assumed",       "sibling"};
  std::string out;
  std::size_t start = 0;
  while (start < notes.size()) {
    // A sentence ends at ". " (or the notes' end).
    std::size_t end = notes.find(". ", start);
    end = end == std::string_view::npos ? notes.size() : end + 1;
    const std::string_view sentence = notes.substr(start, end - start);
    std::string lower(sentence);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (std::string_view m : kMarks)
      if (has_phrase(lower, m)) {
        if (!out.empty()) out += ' ';
        out += sentence;
        break;
      }
    start = end;
    while (start < notes.size() && notes[start] == ' ') ++start;
  }
  return out;
}

std::vector<RowCaveat> catalog_caveats(const std::string& csv_path) {
  const CsvTable t = CsvTable::read(csv_path);
  std::vector<RowCaveat> out;
  if (!t.has_column("notes")) return out;
  for (std::size_t r = 0; r < t.rows(); ++r) {
    std::string caveat = figure_caveat(t.text(r, "notes"));
    if (!caveat.empty()) out.push_back({t.text(r, "name"), std::move(caveat)});
  }
  return out;
}

HardwareCatalog HardwareCatalog::load(const std::string& dir) {
  HardwareCatalog cat;
  const CsvTable dev = CsvTable::read(dir + "/devices.csv");
  for (std::size_t r = 0; r < dev.rows(); ++r) {
    DeviceSpec d;
    d.name = dev.text(r, "name");
    d.kind = parse_kind(dev, r);
    d.interface = dev.text(r, "interface");
    d.capacity_gb = dev.number(r, "capacity_gb");
    d.read_iops_4k = dev.number(r, "read_iops_4k");
    d.write_iops_4k = dev.number(r, "write_iops_4k");
    d.read_latency_us = dev.number(r, "read_latency_us");
    d.write_latency_us = dev.number(r, "write_latency_us");
    d.seq_read_mbps = dev.number(r, "seq_read_mbps");
    d.seq_write_mbps = dev.number(r, "seq_write_mbps");
    d.rpm = dev.number(r, "rpm");
    d.seek_ms = dev.number(r, "seek_ms");
    d.source = dev.text(r, "source");
    load_price(dev, r, PriceBook::Part::device, d.name, cat.prices_);
    add_row(dev, r, std::move(d), cat.devices_);
  }
  load_flash(CsvTable::read(dir + "/flash.csv"), cat.devices_);
  const CsvTable con = CsvTable::read(dir + "/connections.csv");
  for (std::size_t r = 0; r < con.rows(); ++r) {
    ConnectionSpec c;
    c.name = con.text(r, "name");
    c.added_latency_us = con.number(r, "added_latency_us");
    // Optional columns: a protocol without its own per-command stages adds nothing.
    for (auto [field, column] : {std::pair{&c.read_protocol_us, "read_protocol_us"}, std::pair{&c.write_protocol_us, "write_protocol_us"}})
      if (con.has_column(column)) *field = con.number(r, column);
    c.max_mbps = con.number(r, "max_mbps");
    c.commands = con.integer(r, "commands", 0);
    c.source = con.text(r, "source");
    add_row(con, r, std::move(c), cat.connections_);
  }
  const CsvTable nic = CsvTable::read(dir + "/nics.csv");
  for (std::size_t r = 0; r < nic.rows(); ++r) {
    NicSpec n;
    n.name = nic.text(r, "name");
    n.speed_gbps = nic.number(r, "speed_gbps");
    n.ports = nic.integer(r, "ports");
    n.latency_us = nic.number(r, "latency_us");
    n.rx_interrupt_us = nic.number(r, "rx_interrupt_us", std::nan(""));   // required: 0 turns moderation off
    n.rdma = nic.flag(r, "rdma");
    n.source = nic.text(r, "source");
    load_price(nic, r, PriceBook::Part::nic, n.name, cat.prices_);
    add_row(nic, r, std::move(n), cat.nics_);
  }
  const CsvTable sw = CsvTable::read(dir + "/switches.csv");
  for (std::size_t r = 0; r < sw.rows(); ++r) {
    SwitchSpec s;
    s.name = sw.text(r, "name");
    s.ports = sw.integer(r, "ports");
    s.port_speed_gbps = sw.number(r, "port_speed_gbps");
    s.latency_us = sw.number(r, "latency_us");
    s.cut_through = sw.flag(r, "cut_through");
    s.buffer_mb = sw.number(r, "buffer_mb");
    s.source = sw.text(r, "source");
    load_price(sw, r, PriceBook::Part::switch_unit, s.name, cat.prices_);
    load_price(sw, r, PriceBook::Part::cable, s.name, cat.prices_, "cable_usd");
    add_row(sw, r, std::move(s), cat.switches_);
  }
  const CsvTable cpu = CsvTable::read(dir + "/cpus.csv");
  for (std::size_t r = 0; r < cpu.rows(); ++r) {
    CpuSpec c;
    c.name = cpu.text(r, "name");
    c.sockets = 1;
    c.cores_per_socket = cpu.integer(r, "cores");
    if (c.cores_per_socket < 1 || c.cores_per_socket > 1024)
      throw InvalidArgument(cpu.path() + ":" + std::to_string(cpu.line_of(r)) + ": column 'cores' = " +
                            std::to_string(c.cores_per_socket) + " is not allowed; expected 1..1024 cores per socket");
    const int threads = cpu.integer(r, "threads");
    c.threads_per_core = c.cores_per_socket > 0 ? threads / c.cores_per_socket : 0;
    if (c.threads_per_core * c.cores_per_socket != threads)
      throw InvalidArgument(cpu.path() + ":" + std::to_string(cpu.line_of(r)) + ": column 'threads' = " +
                            std::to_string(threads) + " is not allowed; expected a multiple of cores");
    // The model runs CPU work at the sustained all-core clock (cpu_spec.hpp); it lies between
    // the base clock and the one-core turbo.
    const std::string where = cpu.path() + ":" + std::to_string(cpu.line_of(r)) + ": ";
    auto clock = [&](const char* column) {
      if (cpu.text(r, column).empty())
        throw InvalidArgument(where + "column '" + column + "' is empty; expected a clock in GHz");
      return cpu.number(r, column);
    };
    c.base_ghz = clock("base_ghz");
    c.turbo_ghz = clock("turbo_ghz");
    c.ghz = clock("sustained_ghz");
    if (cpu.text(r, "sustained_source").empty())
      throw InvalidArgument(where + "column 'sustained_source' is empty; expected the source of sustained_ghz, "
                            "or the range it stands for and why");
    if (!(c.base_ghz > 0 && c.base_ghz <= c.turbo_ghz && c.ghz >= c.base_ghz && c.ghz <= c.turbo_ghz)) {
      char got[160];
      std::snprintf(got, sizeof got, "base_ghz %g, sustained_ghz %g, turbo_ghz %g", c.base_ghz, c.ghz, c.turbo_ghz);
      throw InvalidArgument(cpu.path() + ":" + std::to_string(cpu.line_of(r)) + ": " + got +
                            " is not allowed; expected 0 < base_ghz <= sustained_ghz <= turbo_ghz");
    }
    c.source = cpu.text(r, "source");
    load_price(cpu, r, PriceBook::Part::cpu, c.name, cat.prices_);
    add_row(cpu, r, std::move(c), cat.cpus_);
  }
  cat.calibration_ = Calibration::load_dir(dir);
  cat.dir_ = dir;
  std::error_code ec;
  cat.calibration_found_ = std::filesystem::exists(dir + "/calibration.yaml", ec);
  return cat;
}

const DeviceSpec& HardwareCatalog::device(std::string_view name) const { return lookup(devices_, name, kDevicePart); }

const NicSpec& HardwareCatalog::nic(std::string_view name) const { return lookup(nics_, name, kNicPart); }

const SwitchSpec& HardwareCatalog::network_switch(std::string_view name) const {
  return lookup(switches_, name, kSwitchPart);
}

const CpuSpec& HardwareCatalog::cpu(std::string_view name) const { return lookup(cpus_, name, kCpuPart); }

const ConnectionSpec& HardwareCatalog::connection(std::string_view name) const {
  return lookup(connections_, name, kConnectionPart);
}

}  // namespace hcisim
