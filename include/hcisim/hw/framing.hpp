// Ethernet framing: how many wire bytes a payload costs, so goodput sits below line rate.
//
// Per frame on the wire, outside the MTU: preamble + SFD 8 B, MAC header 14 B, FCS 4 B and
// the minimum inter-frame gap 12 B = 38 B (IEEE 802.3 clause 3-4).
// Inside the MTU, per transport:
//   tcp : IPv4 header 20 B + TCP header 20 B + timestamp option 12 B (Linux/ESXi default,
//         RFC 7323 [S149]) = 52 B, so MSS = MTU - 52 payload bytes per frame;
//   rdma: RoCE v2 = IPv4 20 + UDP 8 + InfiniBand BTH 12 + ICRC 4 = 44 B; the RDMA path MTU
//         is the largest of 256/512/1024/2048/4096 B that fits MTU - 44 (IBTA spec).
// Goodput fraction = payload per frame / (MTU-payload headers + payload + 38). Worked out:
//   tcp  MTU 1500: 1448 / 1538 = 94.15 %;   MTU 9000: 8948 / 9038 = 99.00 %
//   rdma MTU 1500: 1024 / 1106 = 92.59 %;   MTU 9000: 4096 / 4178 = 98.04 %
// A 10 GbE port therefore carries at most 10e9/8 x 0.9415 = 1176.9 MB/s of TCP payload
// at MTU 1500.
#pragma once

#include <cstdint>

#include "hcisim/core/units.hpp"

namespace hcisim {

enum class Transport : std::uint8_t { tcp, rdma };

/// Wire bytes of a message of `payload` bytes cut into frames that carry
/// `payload_per_frame` bytes and cost `wire_per_frame` on the wire when full (at least one
/// frame, even for 0 bytes).
constexpr std::int64_t framed_wire_bytes(std::int64_t payload, std::int64_t payload_per_frame,
                                         std::int64_t wire_per_frame) {
  const std::int64_t frames = payload <= 0 ? 1 : (payload + payload_per_frame - 1) / payload_per_frame;
  return payload + frames * (wire_per_frame - payload_per_frame);
}

struct Framing {
  int mtu = 1500;                   // bytes, IP MTU of the vSAN vmknic (1500 or 9000)
  Transport transport = Transport::tcp;

  static constexpr std::int64_t kEthernetOverhead = 38;   // preamble+SFD, MAC, FCS, IFG

  /// Throws InvalidArgument unless 576 <= mtu <= 9216.
  void validate() const;
  /// Payload bytes carried by one full frame.
  std::int64_t payload_per_frame() const;
  /// Wire bytes of one full frame (payload + all headers + preamble + gap).
  std::int64_t wire_per_frame() const;
  /// Wire bytes of a message of `payload` bytes (at least one frame, even for 0 bytes).
  Bytes wire_bytes(Bytes payload) const;
  /// payload_per_frame / wire_per_frame.
  double goodput_fraction() const;
};

}  // namespace hcisim
