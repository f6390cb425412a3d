// The hardware catalogs of data/ (devices.csv, connections.csv, nics.csv, switches.csv,
// cpus.csv): one row per part, every figure with its source. Lookups of unknown names fail
// with the closest catalog names.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "hcisim/hw/cpu_spec.hpp"
#include "hcisim/hw/device_spec.hpp"
#include "hcisim/hw/network_spec.hpp"
#include "hcisim/report/price_book.hpp"
#include "hcisim/scenario/calibration.hpp"
#include "hcisim/scenario/data_dir.hpp"

namespace hcisim {


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

}  // namespace hcisim
