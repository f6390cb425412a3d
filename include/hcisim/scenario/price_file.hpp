// A user's price file, laid over the catalogs' list prices with
// HardwareCatalog::add_prices. YAML, every key optional but `currency`:
//   currency: USD                        # prices are US dollars (the only currency)
//   source: "our 2026 quote"             # where the figures come from (default: the file)
//   host_base: 9000                      # per host: chassis, memory, boot device
//   cpus: {intel-xeon-gold-6338: 2612}   # per socket
//   devices: {samsung-pm1733-3.84tb: 950}
//   nics: {broadcom-57508-100g: 2484}    # per card
//   switches: {dell-s5232f-on: {switch: 62475, cable: 360}}   # whole switch; one cable per port
//   licences: {per_core: 350, min_cores_per_socket: 16, per_tib_raw: 0}
// Every name must be a catalog name (a typo fails with the closest ones); amounts are
// 0..1e9 dollars. Errors name the file, line and key.
#pragma once

#include <string>

#include "hcisim/report/price_book.hpp"
#include "hcisim/scenario/hardware_catalog.hpp"

namespace hcisim {

PriceBook parse_price_file(const std::string& text, const std::string& source, const HardwareCatalog& catalog);
PriceBook load_price_file(const std::string& path, const HardwareCatalog& catalog);

}  // namespace hcisim
