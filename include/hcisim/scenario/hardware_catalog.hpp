// The hardware catalogs of data/ (devices.csv, connections.csv, nics.csv, switches.csv,
// cpus.csv): one row per part, every figure with its source. Lookups of unknown names fail
// with the closest catalog names.
//
// Where hcisim finds its data at run time: the catalogs, the calibration, the measurements
// (data/) and the example scenarios (examples/scenarios/, beside data/). The first of these
// that holds data/devices.csv wins:
//  1. the environment variable HCISIM_DATA_DIR (a data/ folder of the user's choosing);
//  2. for a program built against an installed package (find_package(hcisim)), that
//     package's <prefix>/share/hcisim/data, as its config found the prefix;
//  3. the installed package around the running program or shared library: the nearest
//     <folder above it>/share/hcisim/data (the installed CLI in <prefix>/bin, the Python
//     module in <prefix>/lib/python3/dist-packages/hcisim); for a program of the build tree
//     the search stops at the build folder (an installed copy above it is not this build's)
//  4. and the source tree's data/ comes next (tests, the CLI, benchmarks);
//  5. the prefix the package was configured for: <prefix>/share/hcisim/data.
// A program linked against an installed package thus reads that package's data wherever the
// prefix was moved, and never the build machine's source tree.
//
// A user's price file, laid over the catalogs' list prices with
// HardwareCatalog::add_prices. YAML, every key optional but `currency`:
//   currency: USD                        # prices are US dollars (the only currency)
//   source: "our 2026 quote"             # where the figures come from (default: the file)
//   host_base: 9000                      # per host: chassis, memory, boot device
//   cpus: {intel-xeon-gold-6338: 2612}   # per socket
//   devices: {samsung-pm1733-3.84tb: 950}
//   nics: {broadcom-57508-100g: 2484}    # per card
//   switches: {dell-s5232f-on: {switch: 62475, cable: 360}}   # whole switch; one cable per port
//   licences: {per_core: 350, min_cores_per_socket: 16, per_tib_raw: 0}
// Every name must be a catalog name (a typo fails with the closest ones); amounts are
// 0..1e9 dollars. Errors name the file, line and key.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "hcisim/hw/cpu_spec.hpp"
#include "hcisim/hw/device_spec.hpp"
#include "hcisim/hw/network_spec.hpp"
#include "hcisim/report/price_book.hpp"
#include "hcisim/calib/calibration.hpp"
#include "hcisim/scenario/hardware_catalog.hpp"

namespace hcisim {

/// The data/ folder by the rules above. Throws InvalidArgument listing every place tried and
/// how to name one (HCISIM_DATA_DIR, or a folder passed to HardwareCatalog::load).
std::string default_data_dir();

/// The places default_data_dir() tries, in order, each with why it is a candidate.
struct DataDirCandidate {
  std::string dir;
  std::string why;
};
std::vector<DataDirCandidate> data_dir_candidates();

class HardwareCatalog {
 public:
  /// Loads every catalog file of `dir` and its calibration.yaml. Errors name file, line, column.
  static HardwareCatalog load(const std::string& dir = default_data_dir());

  const DeviceSpec& device(std::string_view name) const;
  const ConnectionSpec& connection(std::string_view name) const;
  const NicSpec& nic(std::string_view name) const;
  const SwitchSpec& network_switch(std::string_view name) const;
  /// One socket of the named CPU (sockets = 1); the host sets its socket count.
  const CpuSpec& cpu(std::string_view name) const;
  const std::vector<DeviceSpec>& devices() const { return devices_; }
  const std::vector<ConnectionSpec>& connections() const { return connections_; }
  const std::vector<NicSpec>& nics() const { return nics_; }
  const std::vector<SwitchSpec>& switches() const { return switches_; }
  const std::vector<CpuSpec>& cpus() const { return cpus_; }
  /// The calibrated software constants of `<dir>/calibration.yaml` (defaults if absent).
  const Calibration& calibration() const { return calibration_; }
  void set_calibration(const Calibration& c) {
    calibration_ = c;
    calibration_found_ = true;
  }
  /// The catalogs' list prices (`price_usd` columns, each with its `price_source`), with
  /// any price file laid over them (add_prices): what scenarios read with this catalog cost.
  const PriceBook& prices() const { return prices_; }
  void add_prices(const PriceBook& over) { prices_.overlay(over); }
  /// Where the catalogs were read from, and whether a calibration came with them: without
  /// one, every scenario read with this catalog says it runs the uncalibrated model.
  const std::string& dir() const { return dir_; }
  bool calibration_found() const { return calibration_found_; }

 private:
  std::vector<DeviceSpec> devices_;
  std::vector<ConnectionSpec> connections_;
  std::vector<NicSpec> nics_;
  std::vector<SwitchSpec> switches_;
  std::vector<CpuSpec> cpus_;
  PriceBook prices_;
  std::string dir_;
  bool calibration_found_ = false;
  Calibration calibration_ = Calibration::defaults();
};

/// Up to `n` of `candidates` closest to `name` by edit distance, closest first.
std::vector<std::string> closest_names(std::string_view name, const std::vector<std::string>& candidates,
                                       std::size_t n = 3);

/// The sentences of a catalog row's notes that say its figures are not the part's own
/// published values: estimated, guessed, borrowed from a sibling or stand-in, family maxima,
/// not retrieved, found or published, assumed, unverified, conflicting, optimistic or doubtful
/// (joined by spaces; empty when none says so). The words count whole ("siblings" of a CPU's
/// threads is no sibling part).
std::string figure_caveat(std::string_view notes);

/// Each row's caveat (figure_caveat of its notes column) of a catalog file, by row name,
/// rows without one left out, in file order.
struct RowCaveat {
  std::string name;
  std::string caveat;
};
std::vector<RowCaveat> catalog_caveats(const std::string& csv_path);

PriceBook parse_price_file(const std::string& text, const std::string& source, const HardwareCatalog& catalog);
PriceBook load_price_file(const std::string& path, const HardwareCatalog& catalog);

}  // namespace hcisim
