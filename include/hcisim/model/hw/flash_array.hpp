// The NAND back end of an SSD that has a data/flash.csv row: dies on channels, the flash
// translation layer's map cache and firmware, a pSLC write cache and garbage collection.
// Analytic reservation like FifoServers: every die, channel and firmware core keeps the time
// it is next free, so an I/O's completion is known on arrival and costs no extra event.
//
//   read   (map miss: a firmware core loads the map page, waiting for its tR and transfer,
//          then spends its own time; one miss per core at a time) -> wait for the die -> tR
//          -> channel transfer -> completion. Reads wait behind whatever the die has reserved, programs
//          and erases included (no program/erase suspend), which is the slow-read signature
//          of a drive under a write load.
//   write  acknowledged after the datasheet's QD1 write latency while the controller's buffer
//          has room; its bytes x write amplification are programmed in whole multi-plane
//          program units, round robin over the dies, each die erasing a block after every
//          block's worth of programs. The acknowledgement waits when the program backlog
//          exceeds what the buffer holds.
//   pSLC   writes go to a pseudo-SLC cache (one bit per cell, fast programs) while it has
//          room; idle time folds it into native cells at the native program rate. The cache
//          shrinks as the drive fills and is gone at half full; past half full every write
//          is programmed twice (SLC, then folded), the drop a full-drive fill shows.
//   GC     random writes are multiplied by greedy garbage collection's write amplification
//          (1 + rho) / (2 rho), rho = spare / live (Hu et al., SYSTOR 2009 [S114]); sequential
//          streams invalidate whole blocks and pay none.
//   map    DRAM-less drives cache the map in a host memory buffer or SRAM: 4-byte entries
//          for 4 KiB each, so 1 MB of map covers about 1 GB of LBAs; a random I/O over a larger
//          span misses with probability 1 - covered / span. Writes miss too, and a write is
//          acknowledged only once the firmware has its map entry.
#pragma once

#include <cstdint>
#include <vector>

#include "hcisim/model/core/rng.hpp"
#include "hcisim/core/units.hpp"
#include "hcisim/hw/device_spec.hpp"

namespace hcisim {

class FlashArray {
 public:
  /// `capacity_gb`: user capacity; `read_overhead_us` / `write_ack_us`: the controller's
  /// fixed latency for a read (on top of NAND and channel time) and for a buffered write.
  FlashArray(const FlashSpec& spec, double capacity_gb, double read_overhead_us, double write_ack_us);

  /// Completion time of a host read or write of `size` bytes arriving at `now` (before any
  /// connection latency). Arrivals come in nondecreasing time order.
  Time read(Time now, Bytes size, bool sequential, RngStream& rng);
  Time write(Time now, Bytes size, bool sequential, RngStream& rng);

  /// Live data on the drive and the span of addresses random I/O covers (a prepared drive:
  /// both the data placed on it). Writes beyond the live data grow it up to the span.
  void set_live(Bytes live, Bytes span);

  int dies() const { return static_cast<int>(die_free_.size()); }
  /// Mean fraction of dies busy (reads, programs, erases) and of firmware busy since reset.
  double utilisation(Time now) const;
  /// The servers behind utilisation(): the dies, or the firmware cores when those are busier
  /// (the analytic path takes the busier one as the device's station).
  int busiest_servers(Time now) const;
  void reset_stats(Time now);
  /// Write amplification random writes pay at the current fill.
  double gc_write_amplification() const;
  double map_miss_probability() const;
  Bytes pslc_free() const { return Bytes{static_cast<std::int64_t>(pslc_free_)}; }
  Bytes live() const { return Bytes{static_cast<std::int64_t>(live_)}; }
  /// Aggregate program rate in bytes/s of native-mode and pSLC-mode programs.
  double native_program_rate() const;
  double pslc_program_rate() const;

 private:
  Time die_op(std::size_t die, Time arrival, double us, double channel_bytes, bool read);
  Time firmware_miss(Time now, RngStream& rng);
  void fold_idle(Time now);
  void program(Time now, double bytes, bool pslc, bool fold_too);
  double pslc_capacity() const;

  FlashSpec spec_;
  double capacity_bytes_;
  double read_overhead_ns_;
  double write_ack_ns_;
  double page_bytes_;
  double native_op_bytes_;       // page x planes x bits: one native multi-plane program
  double pslc_op_bytes_;         // page x planes
  double block_bytes_;           // native bytes programmed per die between erases
  double channel_ns_per_byte_;
  double map_covered_bytes_;
  std::vector<Time> die_free_;
  std::vector<Time> channel_free_;
  std::vector<Time> firmware_free_;
  std::vector<double> die_programmed_;   // bytes since the die's last erase
  std::size_t next_die_ = 0;
  double pending_native_ = 0;    // bytes buffered for the next native program unit
  double pending_pslc_ = 0;
  Time last_program_end_;
  Time idle_since_;              // when every die became free (for folding)
  double live_ = 0;
  double span_ = 0;
  double pslc_free_ = 0;
  double pslc_data_ = 0;         // bytes in pSLC blocks awaiting folding
  Time busy_;                    // die time reserved since reset (programs, reads, erases)
  Time firmware_busy_;
  Time since_;
};

}  // namespace hcisim
