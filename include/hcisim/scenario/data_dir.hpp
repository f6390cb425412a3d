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
#pragma once

#include <string>
#include <vector>

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

}  // namespace hcisim
