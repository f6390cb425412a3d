// Where an I/O's time goes: its latency cut at the stages of the path (cluster.hpp), each
// stage's waiting included, so the parts of every I/O sum to its latency exactly. When a
// request fans out to several components (RAID-1 replicas, erasure-coded columns), the parts
// of the component that finished last are the ones the request waited for.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "hcisim/core/units.hpp"

namespace hcisim {

/// The stages, in path order.
enum class LatencyPart : std::uint8_t {
  guest_queue,   // in the guest, behind the virtual adapter's full queues (VmWorkload)
  host_cpu,      // client and DOM owner CPU (guest, vSCSI, DOM client and owner, data services
                 // at the source), waiting for a core included
  admission,     // the stack's fixed latency, the OSA congestion delay and waiting for room in a
                 // write buffer
  network,       // client -> owner, owner -> component host and back, owner -> client
  component,     // the component host's LSOM/zDOM work: in its disk group's world (waiting
                 // behind destage batches included) or on a core
  device,        // the device's queue and service (OSA dedupe: the map lookup read before it)
};
inline constexpr std::size_t kLatencyParts = 6;
using LatencyParts = std::array<Time, kLatencyParts>;

constexpr std::size_t part_index(LatencyPart p) { return static_cast<std::size_t>(p); }

/// "guest_queue", "host_cpu", "admission", "network", "component", "device".
const char* latency_part_name(LatencyPart p);
/// The same by position in LatencyParts (0 .. kLatencyParts - 1).
inline const char* latency_part_name(std::size_t i) { return latency_part_name(static_cast<LatencyPart>(i)); }

}  // namespace hcisim
