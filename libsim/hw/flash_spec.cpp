// Validation of a NAND SSD's internals (FlashSpec, hw/device_spec.hpp): every figure inside a physical range,
// the message naming the device and the field.
#include "hcisim/hw/device_spec.hpp"

#include <cstdio>

#include "hcisim/core/check.hpp"

namespace hcisim {

int FlashSpec::bits_per_cell() const {
  if (cell == "slc") return 1;
  if (cell == "mlc") return 2;
  if (cell == "tlc") return 3;
  if (cell == "qlc") return 4;
  return 0;
}

namespace {
void within(const std::string& device, const char* field, double v, double lo, double hi) {
  if (!(v >= lo && v <= hi)) {
    char allowed[64];
    std::snprintf(allowed, sizeof allowed, "%g .. %g", lo, hi);
    check::fail("flash of device '" + device + "' " + field, v, allowed);
  }
}
}  // namespace

void FlashSpec::validate(const std::string& device) const {
  if (bits_per_cell() == 0) check::fail("flash of device '" + device + "' cell", cell, "one of slc, mlc, tlc, qlc");
  within(device, "channels", channels, 1, 32);
  within(device, "die_gbit", die_gbit, 8, 4096);
  within(device, "planes", planes, 1, 16);
  within(device, "page_kib", page_kib, 2, 64);
  within(device, "block_mib", block_mib, 0.5, 256);
  within(device, "read_us", read_us, 1, 1000);
  within(device, "program_us", program_us, 10, 20000);
  within(device, "erase_us", erase_us, 100, 50000);
  within(device, "slc_read_us", slc_read_us, 1, 1000);
  within(device, "slc_program_us", slc_program_us, 10, 20000);
  within(device, "channel_mbps", channel_mbps, 10, 10000);
  within(device, "spare_pct", spare_pct, 0, 100);
  within(device, "map_cache_mb", map_cache_mb, 0, 65536);
  within(device, "map_miss_us", map_miss_us, 0, 10000);
  within(device, "controller_cores", controller_cores, 1, 64);
  within(device, "pslc_cache_gb", pslc_cache_gb, 0, 100000);
  within(device, "write_buffer_mb", write_buffer_mb, 0, 65536);
  within(device, "controller_us", controller_us, 0, 1000);
  if (map != FtlMap::dram && map_cache_mb <= 0)
    check::fail("flash of device '" + device + "' map_cache_mb", map_cache_mb, "> 0 for a DRAM-less (hmb, sram) map");
}

}  // namespace hcisim
