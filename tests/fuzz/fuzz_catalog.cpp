// libFuzzer target: the catalog readers (csv.cpp, hardware_catalog.cpp, calibration.cpp).
// The first byte picks one of the seven catalog files, or a price file (price_file.cpp); the
// rest replaces that catalog file's content in a private copy of data/, which is then loaded
// whole, or is read as a price file over the shipped catalogs. Bad input must end in
// InvalidArgument.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "hcisim/core/check.hpp"
#include "hcisim/scenario/hardware_catalog.hpp"

namespace {

const char* const kFiles[] = {"devices.csv", "flash.csv",   "connections.csv", "nics.csv",
                              "switches.csv", "cpus.csv", "calibration.yaml"};

// A copy of the shipped catalogs for this process (libFuzzer may run several).
const std::filesystem::path& work_dir() {
  static const std::filesystem::path dir = [] {
    const auto d = std::filesystem::temp_directory_path() / ("hcisim_fuzz_catalog_" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    for (const char* f : kFiles)
      std::filesystem::copy_file(std::filesystem::path(hcisim::default_data_dir()) / f, d / f,
                                 std::filesystem::copy_options::overwrite_existing);
    return d;
  }();
  return dir;
}

void write(const std::filesystem::path& p, const char* data, std::size_t n) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(data, static_cast<std::streamsize>(n));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  constexpr std::size_t kChoices = sizeof kFiles / sizeof kFiles[0] + 1;
  if (data[0] % kChoices == kChoices - 1) {
    static const hcisim::HardwareCatalog shipped = hcisim::HardwareCatalog::load();
    try {
      (void)hcisim::parse_price_file(std::string(reinterpret_cast<const char*>(data + 1), size - 1), "fuzz.yaml", shipped);
    } catch (const hcisim::InvalidArgument&) {
    }
    return 0;
  }
  const auto& dir = work_dir();
  const char* file = kFiles[data[0] % kChoices];
  const std::filesystem::path target = dir / file;
  write(target, reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    (void)hcisim::HardwareCatalog::load(dir.string());
  } catch (const hcisim::InvalidArgument&) {
  }
  std::filesystem::copy_file(std::filesystem::path(hcisim::default_data_dir()) / file, target,
                             std::filesystem::copy_options::overwrite_existing);
  return 0;
}
