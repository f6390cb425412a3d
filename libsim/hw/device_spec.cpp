// Validation of device and connection figures: every figure the model uses must be a
// finite positive number; the message names the device and the field.
#include "hcisim/hw/device_spec.hpp"

#include "hcisim/core/check.hpp"

namespace hcisim {

namespace {
void require_positive(const std::string& device, const char* field, double v) {
  check::positive(v, "device '" + device + "' " + field);
}
}  // namespace

void DeviceSpec::validate() const {
  require_positive(name, "capacity_gb", capacity_gb);
  require_positive(name, "seq_read_mbps", seq_read_mbps);
  require_positive(name, "seq_write_mbps", seq_write_mbps);
  if (kind == DeviceKind::ssd) {
    require_positive(name, "read_iops_4k", read_iops_4k);
    require_positive(name, "write_iops_4k", write_iops_4k);
    require_positive(name, "read_latency_us", read_latency_us);
    require_positive(name, "write_latency_us", write_latency_us);
  } else {
    require_positive(name, "rpm", rpm);
    check::non_negative(seek_ms, "device '" + name + "' seek_ms");
  }
  if (interface != "nvme" && interface != "sas" && interface != "sata" && interface != "usb-nvme")
    check::fail("device '" + name + "' interface", interface, "one of nvme, sas, sata, usb-nvme");
}

void ConnectionSpec::validate() const {
  check::non_negative(added_latency_us, "connection '" + name + "' added_latency_us");
  check::non_negative(max_mbps, "connection '" + name + "' max_mbps");
}

}  // namespace hcisim
