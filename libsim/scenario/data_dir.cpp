// Finding data/ at run time (data_dir.hpp).
#include "hcisim/scenario/data_dir.hpp"

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

namespace hcisim {

namespace {

namespace fs = std::filesystem;

// The file of the executable or shared object that holds this code.
fs::path this_object() {
  Dl_info info{};
  std::error_code ec;
  if (dladdr(reinterpret_cast<void*>(&data_dir_candidates), &info) != 0 && info.dli_fname != nullptr &&
      fs::path(info.dli_fname).has_parent_path()) {
    const fs::path p = fs::canonical(info.dli_fname, ec);
    if (!ec) return p;
  }
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);   // the main program (static link)
  return ec ? fs::path() : exe;
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
  const fs::path object = this_object();
  if (!object.empty()) {
    // <prefix>/bin/hcisim, <prefix>/lib/..., <prefix>/lib/python3/dist-packages/hcisim/_hcisim.so:
    // the nearest folder above the object that holds share/hcisim/data, within 5 levels.
    fs::path dir = object.parent_path();
    for (int up = 0; up < 5 && dir.has_parent_path() && dir != dir.parent_path(); ++up) {
      dir = dir.parent_path();
      const fs::path pkg = dir / "share" / "hcisim" / "data";
      if (up == 0 || holds_data(pkg.string())) {
        out.push_back({pkg.string(), "the package around " + object.string()});
        if (holds_data(pkg.string())) break;
      }
    }
    if (inside(object, HCISIM_BUILD_DIR))
      out.push_back({HCISIM_SOURCE_DATA_DIR, "the source tree of the build tree holding " + object.string()});
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
