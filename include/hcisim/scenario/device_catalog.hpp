// The device and connection catalogs of data/ (devices.csv, connections.csv): one row per
// part, every figure with its source. Lookups of unknown names fail with the closest names.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "hcisim/hw/device_spec.hpp"

namespace hcisim {

/// The data/ folder of the source tree or of the installed package (HCISIM_DATA_DIR).
std::string default_data_dir();

class DeviceCatalog {
 public:
  /// Loads `<dir>/devices.csv` and `<dir>/connections.csv`. Errors name file, line, column.
  static DeviceCatalog load(const std::string& dir = default_data_dir());

  const DeviceSpec& device(std::string_view name) const;
  const ConnectionSpec& connection(std::string_view name) const;
  const std::vector<DeviceSpec>& devices() const { return devices_; }
  const std::vector<ConnectionSpec>& connections() const { return connections_; }

 private:
  std::vector<DeviceSpec> devices_;
  std::vector<ConnectionSpec> connections_;
};

/// Up to `n` of `candidates` closest to `name` by edit distance, closest first.
std::vector<std::string> closest_names(std::string_view name, const std::vector<std::string>& candidates,
                                       std::size_t n = 3);

}  // namespace hcisim
