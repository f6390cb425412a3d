// What a cluster counted, in a form a report or a planning tool can hold without the
// simulator: exact operation and byte counts since the warm-up cut, and how far a resync got.
#pragma once

#include <cstdint>

namespace hcisim {

/// Exact operation counts since the last reset. Foreground = on an I/O's path; background
/// = destage (OSA), capacity-leg stripe writes (ESA) and hybrid read-cache fills.
struct IoCounters {
  std::uint64_t submitted = 0;
  std::uint64_t completed = 0;
  std::int64_t host_read_bytes = 0;      // issued by the VMs
  std::int64_t host_write_bytes = 0;
  std::int64_t large_write_bytes = 0;    // of those, ESA writes that took the large-I/O path
  std::uint64_t fg_device_reads = 0;
  std::uint64_t fg_device_writes = 0;
  std::int64_t fg_device_read_bytes = 0;
  std::int64_t fg_device_write_bytes = 0;
  std::uint64_t bg_device_reads = 0;
  std::uint64_t bg_device_writes = 0;
  std::int64_t bg_device_read_bytes = 0;
  std::int64_t bg_device_write_bytes = 0;
  std::int64_t fg_network_bytes = 0;     // payload between hosts
  std::int64_t bg_network_bytes = 0;
  std::uint64_t network_messages = 0;
  std::uint64_t waited_for_buffer = 0;   // writes that found a full write buffer
  std::uint64_t congestion_delays = 0;   // writes delayed by congestion
  std::uint64_t client_cache_hits = 0;   // reads served by the host's in-memory cache
  std::uint64_t destage_waits = 0;       // destage batches that waited for their group's LSOM world
  std::int64_t resync_bytes = 0;         // component bytes rebuilt (Cluster::start_resync)
};

/// A resync's progress (Cluster::start_resync).
struct ResyncStatus {
  int components = 0;          // absent components found by start_resync (every RAID-0
                               // component of an absent replica or column)
  int rebuilt = 0;             // of those, copied completely
  int stranded = 0;            // no host to rebuild them on: they stay absent
  std::int64_t total_bytes = 0;   // to copy (each component's written data: its share of
                                  // its object's working set)
  std::int64_t done_bytes = 0;
};

}  // namespace hcisim
