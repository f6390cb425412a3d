// Laying one price book over another (price_book.hpp).
#include "hcisim/report/price_book.hpp"

namespace hcisim {

void PriceBook::overlay(const PriceBook& over) {
  for (const auto& [key, price] : over.parts_) parts_[key] = price;
  if (over.host_base_set_) set_host_base(over.host_base_);
  const LicencePrices& l = over.licences_;
  if (l.per_core_set) {
    licences_.per_core_set = true;
    licences_.per_core_usd = l.per_core_usd;
    licences_.min_cores_per_socket = l.min_cores_per_socket;
    licences_.per_core_source = l.per_core_source;
  }
  if (l.per_tib_set) {
    licences_.per_tib_set = true;
    licences_.per_tib_raw_usd = l.per_tib_raw_usd;
    licences_.per_tib_source = l.per_tib_source;
  }
  from_file_ = from_file_ || over.from_file_;
}

}  // namespace hcisim
