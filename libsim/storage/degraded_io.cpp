// Degraded I/O on erasure-coded objects whose column is absent (cluster.hpp,
// ClusterSpec::failed_hosts): reads rebuild the lost unit from k surviving units of its row,
// partial writes compute the new parities from the row's other data
// (vsan-model-facts.md section 3). RAID-1 and the skipped columns of writes are in
// cluster.cpp's fan_out.
#include "hcisim/storage/cluster.hpp"

namespace hcisim {

namespace {

bool is_parity(const StripeColumns& cols, std::size_t column) {
  for (int j = 0; j < cols.parity_count; ++j)
    if (static_cast<std::size_t>(cols.parity_columns[j]) == column) return true;
  return false;
}


}  // namespace

// k surviving units of the row, the row's other data columns first, then its parities:
// any k of the k + m units rebuild the lost one (Reed-Solomon; vsan-model-facts.md section 3).
void Cluster::degraded_read(std::uint32_t req, const StripeColumns& cols, int h, std::int64_t bytes) {
  const Object& o = objects_[requests_[req].object];
  const bool esa = spec_.architecture == Architecture::esa;
  int n = 0;
  for (int pass = 0; pass < 2; ++pass)
    for (std::size_t c = 0; c < o.place.data.size() && n < layout_.data; ++c) {
      if (static_cast<int>(c) == cols.data_column || absent(o, c) || is_parity(cols, c) != (pass == 1)) continue;
      add_read(req, o.place.component(static_cast<int>(c), h), esa ? kNone : group_of(o, c, h), bytes);
      ++n;
    }
}

// New parity = f(new data, the row's other data units): read those (rebuilding any absent one
// needs the parities as well), then write the surviving parities.
void Cluster::reconstruct_write(std::uint32_t req, const StripeColumns& cols, int h) {
  const Request& r = requests_[req];
  const Object& o = objects_[r.object];
  if (r.phase == 0) {
    bool other_absent = false;
    for (std::size_t c = 0; c < o.place.data.size(); ++c) {
      if (static_cast<int>(c) == cols.data_column || is_parity(cols, c)) continue;
      if (absent(o, c)) other_absent = true;
      else add_read(req, o.place.component(static_cast<int>(c), h), group_of(o, c, h), r.size);
    }
    if (other_absent)
      for (int j = 0; j < cols.parity_count; ++j) {
        const auto c = static_cast<std::size_t>(cols.parity_columns[j]);
        if (!absent(o, c)) add_read(req, o.place.component(static_cast<int>(c), h), group_of(o, c, h), r.size);
      }
    return;
  }
  for (int j = 0; j < cols.parity_count; ++j) {
    const auto c = static_cast<std::size_t>(cols.parity_columns[j]);
    if (!absent(o, c)) add_write(req, o.place.data[c].host, groups_[group_of(o, c, h)].cache, r.size);
  }
}

}  // namespace hcisim
