// Where an I/O's time goes: its latency cut at the layers of vSAN's I/O stack that vSAN's own
// diagnostics name (the I/O Trip Analyzer; the vSAN Management API's VsanIOLatencyType:
// DOM owner, network, LSOM, and since 8.0 U1 their performance- and capacity-leg forms,
// [S246] [S247]), each layer's waiting included, so the parts of every I/O sum to its latency
// exactly. When a request fans out to several components (RAID-1 replicas, erasure-coded
// columns), the parts of the component that finished last are the ones the request waited
// for. docs/model.md, "Where the time goes", maps each part to vSAN's counter.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "hcisim/core/units.hpp"

namespace hcisim {

/// The parts, in path order.
enum class LatencyPart : std::uint8_t {
  guest_queue,     // in the guest, behind the virtual adapter's full queues (VmWorkload)
  dom_client,      // the client host's CPU: guest, vSCSI, DOM client, data services at the
                   // source, waiting for a core included (ESA: and for the object's DOM client
                   // world)
  admission,       // at the DOM client: the stack's fixed latency, the OSA congestion delay and
                   // waiting for room in a write buffer
  client_network,  // client -> owner and owner -> client (none when the owner is the client's host)
  dom_owner,       // the DOM owner's CPU (a remote owner's receive of the request included),
                   // waiting for a core included
  network,         // owner -> component host and back (ESA: the performance leg for writes,
                   // the capacity leg for reads)
  lsom,            // the component host's work: OSA's LSOM in its disk group's world (waiting
                   // behind destage batches included), ESA's on a core
  device,          // the device's queue and service (OSA dedupe: the map lookup read before it)
};
inline constexpr std::size_t kLatencyParts = 8;
using LatencyParts = std::array<Time, kLatencyParts>;

constexpr std::size_t part_index(LatencyPart p) { return static_cast<std::size_t>(p); }

/// "guest_queue", "dom_client", "admission", "client_network", "dom_owner", "network", "lsom",
/// "device".
const char* latency_part_name(LatencyPart p);
/// The same by position in LatencyParts (0 .. kLatencyParts - 1).
inline const char* latency_part_name(std::size_t i) { return latency_part_name(static_cast<LatencyPart>(i)); }

/// The part as the text report labels it ("DOM client", "client-owner network", ...).
const char* latency_part_label(LatencyPart p);
inline const char* latency_part_label(std::size_t i) { return latency_part_label(static_cast<LatencyPart>(i)); }

/// Which of vSAN's VsanIOLatencyType counters an I/O's parts fall under ([S246]): none before
/// the type exists (vSAN 7.0 U3), one network and one LSOM counter (OSA, and ESA on 8.0), or
/// from 8.0 U1 on ESA the performance leg's (a write through the durable log) or the capacity
/// leg's (a read, or a write on the large-I/O path).
enum class VsanCounters : std::uint8_t { none, one_leg, performance_leg, capacity_leg };

/// The counter a part belongs to, or "" for the parts above the DOM owner that vSAN's counters
/// do not name on their own (the guest's queue, the DOM client, the client-owner hop: the trip
/// analyzer's VM, vSCSI and DOM client layers, the VM's latency less the owner's).
const char* vsan_layer_name(LatencyPart p, VsanCounters counters);

/// The parts at and below the DOM owner: what vSAN's performance service reports as the
/// backend latency of an object (dom_owner + network + lsom + device).
constexpr bool is_backend(LatencyPart p) {
  return p == LatencyPart::dom_owner || p == LatencyPart::network || p == LatencyPart::lsom || p == LatencyPart::device;
}

}  // namespace hcisim
