// The hardware catalog the tests read (data/), loaded once per test program.
#pragma once

#include "hcisim/scenario/hardware_catalog.hpp"

namespace hcisim::test {

inline const HardwareCatalog& cat() {
  static const HardwareCatalog c = HardwareCatalog::load();
  return c;
}

}  // namespace hcisim::test
