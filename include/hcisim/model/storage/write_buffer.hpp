// The OSA write buffer of one disk group, as a fill level rather than a block map.
//
// vSAN keeps each written 4 KB block in the cache device until the elevator destages it;
// a rewrite of a block still buffered only replaces it (overwrites coalesce). Tracking
// every block would cost memory per written block, so the buffer is modelled by its dirty
// bytes D against the working set W the disk group serves (the sum of the address ranges of
// the components it holds), with uniform access inside W:
//   a write of b bytes lands on an already-dirty block with probability D/W, so it adds
//   b (1 - D/W) dirty bytes; a read finds its block in the buffer with probability D/W;
//   destage removes the bytes it wrote back.
// Fill f = D / capacity drives the elevator (destage above destage_start_fill) and the
// congestion controller: congestion = 255 (f - start) / (full - start), clamped to 0..255,
// and the delay injected at the DOM client = a * exp(b * congestion) ([S12]:
// the delay grows exponentially with congestion, applied at the DOM client).
// Writes that would overflow the buffer wait for destage to free space; none is dropped.
//
// Aging (time compression): a benchmark measures after a long warm-up (HCIBench: 1800 s), so
// the buffer has reached its steady fill. Simulating that hour is too slow, but the fill only
// depends on f = D / C and D / W, and dD/dt = ingest (1 - D/W) - destage. Counting every byte
// written or destaged `k` times is the same as shrinking C and W by k: the fill evolves k
// times faster while ingest and destage rates stay physical. A warm-up of T simulated
// seconds at k = H / T thus ages the buffer as H seconds would; k returns to 1 before the
// measurement window.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "hcisim/core/units.hpp"
#include "hcisim/storage/cluster_spec.hpp"

namespace hcisim {

class WriteBuffer {
 public:
  WriteBuffer() = default;
  WriteBuffer(Bytes capacity, const OsaSettings& settings);

  /// Counts each byte written or destaged `k` (>= 1) times (see "Aging" above). Returning
  /// to k = 1 puts a buffer whose elevator ran while aging back at the fill its elevator
  /// keeps: the destage threshold, or the idle fill when no write came (`idle`).
  void set_time_compression(double k, bool idle = false);
  double time_compression() const { return k_; }
  /// Sets the dirty bytes (clamped to 0..min(capacity, working set)).
  void set_dirty(double bytes);

  /// Adds `bytes` of address space that this disk group serves.
  void add_working_set(Bytes bytes) { working_set_ += static_cast<double>(bytes.count()); }

  /// A write of `bytes` now fits without exceeding the capacity.
  bool has_room(Bytes bytes) const { return dirty_ + k_ * static_cast<double>(bytes.count()) <= capacity_; }
  /// Accounts a write of `bytes` (after coalescing with dirty blocks) whose data is
  /// contiguous in runs of 1 / `runs_per_byte` bytes (a random write: its own size; a
  /// sequential stream: the whole stream, 0 runs per byte). Returns the bytes added.
  ///
  /// Coalescing depends on the pattern. A random write lands on a dirty block with
  /// probability D/W (uniform access). A sequential stream writes its region in order, round
  /// and round; the elevator takes the log's oldest entries first (ASSUMED: PLOG is a physical
  /// log; mean_extent's address order is within the batch it takes), so a stream's dirty
  /// blocks are the last ones it wrote, and its next block is dirty only once they cover its
  /// whole region. With the streams' dirty
  /// shares in proportion to their regions, that is once D reaches W: until then every
  /// sequential byte is fresh, however small W is against the buffer.
  double write(Bytes bytes, double runs_per_byte) {
    const double b = static_cast<double>(bytes.count());
    double fresh = b;
    if (working_set_ > 0)
      fresh = runs_per_byte > 0 ? b * std::max(0.0, 1.0 - dirty_ / working_set_)
                                : std::clamp((working_set_ - dirty_) / k_, 0.0, b);
    dirty_ = std::min(capacity_, dirty_ + k_ * fresh);
    if (track_runs_) {
      fresh_bytes_ += fresh;
      fresh_runs_ += fresh * runs_per_byte;
    }
    return fresh;
  }
  /// Accounts a write of blocks the buffer cannot hold yet (a resync copy into a new
  /// component): every byte is fresh, in one sequential run. Returns the bytes added.
  double write_new(Bytes bytes) {
    const double b = static_cast<double>(bytes.count());
    dirty_ = std::min(capacity_, dirty_ + k_ * b);
    if (track_runs_) fresh_bytes_ += b;
    return b;
  }
  /// Keep the run statistics behind mean_extent (hybrid disk groups; all-flash destage
  /// does not use them).
  void track_runs(bool on) { track_runs_ = on; }
  /// Mean length in bytes of a contiguous dirty extent, as the elevator finds it when it
  /// sorts the dirty blocks by address: runs of the mean written run length, merged with a
  /// neighbour that is dirty too. With dirty density rho = D/W over the working set, a run
  /// ends where the next block is clean (probability 1 - rho), so extents average
  /// run / (1 - rho) (geometric merging; capped at kStreamRun, longer than any batch).
  double mean_extent() const {
    const double run = fresh_runs_ > 0 ? fresh_bytes_ / fresh_runs_ : kStreamRun;
    const double rho = hit_probability();
    return rho >= 1.0 ? kStreamRun : std::min(kStreamRun, run / (1.0 - rho));
  }
  /// The contiguous extents a destage batch of `bytes` holds: bytes / mean_extent, at least
  /// one and at most one per 4 KiB block.
  double extents_in(double bytes) const {
    return std::clamp(std::ceil(bytes / mean_extent()), 1.0, std::max(1.0, std::ceil(bytes / 4096.0)));
  }
  /// A sequential stream's run: longer than any destage batch.
  static constexpr double kStreamRun = 1e12;
  /// Probability that a read finds its block still in the buffer.
  double hit_probability() const { return working_set_ > 0 ? std::min(1.0, dirty_ / working_set_) : 0.0; }
  /// Destage wrote `bytes` of dirty data back to capacity.
  void destaged(double bytes);

  double dirty() const { return dirty_; }
  double fill() const { return dirty_ / capacity_; }
  double capacity() const { return capacity_; }
  double working_set() const { return working_set_; }
  /// 0..255, vSAN's per-disk-group congestion scale.
  double congestion() const;
  /// Delay injected at the DOM client for a write to this disk group.
  Time congestion_delay() const;
  /// Whether the elevator should run: above destage_start_fill, or above destage_idle_fill
  /// when `idle` (no write arrived for OsaSettings::destage_idle_after).
  bool wants_destage(bool idle) const {
    return fill() > settings_.destage_start_fill || (idle && fill() > settings_.destage_idle_fill);
  }

 private:
  double capacity_ = 1;
  double working_set_ = 0;
  double dirty_ = 0;
  double k_ = 1;
  double fresh_bytes_ = 0;             // bytes written into clean blocks ...
  double fresh_runs_ = 0;              // ... and the contiguous runs they came in
  bool track_runs_ = false;
  bool destaged_while_aging_ = false;  // the elevator ran while k > 1 (set_time_compression)
  OsaSettings settings_;
};

}  // namespace hcisim
