// A closed loop over one storage device for the device tests: `qd` I/Os outstanding, each
// completion immediately issues the next; mean latency, IOPS and MB/s over a window.
#pragma once

#include <cstdint>
#include <vector>

#include "hcisim/model/core/engine.hpp"
#include "hcisim/model/hw/storage_device.hpp"

namespace hcisim::test {

using namespace hcisim::literals;

struct LoopResult {
  double iops;
  double mean_latency_us;
  double mbps;
};

// Closed loop: `qd` I/Os outstanding, each completion immediately issues the next.
struct ClosedLoop final : DeviceClient {
  Engine engine;
  StorageDevice device;
  IoOp op;
  Bytes size;
  bool sequential;
  std::uint32_t extents = 1;
  // Background writers: this many more I/Os outstanding, of `background_size` bytes, that
  // are not measured (a write load next to the measured loop).
  int background = 0;
  Bytes background_size{0};
  bool background_sequential = false;
  std::size_t measured_slots = 0;
  std::vector<Time> issued;
  std::uint64_t done = 0;
  double latency_sum_ns = 0;
  bool measuring = false;

  ClosedLoop(const DeviceSpec& spec, const ConnectionSpec& conn, IoOp o, Bytes b, bool seq)
      : device(engine, spec, conn, 7, "dev", *this), op(o), size(b), sequential(seq) {}

  void issue(std::uint64_t slot) {
    issued[slot] = engine.now();
    if (slot >= measured_slots) device.submit(slot, IoOp::write, background_size, background_sequential);
    else device.submit(slot, op, size, sequential, extents);
  }
  void on_io_complete(StorageDevice&, std::uint64_t slot) override {
    if (measuring && slot < measured_slots) {
      ++done;
      latency_sum_ns += static_cast<double>((engine.now() - issued[slot]).count_ns());
    }
    issue(slot);
  }
  LoopResult run(int qd, std::uint64_t ios) {
    measured_slots = static_cast<std::size_t>(qd);
    issued.assign(static_cast<std::size_t>(qd + background), Time::zero());
    for (int i = 0; i < qd + background; ++i) issue(static_cast<std::uint64_t>(i));
    // Warm up for ~ios/10 I/Os, then measure for a window holding ~ios I/Os.
    std::uint64_t warm = 0;
    while (device.completed() < ios / 10 + static_cast<std::uint64_t>(qd)) {
      engine.run_for(100_us);
      if (++warm > 10'000'000) break;
    }
    measuring = true;
    const Time start = engine.now();
    while (done < ios) engine.run_for(100_us);
    const double secs = (engine.now() - start).seconds();
    return {static_cast<double>(done) / secs, latency_sum_ns / static_cast<double>(done) * 1e-3,
            static_cast<double>(done) * static_cast<double>(size.count()) / secs * 1e-6};
  }
};

inline LoopResult closed_loop(const DeviceSpec& spec, IoOp op, Bytes size, int qd, bool seq = false,
                       const ConnectionSpec& conn = ConnectionSpec{}, std::uint64_t ios = 20'000) {
  ClosedLoop loop(spec, conn, op, size, seq);
  return loop.run(qd, ios);
}


}  // namespace hcisim::test
