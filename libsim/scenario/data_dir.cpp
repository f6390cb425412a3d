// Finding data/ at run time (hardware_catalog.hpp, default_data_dir).
#include "hcisim/scenario/hardware_catalog.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "hcisim/core/check.hpp"

// Set by libsim/CMakeLists.txt.
#ifndef HCISIM_SOURCE_DATA_DIR
#define HCISIM_SOURCE_DATA_DIR ""
#endif
#ifndef HCISIM_BUILD_DIR
#define HCISIM_BUILD_DIR ""
#endif
#ifndef HCISIM_INSTALL_DATA_DIR
#define HCISIM_INSTALL_DATA_DIR ""
#endif

// Defined by a program that links an installed package (cmake/hcisimConfig.cmake.in), absent
// (null) otherwise.
extern "C" const char* hcisim_package_data_dir() __attribute__((weak));

namespace hcisim {

namespace {

namespace fs = std::filesystem;

// The file of the executable or shared object that holds this code.
fs::path this_object() {
  Dl_info info{};
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);   // the main program
  // A shared object (the Python module) is named by dladdr; for the main program dladdr gives
  // argv[0], which need not be a path to it, so the kernel's link is used.
  if (dladdr(reinterpret_cast<void*>(&data_dir_candidates), &info) != 0 && info.dli_fname != nullptr &&
      info.dli_fbase != nullptr) {
    const fs::path p = fs::canonical(info.dli_fname, ec);
    if (!ec && p.extension() == ".so") return p;
  }
  return exe;
}

bool inside(const fs::path& file, const fs::path& dir) {
  if (dir.empty() || file.empty()) return false;
  std::error_code ec;
  const fs::path d = fs::canonical(dir, ec);
  if (ec) return false;
  const auto rel = file.lexically_relative(d);
  return !rel.empty() && *rel.begin() != "..";
}

bool holds_data(const std::string& dir) {
  std::error_code ec;
  return !dir.empty() && fs::is_regular_file(fs::path(dir) / "devices.csv", ec);
}

}  // namespace

std::vector<DataDirCandidate> data_dir_candidates() {
  std::vector<DataDirCandidate> out;
  if (const char* env = std::getenv("HCISIM_DATA_DIR"); env != nullptr && *env != '\0')
    out.push_back({env, "HCISIM_DATA_DIR"});
  // A program built against an installed package through find_package(hcisim): its config
  // compiles this function into the program with the package's data folder (wherever the
  // prefix was when the program was configured).
  if (hcisim_package_data_dir != nullptr) out.push_back({hcisim_package_data_dir(), "the package it was built against"});
  const fs::path object = this_object();
  if (!object.empty()) {
    // <prefix>/bin/hcisim, <prefix>/lib/python3/dist-packages/hcisim/_hcisim.so: the nearest
    // folder above the object that holds share/hcisim/data, within 5 levels. For a program of
    // the build tree (tests, the CLI, benchmarks) the walk stops at the build folder (an
    // installed copy above it is not this build's), and the source tree's data/ comes next.
    const bool in_build = inside(object, HCISIM_BUILD_DIR);
    std::error_code ec;
    const fs::path build = in_build ? fs::canonical(HCISIM_BUILD_DIR, ec) : fs::path();
    fs::path dir = object.parent_path();
    for (int up = 0; up < 5 && dir.has_parent_path() && dir != dir.parent_path(); ++up) {
      dir = dir.parent_path();
      if (in_build && !inside(dir / "x", build)) break;
      const fs::path pkg = dir / "share" / "hcisim" / "data";
      if (holds_data(pkg.string()) || (up == 0 && !in_build)) {
        out.push_back({pkg.string(), "the package around " + object.string()});
        if (holds_data(pkg.string())) break;
      }
    }
    if (in_build) out.push_back({HCISIM_SOURCE_DATA_DIR, "the source tree of the build tree holding " + object.string()});
  }
  out.push_back({HCISIM_INSTALL_DATA_DIR, "the install prefix the package was configured for"});
  return out;
}

std::string default_data_dir() {
  // A folder the user named must be the one used: no quiet fallback to another.
  if (const char* env = std::getenv("HCISIM_DATA_DIR"); env != nullptr && *env != '\0' && !holds_data(env))
    throw InvalidArgument(std::string("HCISIM_DATA_DIR = '") + env +
                          "' holds no devices.csv; expected a data/ folder with hcisim's catalogs");
  const std::vector<DataDirCandidate> candidates = data_dir_candidates();
  for (const DataDirCandidate& c : candidates)
    if (holds_data(c.dir)) return c.dir;
  std::string tried;
  for (const DataDirCandidate& c : candidates) tried += "\n  " + c.dir + " (" + c.why + ")";
  throw InvalidArgument("hcisim's data (catalogs, calibration) not found; tried, in order:" + tried +
                        "\nset HCISIM_DATA_DIR to a data/ folder holding devices.csv, or pass one to "
                        "HardwareCatalog::load");
}

}  // namespace hcisim
