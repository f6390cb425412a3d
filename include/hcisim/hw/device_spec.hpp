// What a storage device is, in datasheet terms: the figures a vendor publishes (4K random
// IOPS, QD1 latency, sequential MB/s; rpm and seek for disks) plus the connection between
// host and device. Everything the device model does is derived from these.
//
// What is inside a NAND SSD (data/flash.csv): channels and dies, the NAND's read, program and
// erase times in native and pseudo-SLC mode, the flash translation layer's map cache, the
// pSLC write cache and the spare area. MQSim (Tavakkol et al., FAST 2018 [S112]) is the reference for
// which of these decide a drive's behaviour; each catalog row cites its figures.
#pragma once

#include <optional>
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

enum class DeviceKind { ssd, hdd };

struct DeviceSpec {
  std::string name;                 // catalog name, e.g. "optane-p4800x-750gb", or "inline"
  DeviceKind kind = DeviceKind::ssd;
  std::string interface = "nvme";   // nvme | sas | sata | usb-nvme
  double capacity_gb = 0;           // decimal GB
  // SSD: datasheet 4K random IOPS at a deep queue, typical QD1 4K latency, sequential MB/s.
  double read_iops_4k = 0;
  double write_iops_4k = 0;
  double read_latency_us = 0;
  double write_latency_us = 0;
  double seq_read_mbps = 0;         // decimal MB/s
  double seq_write_mbps = 0;
  // HDD: spindle speed, average seek, sustained transfer (seq_read/write_mbps).
  double rpm = 0;
  double seek_ms = 0;
  std::string source;               // where the figures come from
  // NAND internals (data/flash.csv). With them an SSD is modelled die by die (flash_array.hpp);
  // without them, by the datasheet figures alone (storage_device.hpp). Optane and enterprise
  // drives with DRAM keep the datasheet model, which is what their datasheets show.
  std::optional<FlashSpec> flash;

  /// Throws InvalidArgument naming the device and the first zero, negative or
  /// non-finite figure the model needs.
  void validate() const;
};

/// The path between host and device: a fixed added latency per I/O, a bandwidth cap
/// (e.g. a USB 3.1 Gen2 bridge in front of an NVMe drive; max_mbps = 0 means no cap) and the
/// commands it accepts at once. `commands` = 0: no limit (NVMe, SAS, SATA NCQ and USB
/// Attached SCSI queue commands); n > 0: at most n in flight, each holding its place from
/// submission to completion (its added latency, transfer and device service included). USB
/// Bulk-Only Transport takes one: the device finishes a command before it accepts the next
/// (Electronic Design, "What's the difference between USB UASP and BOT"). `read_protocol_us`
/// and `write_protocol_us` are what the transport's protocol adds to each command of that
/// direction beyond `added_latency_us`: a queue-depth-1 loop through a Bulk-Only enclosure
/// measured slower than through a UAS one on the same host (connections.csv usb-bot-nvme).
struct ConnectionSpec {
  std::string name = "nvme-direct";
  double added_latency_us = 0;
  double read_protocol_us = 0;
  double write_protocol_us = 0;
  double max_mbps = 0;
  int commands = 0;
  std::string source;

  void validate() const;
};

}  // namespace hcisim
