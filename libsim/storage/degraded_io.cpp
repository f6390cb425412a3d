// Degraded reads of erasure-coded objects whose column is absent (cluster_core.hpp,
// ClusterSpec::failed_hosts): a read rebuilds the lost unit from k surviving units of its
// row ([S51]). RAID-1 reads and the skipped columns of writes are in
// io_path.cpp's fan_out and the back ends' fan_out_write; OSA's degraded partial-stripe
// write is OsaBackEnd::reconstruct_write.
#include "cluster_core.hpp"

namespace hcisim {

// k surviving units of the row, the row's other data columns first, then its parities:
// any k of the k + m units rebuild the lost one (Reed-Solomon [S51]).
void ClusterCore::degraded_read(std::uint32_t req, const StripeColumns& cols, int h, std::int64_t bytes) {
  const Object& o = objects_[requests_[req].object];
  int n = 0;
  for (int pass = 0; pass < 2; ++pass)
    for (std::size_t c = 0; c < o.place.data.size() && n < layout_.data; ++c) {
      if (static_cast<int>(c) == cols.data_column || absent(o, c) || cols.is_parity(c) != (pass == 1)) continue;
      add_read(req, static_cast<int>(c), h, bytes);
      ++n;
    }
}

}  // namespace hcisim
