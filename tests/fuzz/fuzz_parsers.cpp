// libFuzzer target: the workload parsers (workload_parsers.hpp): HCIBench job names, DiskSpd
// command lines, fio option strings, sizes, presets and Easy Run profile names. The first
// byte picks the parser, the rest is its text. Bad input must end in InvalidArgument.
#include <cstdint>
#include <string_view>

#include "hcisim/core/check.hpp"
#include "hcisim/model/workload/workload_parsers.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    switch (data[0] % 6) {
      case 0: (void)hcisim::parse_hcibench_name(text).validate(); break;
      case 1: (void)hcisim::parse_diskspd(text).validate(); break;
      case 2: (void)hcisim::parse_fio_options(text).validate(); break;
      case 3: (void)hcisim::parse_size(text, "fuzz"); break;
      case 4: (void)hcisim::preset(text).validate(); break;
      default: (void)hcisim::parse_easy_run_profile(text); break;
    }
  } catch (const hcisim::InvalidArgument&) {
  }
  return 0;
}
