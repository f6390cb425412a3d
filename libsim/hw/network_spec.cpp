// Validation of NIC and switch figures: every figure must be finite and in range; the
// message names the part and the field.
#include "hcisim/hw/network_spec.hpp"

#include <cmath>

#include "hcisim/core/check.hpp"

namespace hcisim {

void validate_link_speed(double gbps, const std::string& what) {
  static constexpr double kSpeeds[] = {1, 2.5, 5, 10, 25, 40, 50, 100, 200, 400};
  for (double s : kSpeeds)
    if (gbps == s) return;
  check::fail(what, gbps, "a link speed in Gbit/s: one of 1, 2.5, 5, 10, 25, 40, 50, 100, 200, 400");
}

void NicSpec::validate() const {
  validate_link_speed(speed_gbps, "nic '" + name + "' speed_gbps");
  check::in_range(ports, 1, 8, "nic '" + name + "' ports");
  check::non_negative_at_most(latency_us, 1e6, "nic '" + name + "' latency_us");
  // 1 ms between interrupts is 1,000 a second, the floor of Intel's throttle settings (956).
  check::non_negative_at_most(rx_interrupt_us, 1000, "nic '" + name + "' rx_interrupt_us");
}

NicSpec NicSpec::generic(double speed_gbps) {
  NicSpec n;
  n.name = "generic-nic";
  n.speed_gbps = speed_gbps;
  n.ports = 2;
  n.latency_us = 5;
  n.rx_interrupt_us = 50;
  return n;
}

const char* SwitchSpec::default_name(double link_gbps) {
  if (link_gbps <= 10) return "dell-s4048-on";
  if (link_gbps <= 25) return "dell-s5248f-on";
  return "dell-s5232f-on";
}

void SwitchSpec::validate() const {
  validate_link_speed(port_speed_gbps, "switch '" + name + "' port_speed_gbps");
  check::in_range(ports, 2, 1024, "switch '" + name + "' ports");
  check::non_negative_at_most(latency_us, 1e6, "switch '" + name + "' latency_us");
  check::non_negative(buffer_mb, "switch '" + name + "' buffer_mb");
}

}  // namespace hcisim
