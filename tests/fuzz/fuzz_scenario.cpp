// libFuzzer target: the scenario reader with --set overrides (scenario_yaml.cpp). The input
// gives up to three override strings, then the YAML text. Bad input must end in
// InvalidArgument; anything else (a crash, a sanitizer report, another exception, a hang or
// memory out of proportion) is a finding.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <string>
#include <vector>

#include "hcisim/core/check.hpp"
#include "hcisim/scenario/hardware_catalog.hpp"
#include "hcisim/scenario/scenario.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const hcisim::HardwareCatalog catalog = hcisim::HardwareCatalog::load();
  FuzzedDataProvider in(data, size);
  std::vector<std::string> overrides(in.ConsumeIntegralInRange<std::size_t>(0, 3));
  for (std::string& o : overrides) o = in.ConsumeRandomLengthString(256);
  const std::string text = in.ConsumeRemainingBytesAsString();
  try {
    const hcisim::Scenario s = hcisim::parse_scenario(text, "fuzz.yaml", overrides, catalog);
    s.cluster.validate();
    s.workload.validate();
  } catch (const hcisim::InvalidArgument&) {
  }
  return 0;
}
