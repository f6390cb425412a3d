// Validation of device and connection figures: every figure the model uses must be a
// finite positive number inside physical bounds; the message names the device and the field.
#include "hcisim/hw/device_spec.hpp"

#include <cstdio>

#include "hcisim/core/check.hpp"

namespace hcisim {

namespace {
// A positive, finite figure inside physical bounds (far wider than any real device, but
// narrow enough that service times stay representable in nanoseconds).
void require(const std::string& device, const char* field, double v, double lo, double hi) {
  check::positive(v, "device '" + device + "' " + field);
  if (!(v >= lo && v <= hi)) {
    char allowed[64];
    std::snprintf(allowed, sizeof allowed, "%g .. %g", lo, hi);
    check::fail("device '" + device + "' " + field, v, allowed);
  }
}
}  // namespace

void DeviceSpec::validate() const {
  require(name, "capacity_gb", capacity_gb, 1, 1e6);
  require(name, "seq_read_mbps", seq_read_mbps, 1, 1e5);
  require(name, "seq_write_mbps", seq_write_mbps, 1, 1e5);
  if (kind == DeviceKind::ssd) {
    require(name, "read_iops_4k", read_iops_4k, 10, 1e8);
    require(name, "write_iops_4k", write_iops_4k, 10, 1e8);
    require(name, "read_latency_us", read_latency_us, 0.1, 1e6);
    require(name, "write_latency_us", write_latency_us, 0.1, 1e6);
  } else {
    require(name, "rpm", rpm, 1000, 30000);
    check::non_negative(seek_ms, "device '" + name + "' seek_ms");
    if (seek_ms > 100) check::fail("device '" + name + "' seek_ms", seek_ms, "0 .. 100");
  }
  if (flash) {
    if (kind != DeviceKind::ssd) check::fail("device '" + name + "' flash", "an hdd", "NAND internals for an ssd only");
    flash->validate(name);
  }
  if (interface != "nvme" && interface != "sas" && interface != "sata" && interface != "usb-nvme")
    check::fail("device '" + name + "' interface", interface, "one of nvme, sas, sata, usb-nvme");
}

void ConnectionSpec::validate() const {
  // Times per command, us: each a finite number in 0 .. 1e6.
  for (const auto& [value, key] : {std::pair{added_latency_us, "added_latency_us"}, std::pair{read_protocol_us, "read_protocol_us"},
                                   std::pair{write_protocol_us, "write_protocol_us"}}) {
    check::non_negative(value, "connection '" + name + "' " + key);
    if (value > 1e6) check::fail("connection '" + name + "' " + key, value, "0 .. 1e6");
  }
  check::non_negative(max_mbps, "connection '" + name + "' max_mbps");
  if (max_mbps > 0 && !(max_mbps >= 1 && max_mbps <= 1e6))
    check::fail("connection '" + name + "' max_mbps", max_mbps, "0 (no cap) or 1 .. 1e6");
  if (commands < 0 || commands > 65536)
    check::fail("connection '" + name + "' commands", commands, "0 (no limit) or 1 .. 65536");
}

}  // namespace hcisim
