// What is inside a NAND SSD (data/flash.csv): channels and dies, the NAND's read, program and
// erase times in native and pseudo-SLC mode, the flash translation layer's map cache, the
// pSLC write cache and the spare area. MQSim (Tavakkol et al., FAST 2018 [S112]) is the reference for
// which of these decide a drive's behaviour; each catalog row cites its figures.
#pragma once

#include <string>

namespace hcisim {

enum class FtlMap { dram, hmb, sram };   // where the logical-to-physical map is cached

struct FlashSpec {
  std::string cell = "tlc";      // slc | mlc | tlc | qlc
  int channels = 0;              // NAND channels of the controller
  double die_gbit = 0;           // density of one die
  int planes = 0;                // planes per die (a multi-plane operation serves all)
  double page_kib = 0;           // page size
  double block_mib = 0;          // erase block size (per plane, native mode)
  double read_us = 0;            // tR, native mode
  double program_us = 0;         // tPROG of one (multi-plane, one-shot) native program
  double erase_us = 0;           // tBERS
  double slc_read_us = 0;        // tR in pSLC mode
  double slc_program_us = 0;     // tPROG in pSLC mode
  double channel_mbps = 0;       // NAND interface rate per channel (MT/s x 1 byte)
  double spare_pct = 0;          // raw NAND beyond the user capacity, % of user capacity
  FtlMap map = FtlMap::dram;
  double map_cache_mb = 0;       // hmb / sram: map bytes cached (4 bytes per 4 KiB mapped)
  double map_miss_us = 0;        // controller time to load a missing map entry (firmware, serial)
  int controller_cores = 1;      // firmware cores that handle map misses
  double pslc_cache_gb = 0;      // pSLC write cache on an empty drive (0: none)
  double write_buffer_mb = 0;    // controller buffer that acknowledges writes before programs
  double controller_us = 0;      // controller and interface latency of a command (NVMe, ECC)

  int bits_per_cell() const;
  /// Throws InvalidArgument naming the device and the first figure outside its range.
  void validate(const std::string& device) const;
};

}  // namespace hcisim
