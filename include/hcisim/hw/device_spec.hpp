// What a storage device is, in datasheet terms: the figures a vendor publishes (4K random
// IOPS, QD1 latency, sequential MB/s; rpm and seek for disks) plus the connection between
// host and device. Everything the device model does is derived from these.
#pragma once

#include <optional>
#include <string>

#include "hcisim/hw/flash_spec.hpp"

namespace hcisim {

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
