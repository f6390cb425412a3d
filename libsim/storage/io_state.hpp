// The state of the I/O in flight inside a cluster (cluster_core.hpp), private to the
// storage layer: requests (one per unit-bounded part of a VM's I/O), component operations
// (one per device I/O a request or a background job makes), objects with their placement,
// device slots, and the tokens that name them in the engine's callbacks. State lives per
// outstanding request and per pending background batch, never per completed I/O.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "hcisim/core/units.hpp"
#include "hcisim/hw/cpu_spec.hpp"
#include "hcisim/model/hw/storage_device.hpp"
#include "hcisim/storage/latency_split.hpp"
#include "hcisim/model/storage/placement.hpp"

namespace hcisim::io {

inline constexpr std::uint32_t kNone = 0xffffffffu;
inline constexpr Time kNeverWritten = Time::ns(std::numeric_limits<std::int64_t>::min() / 2);
inline constexpr std::int64_t kBlock = 4096;   // vSAN's 4 KiB block (write buffer, dedupe map)

/// `bytes` / `divisor` (a reduction ratio), rounded.
inline std::int64_t scaled(std::int64_t bytes, double divisor) {
  return divisor == 1.0 ? bytes : static_cast<std::int64_t>(std::llround(static_cast<double>(bytes) / divisor));
}

/// What a callback token names: its top byte is the kind, the rest a slot index.
enum Kind : std::uint64_t {
  kClientCpu = 1, kOwnerCpu, kToOwner, kToClient, kSubOut, kSubBack, kSubCpu, kSubDevice, kGuestCpu,
};
inline constexpr std::uint64_t kIndexMask = (std::uint64_t{1} << 56) - 1;
inline std::uint64_t token(Kind kind, std::uint32_t index) { return (static_cast<std::uint64_t>(kind) << 56) | index; }

/// What a component operation is for. Foreground first, then the resync read (the other kind
/// whose data travels back to the requester), so each test is one comparison on the hot path.
enum class SubKind : std::uint8_t { foreground, resync_read, resync_write, destage_read, destage_reduce, destage_cpu, destage_write,
                                    stripe, fill };

struct DeviceSlot {
  std::unique_ptr<StorageDevice> device;
  int host = 0;
  int group = -1;              // OSA disk group (global index), -1 on ESA
  const char* role = "";
  double live_bytes = 0;       // data its components keep on it (after reduction)
};

struct Request {
  std::uint64_t token = 0;
  Time mark;                               // where the latency split last cut (latency_split.hpp)
  LatencyParts split{};
  std::uint64_t offset = 0;
  std::int64_t size = 0;
  std::uint32_t object = 0;
  std::uint32_t next_waiting = kNone;
  std::uint16_t client = 0;
  std::uint16_t pending = 0;
  IoOp op = IoOp::read;
  std::uint8_t phase = 0;                  // RMW: 0 = reads, 1 = writes
  bool cached = false;                     // read served by the client cache
  bool sequential = false;                 // continues its VMDK's stream (Cluster::submit)
  bool reconstruct = false;                // degraded RMW: phase 0 rebuilt the lost data column's
                                           // parity inputs; phase 1 keeps that plan
  float owner_share = 0;                   // owner on the client's host: the DOM owner's share of
                                           // the client's CPU job (the latency split's cut; ESA:
                                           // of the job before the DOM client world's)
};

/// A FIFO of requests threaded through Request::next_waiting, so waiting allocates nothing:
/// a disk group's writes waiting for buffer room (OSA), an object's requests waiting for one
/// of its DOM client worlds (ESA). A request waits in at most one.
struct WaitQueue {
  std::uint32_t head = kNone;
  std::uint32_t tail = kNone;
  bool empty() const { return head == kNone; }
  void push(std::vector<Request>& requests, std::uint32_t req) {
    requests[req].next_waiting = kNone;
    if (tail == kNone) head = req;
    else requests[tail].next_waiting = req;
    tail = req;
  }
  std::uint32_t pop(const std::vector<Request>& requests) {
    const std::uint32_t req = head;
    head = requests[req].next_waiting;
    if (head == kNone) tail = kNone;
    return req;
  }
};

struct Object {
  ObjectPlacement place;
  Bytes working_set;
  std::vector<std::uint32_t> groups;       // OSA: global disk group of each component, column-major
                                           // (column c, chunk h at c * place.chunks + h)
  double stripe_pending = 0;               // ESA: compressed bytes not yet in a full stripe
  GuestOs guest = GuestOs::linux_os;       // the OS of the VM whose disk it is (guest CPU)
  // ESA: the object's DOM client worlds (ClusterCore::client_worlds_): jobs on them, the
  // requests waiting for one, and the service time of their jobs since the last reset (not
  // the jobs' waits for a core).
  std::uint16_t client_busy = 0;
  std::uint16_t client_host = kNoHost;     // the host of the VM whose disk it is (its worlds'); kNoHost before its first I/O
  WaitQueue client_waiting;
  std::int64_t client_service_ns = 0;
  static constexpr std::uint16_t kNoHost = 0xffff;
};

struct SubOp {
  std::uint32_t parent = kNone;            // request, or disk group for destage
  std::uint32_t device = 0;
  std::int64_t device_bytes = 0;
  std::int64_t out_bytes = 0;              // from -> host
  std::int64_t back_bytes = 0;             // host -> from
  std::uint16_t from = 0;
  std::uint16_t host = 0;
  IoOp op = IoOp::read;
  SubKind kind = SubKind::foreground;
  bool sequential = false;
  bool lookup_first = false;               // OSA dedupe: a metadata read precedes the data read
  // Foreground: when it was sent, reached its host, left the CPU and left the device (its
  // request's latency split takes them from the operation that finishes last).
  Time sent, arrived, cpu_done, device_done;
};

// Resync (resync.cpp): one job per absent column, copied in pieces.
struct ResyncJob {
  std::uint32_t object = 0;
  std::uint16_t column = 0;
  std::uint16_t target = 0;                // the new host
  std::vector<ComponentPlace> place;       // the new component(s) of the column, by chunk
  std::int64_t total = 0, issued = 0, done = 0;   // column bytes
};
struct ResyncCopy {
  std::uint32_t job = 0;
  std::int64_t column_offset = 0;
  std::int64_t bytes = 0;
  int pending = 0;                         // source reads not yet arrived
};
struct ResyncHost {
  std::vector<std::uint32_t> queue;        // jobs rebuilding onto this host, in order
  std::size_t head = 0;
  int in_flight = 0;
  Time next_free = Time::zero();           // throttle: when the next copy may start
  bool pump_scheduled = false;
};

}  // namespace hcisim::io
