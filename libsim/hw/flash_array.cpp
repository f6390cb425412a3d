// NAND back end of an SSD (equations and sources in flash_array.hpp).
#include "hcisim/model/hw/flash_array.hpp"

#include <algorithm>
#include <cmath>

#include "hcisim/core/check.hpp"

namespace hcisim {

namespace {
constexpr double kMapEntryBytes = 4.0;      // one 32-bit physical address per 4 KiB (Sabrent, "mapping")
constexpr double kMappedUnit = 4096.0;
constexpr double kPslcGoneAtFill = 0.5;     // dynamic pSLC: none left at half full (TechPowerUp NM620)
}  // namespace

FlashArray::FlashArray(const FlashSpec& spec, double capacity_gb, double read_overhead_us, double write_ack_us)
    : spec_(spec),
      capacity_bytes_(capacity_gb * 1e9),
      read_overhead_ns_(read_overhead_us * 1e3),
      write_ack_ns_(write_ack_us * 1e3),
      page_bytes_(spec.page_kib * 1024.0),
      native_op_bytes_(spec.page_kib * 1024.0 * spec.planes * spec.bits_per_cell()),
      pslc_op_bytes_(spec.page_kib * 1024.0 * spec.planes),
      block_bytes_(spec.block_mib * 1048576.0 * spec.planes),
      channel_ns_per_byte_(1e3 / spec.channel_mbps),
      map_covered_bytes_(spec.map == FtlMap::dram ? 0.0 : spec.map_cache_mb * 1e6 / kMapEntryBytes * kMappedUnit) {
  const double raw_bits = capacity_bytes_ * (1.0 + spec.spare_pct / 100.0) * 8.0;
  // Die densities are binary (a 512 Gb die holds 512 x 2^30 bits).
  const auto dies = static_cast<std::size_t>(std::max(1.0, std::round(raw_bits / (spec.die_gbit * 1073741824.0))));
  die_free_.assign(dies, Time::zero());
  die_programmed_.assign(dies, 0.0);
  channel_free_.assign(static_cast<std::size_t>(spec.channels), Time::zero());
  firmware_free_.assign(static_cast<std::size_t>(std::max(1, spec.controller_cores)), Time::zero());
  set_live(Bytes{static_cast<std::int64_t>(capacity_bytes_)}, Bytes{static_cast<std::int64_t>(capacity_bytes_)});
}

void FlashArray::set_live(Bytes live, Bytes span) {
  check::non_negative(static_cast<double>(live.count()), "flash live bytes");
  span_ = std::clamp(static_cast<double>(span.count()), 1.0, capacity_bytes_);
  live_ = std::min(static_cast<double>(live.count()), span_);
  pslc_data_ = 0;
  pslc_free_ = pslc_capacity();
}

double FlashArray::pslc_capacity() const {
  return spec_.pslc_cache_gb * 1e9 * std::max(0.0, 1.0 - live_ / (kPslcGoneAtFill * capacity_bytes_));
}

double FlashArray::native_program_rate() const {
  return static_cast<double>(die_free_.size()) * native_op_bytes_ / (spec_.program_us * 1e-6);
}
double FlashArray::pslc_program_rate() const {
  return static_cast<double>(die_free_.size()) * pslc_op_bytes_ / (spec_.slc_program_us * 1e-6);
}

double FlashArray::gc_write_amplification() const {
  // Greedy cleaning under uniform random writes, rho = spare / live (Agarwal et al., as cited
  // by Xiang & Kurkoski, arXiv:1110.4245 [S115]): WA = (1 + rho) / (2 rho), at least 1.
  const double physical = capacity_bytes_ * (1.0 + spec_.spare_pct / 100.0);
  const double rho = (physical - live_) / std::max(live_, 1.0);
  return rho >= 1.0 ? 1.0 : (1.0 + rho) / (2.0 * rho);
}

double FlashArray::map_miss_probability() const {
  if (spec_.map == FtlMap::dram) return 0.0;
  return std::max(0.0, 1.0 - map_covered_bytes_ / span_);
}

// One die operation of `us` arriving at `arrival`, with `channel_bytes` over the die's channel.
// Every reservation is made on arrival, in time order, so neither a die nor a channel is
// ever booked ahead of an earlier arrival. A program's data goes in over the channel before
// the program; a read's comes out after it: the channel slot is booked on arrival, and the
// read ends no earlier than its die's read plus the transfer.
Time FlashArray::die_op(std::size_t die, Time arrival, double us, double channel_bytes, bool read) {
  Time ready = arrival;
  Time xfer = Time::zero();
  if (channel_bytes > 0) {
    Time& ch = channel_free_[die % channel_free_.size()];
    xfer = Time::round_ns(channel_bytes * channel_ns_per_byte_);
    ch = std::max(arrival, ch) + xfer;
    ready = ch;
  }
  if (us <= 0) return ready;
  Time& free = die_free_[die];
  const Time op = Time::round_ns(us * 1e3);
  if (read) {
    free = std::max(arrival, free) + op;
    busy_ += op;
    idle_since_ = std::max(idle_since_, free);
    return std::max(ready, free + xfer);
  }
  free = std::max(ready, free) + op;
  busy_ += op;
  idle_since_ = std::max(idle_since_, free);   // every die free by then (die times only grow)
  return free;
}

// One map miss on the first free firmware core: the map page's NAND read (its die time
// reserved on arrival; the core waits tR and the page's transfer) and the firmware's own time.
// Returns when the map entry is known.
Time FlashArray::firmware_miss(Time now, RngStream& rng) {
  const Time page_read = die_op(rng.below(die_free_.size()), now, spec_.read_us, page_bytes_, true);
  auto core = std::min_element(firmware_free_.begin(), firmware_free_.end());
  const Time work = Time::round_ns((spec_.read_us + spec_.map_miss_us) * 1e3 + page_bytes_ * channel_ns_per_byte_);
  // The core waits for the page however long its die is busy, then does its own work.
  *core = std::max(std::max(now, *core) + work, page_read + Time::round_ns(spec_.map_miss_us * 1e3));
  firmware_busy_ += work;
  return *core;
}

// Idle dies fold pSLC data into native cells at the native program rate.
void FlashArray::fold_idle(Time now) {
  if (pslc_data_ <= 0 || now <= idle_since_) return;
  const double moved = std::min(pslc_data_, (now - idle_since_).seconds() * native_program_rate());
  pslc_data_ -= moved;
  pslc_free_ = std::min(std::max(0.0, pslc_capacity() - pslc_data_), pslc_free_ + moved);
  idle_since_ = now;
}

Time FlashArray::read(Time now, Bytes size, bool sequential, RngStream& rng) {
  fold_idle(now);
  const double bytes = static_cast<double>(size.count());
  // A map entry not cached: a firmware core loads its map page and waits for it (one more
  // NAND read: AnandTech, Toshiba RC100 review, a DRAM-less drive's worst case is two flash
  // reads per host read), then updates its cache; the core serves one miss at a time.
  const bool miss = !sequential && spec_.map != FtlMap::dram && rng.uniform01() < map_miss_probability();
  Time map_ready = now;
  if (miss) {
    map_ready = firmware_miss(now, rng);
  }
  // Data pages on consecutive dies from a random one; pages still in pSLC blocks read faster.
  const auto pages = static_cast<std::size_t>(std::max(1.0, std::ceil(bytes / page_bytes_)));
  const double slc_share = live_ > 0 ? std::min(1.0, pslc_data_ / live_) : 0.0;
  const double tr = slc_share > 0 && rng.uniform01() < slc_share ? spec_.slc_read_us : spec_.read_us;
  std::size_t die = rng.below(die_free_.size());
  // The data read follows the map (its die is reserved on arrival, so it also waits for the
  // die's queue; whichever ends later decides).
  Time done = miss ? map_ready + Time::round_ns(tr * 1e3 + std::min(bytes, page_bytes_) * channel_ns_per_byte_) : now;
  double left = bytes;
  for (std::size_t p = 0; p < pages; ++p) {
    const double chunk = std::min(left, page_bytes_);
    left -= chunk;
    done = std::max(done, die_op(die, now, tr, chunk, true));
    die = (die + 1) % die_free_.size();
  }
  idle_since_ = std::max(idle_since_, done);   // reads keep the dies from folding too
  return done + Time::round_ns(read_overhead_ns_);
}

// Buffers `bytes` for programming and reserves every complete program unit on the next die.
void FlashArray::program(Time now, double bytes, bool pslc, bool fold_too) {
  double& pending = pslc ? pending_pslc_ : pending_native_;
  const double unit = pslc ? pslc_op_bytes_ : native_op_bytes_;
  double us = pslc ? spec_.slc_program_us : spec_.program_us;
  if (fold_too) us += spec_.program_us * pslc_op_bytes_ / native_op_bytes_;   // folded at once
  pending += bytes;
  while (pending >= unit) {
    pending -= unit;
    const std::size_t die = next_die_;
    next_die_ = (next_die_ + 1) % die_free_.size();
    Time end = die_op(die, now, us, unit, false);    // data in over the channel, then the program
    die_programmed_[die] += pslc ? unit * spec_.bits_per_cell() : unit;   // pSLC uses native blocks at 1 bit
    if (die_programmed_[die] >= block_bytes_) {      // a block's worth: erase one
      die_programmed_[die] -= block_bytes_;
      end = die_op(die, end, spec_.erase_us, 0.0, false);
    }
    last_program_end_ = std::max(last_program_end_, end);
  }
}

Time FlashArray::write(Time now, Bytes size, bool sequential, RngStream& rng) {
  fold_idle(now);
  const double bytes = static_cast<double>(size.count());
  // A map miss costs firmware time here too (the buffered write waits for none of it, but
  // reads queue behind it); new data grows the live data up to the span.
  Time mapped = now;
  if (!sequential && spec_.map != FtlMap::dram && rng.uniform01() < map_miss_probability()) mapped = firmware_miss(now, rng);
  if (live_ < span_) {
    live_ = std::min(span_, live_ + bytes);
    pslc_free_ = std::min(pslc_free_, std::max(0.0, pslc_capacity() - pslc_data_));   // the cache shrinks as the drive fills
  }
  const double amplified = bytes * (sequential ? 1.0 : gc_write_amplification());
  const bool past_half = live_ >= kPslcGoneAtFill * capacity_bytes_;
  double window_rate;
  if (!past_half && spec_.pslc_cache_gb > 0 && pslc_free_ >= bytes) {
    pslc_free_ -= bytes;
    pslc_data_ += bytes;
    program(now, amplified, true, false);
    window_rate = pslc_program_rate();
  } else if (past_half && spec_.pslc_cache_gb > 0) {
    // Through a small SLC area and folded at once; pSLC data still waiting from the cache's
    // time is folded alongside, a byte per byte written, to free the blocks it holds.
    program(now, amplified, true, true);
    const double debt = std::min(pslc_data_, bytes);
    if (debt > 0) {
      pslc_data_ -= debt;
      program(now, debt, false, false);
    }
    window_rate = 1.0 / (1.0 / pslc_program_rate() + 1.0 / native_program_rate());
  } else {
    program(now, amplified, false, false);
    window_rate = native_program_rate();
  }
  // Acknowledged from the buffer unless the program backlog exceeds what the buffer holds.
  const Time window = Time::round_ns(spec_.write_buffer_mb * 1e6 / window_rate * 1e9);
  // A write whose map entry missed is acknowledged once the firmware has it.
  const Time ack = std::max(now + Time::round_ns(write_ack_ns_), mapped);
  return std::max(ack, last_program_end_ - window);
}

double FlashArray::utilisation(Time now) const {
  const double elapsed = (now - since_).seconds();
  if (!(elapsed > 0)) return 0.0;
  const double dies = busy_.seconds() / (elapsed * static_cast<double>(die_free_.size()));
  const double fw = firmware_busy_.seconds() / (elapsed * static_cast<double>(firmware_free_.size()));
  return std::clamp(std::max(dies, fw), 0.0, 1.0);
}

int FlashArray::busiest_servers(Time now) const {
  const double elapsed = (now - since_).seconds();
  if (!(elapsed > 0)) return dies();
  const double dies_busy = busy_.seconds() / (elapsed * static_cast<double>(die_free_.size()));
  const double fw_busy = firmware_busy_.seconds() / (elapsed * static_cast<double>(firmware_free_.size()));
  return fw_busy > dies_busy ? static_cast<int>(firmware_free_.size()) : dies();
}

void FlashArray::reset_stats(Time now) {
  busy_ = Time::zero();
  firmware_busy_ = Time::zero();
  since_ = now;
}

}  // namespace hcisim
