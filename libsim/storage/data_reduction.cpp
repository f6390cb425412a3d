// Data-reduction ratios (data_reduction.hpp).
#include "hcisim/storage/data_reduction.hpp"

#include <algorithm>
#include <cmath>

#include "hcisim/core/check.hpp"

namespace hcisim {

void DataProfile::validate() const {
  if (!(compress_pct >= 0 && compress_pct <= 100)) check::fail("workload compress_pct", compress_pct, "0..100");
  if (!(dedupe_pct >= 0 && dedupe_pct <= 99)) check::fail("workload dedupe_pct", dedupe_pct, "0..99");
}

ReductionRatios reduction_ratios(const DataProfile& data, Architecture arch, bool compression, bool dedupe) {
  data.validate();
  ReductionRatios r;
  constexpr double kBlock = 4096.0;
  const double compressed = kBlock * (1.0 - data.compress_pct / 100.0);
  if (compression) {
    if (arch == Architecture::osa) {
      r.compression = compressed <= kBlock / 2 ? kBlock / std::max(compressed, 512.0) : 1.0;
    } else {
      const double sectors = std::max(1.0, std::ceil(compressed / 512.0));
      r.compression = kBlock / (512.0 * sectors);   // 1 .. 8
    }
  }
  if (dedupe && arch == Architecture::osa) r.dedupe = 1.0 / (1.0 - data.dedupe_pct / 100.0);
  return r;
}

}  // namespace hcisim
