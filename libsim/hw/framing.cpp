// Ethernet frame arithmetic (see hw/network_spec.hpp for the header sizes and their sources).
#include "hcisim/hw/network_spec.hpp"

#include "hcisim/core/check.hpp"

namespace hcisim {

namespace {
constexpr std::int64_t kTcpHeaders = 20 + 20 + 12;   // IPv4 + TCP + timestamps
constexpr std::int64_t kRoceHeaders = 20 + 8 + 12 + 4;   // IPv4 + UDP + BTH + ICRC
}  // namespace

void Framing::validate() const { check::in_range(mtu, 576, 9216, "network mtu"); }

std::int64_t Framing::payload_per_frame() const {
  if (transport == Transport::tcp) return mtu - kTcpHeaders;
  std::int64_t path_mtu = 4096;
  while (path_mtu > 256 && path_mtu > mtu - kRoceHeaders) path_mtu /= 2;
  return path_mtu;
}

std::int64_t Framing::wire_per_frame() const {
  const std::int64_t headers = transport == Transport::tcp ? kTcpHeaders : kRoceHeaders;
  return payload_per_frame() + headers + kEthernetOverhead;
}

Bytes Framing::wire_bytes(Bytes payload) const {
  return Bytes{framed_wire_bytes(payload.count(), payload_per_frame(), wire_per_frame())};
}

double Framing::goodput_fraction() const {
  return static_cast<double>(payload_per_frame()) / static_cast<double>(wire_per_frame());
}

}  // namespace hcisim
