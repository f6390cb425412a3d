// Data reduction: how a workload's fio-style compressibility and duplication become the
// ratios the storage layer applies ([S16] [S17] [S41] [S91] [S92]).
//   fio buffer_compress_percentage = p: each block compresses to (1 - p/100) of its size.
//   fio dedupe_percentage = q: q % of written blocks duplicate an earlier block, so dedupe
//   keeps (1 - q/100) of them: ratio 1 / (1 - q/100).
//   OSA: dedupe then LZ4 at destage, per disk group, 4 KB blocks; a block is kept compressed
//   only if it fits in 2 KB, otherwise stored as is (so OSA's ratio is 1 or >= 2).
//   ESA: compression at ingest on the issuing host, stored in 512-byte sectors, at most 8:1.
#pragma once

#include "hcisim/storage/policy.hpp"

namespace hcisim {

/// How reducible the workload's data is.
struct DataProfile {
  double compress_pct = 0;   // 0..100
  double dedupe_pct = 0;     // 0..99

  /// Throws InvalidArgument naming the field.
  void validate() const;
};

struct ReductionRatios {
  double compression = 1.0;  // bytes before / after compression
  double dedupe = 1.0;       // blocks before / after dedupe
  double total() const { return compression * dedupe; }
};

/// The ratios `arch` achieves on `data` with the given services on.
ReductionRatios reduction_ratios(const DataProfile& data, Architecture arch, bool compression, bool dedupe);

}  // namespace hcisim
