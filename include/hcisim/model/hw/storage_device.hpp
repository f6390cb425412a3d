// Service model of one storage device, driven only by its datasheet figures.
//
// SSD: k internal units (channels/dies/controller engines) serve I/Os FIFO; an I/O of b bytes
// holds a unit for s_op + b * k / BW_op (s_op only for random I/O: the per-command mapping
// and, for writes, garbage-collection cost that sequential streams avoid), then passes a
// fixed pipeline latency d_op that needs no unit. Chosen so that, at 4 KiB random:
//   saturated IOPS  k / (s_op + 4096 k / BW_op) = datasheet 4K IOPS  (when the bus allows it)
//   QD1 latency     d_op + k / IOPS_op          = datasheet QD1 latency
// and for large blocks throughput tends to BW_op (sequential MB/s). k = floor(min over
// read/write of IOPS x latency) -- Little's law on the datasheet's own figures -- so d >= 0.
// Where a datasheet's QD1 latency implies more IOPS than its sustained rating (1/latency >
// IOPS, e.g. NAND writes absorbed by a DRAM buffer), a steady closed loop at QD1 cannot beat
// the sustained rate: QD1 latency is then 1/IOPS.
// Reads and writes share the units, so mixed loads interfere (a write holds a unit
// IOPS_read / IOPS_write times longer than a read).
// HDD: one actuator; a random I/O costs the average seek, a uniform rotational delay in
// [0, 60/rpm) and the transfer at the sustained rate; sequential I/O only the transfer.
// The connection (e.g. a USB bridge) adds a fixed latency and, if capped, a FIFO link; one
// that takes n commands at a time (USB Bulk-Only Transport: 1) holds each I/O at one of n
// FIFO places from submission to completion, so a queue forms in front of the device.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>

#include "hcisim/model/core/distribution.hpp"
#include "hcisim/model/core/engine.hpp"
#include "hcisim/model/core/fifo_servers.hpp"
#include "hcisim/hw/device_spec.hpp"
#include "hcisim/model/hw/flash_array.hpp"

namespace hcisim {

enum class IoOp : std::uint8_t { read, write };

/// Parameters derived from a DeviceSpec (see the file comment), for tests and reports.
struct DeviceModel {
  int units = 1;                        // k
  double op_us[2] = {0, 0};             // s_op, by IoOp
  double ns_per_byte[2] = {0, 0};       // k / BW_op (unit occupancy per byte)
  double pipeline_us[2] = {0, 0};       // d_op
  double seek_us = 0;                   // HDD average seek
  double revolution_us = 0;             // HDD one revolution
};
DeviceModel derive_device_model(const DeviceSpec& spec);

class StorageDevice;

/// Told when an I/O submitted to a device completes.
class DeviceClient {
 public:
  virtual void on_io_complete(StorageDevice& device, std::uint64_t io) = 0;

 protected:
  DeviceClient() = default;
  DeviceClient(const DeviceClient&) = default;
  DeviceClient& operator=(const DeviceClient&) = default;
  ~DeviceClient() = default;
};

class StorageDevice final : public EventHandler {
 public:
  /// `pipeline_cv`: coefficient of variation of the pipeline latency d (lognormal), a
  /// calibrated constant; 0 makes it deterministic. Its random stream is (seed, replication,
  /// stream_name).
  StorageDevice(Engine& engine, const DeviceSpec& spec, const ConnectionSpec& connection, std::uint64_t seed,
                const std::string& stream_name, DeviceClient& client, double pipeline_cv = 0.2,
                std::uint64_t replication = 0);

  /// Starts an I/O of `size` bytes; `io` comes back in DeviceClient::on_io_complete.
  /// A random transfer made of `extents` separate address ranges (an elevator's batch of
  /// scattered blocks) pays the per-command cost (SSD s_op; HDD seek and rotation) once per
  /// extent; a sequential one pays none.
  void submit(std::uint64_t io, IoOp op, Bytes size, bool sequential = false, std::uint32_t extents = 1);

  const DeviceSpec& spec() const { return spec_; }
  const DeviceModel& model() const { return model_; }
  /// Mean fraction busy since the last reset: the device's internal units or, where the
  /// connection limits the commands in flight, its command places, whichever is busier.
  double utilisation() const {
    const double u = flash_ ? flash_->utilisation(engine_.now()) : units_.utilisation(engine_.now());
    return commands_ ? std::max(u, commands_->utilisation(engine_.now())) : u;
  }
  /// The number of servers behind utilisation() (units, dies or firmware cores, or command
  /// places), for the analytic path's stations.
  int servers() const {
    const double u = flash_ ? flash_->utilisation(engine_.now()) : units_.utilisation(engine_.now());
    if (commands_ && commands_->utilisation(engine_.now()) > u) return commands_->servers();
    return flash_ ? flash_->busiest_servers(engine_.now()) : units_.servers();
  }
  void reset_stats() {
    units_.reset_stats(engine_.now());
    if (flash_) flash_->reset_stats(engine_.now());
    if (commands_) commands_->reset_stats(engine_.now());
  }
  std::size_t in_flight() const { return static_cast<std::size_t>(submitted_ - completed_); }
  std::uint64_t completed() const { return completed_; }
  /// The NAND back end, when the device has flash internals (DeviceSpec::flash).
  FlashArray* flash() { return flash_.get(); }
  const FlashArray* flash() const { return flash_.get(); }

  void on_event(Engine& engine, EventTag tag, std::uint64_t io) override;

 private:
  Time unit_time(IoOp op, Bytes size, bool sequential, std::uint32_t extents);
  Time pipeline_time(IoOp op);

  Engine& engine_;
  DeviceSpec spec_;
  ConnectionSpec connection_;
  DeviceModel model_;
  DeviceClient& client_;
  RngStream rng_;
  Distribution pipeline_[2] = {Distribution::deterministic(0.0), Distribution::deterministic(0.0)};
  std::unique_ptr<FifoServers> link_;   // only when the connection caps bandwidth
  std::unique_ptr<FifoServers> commands_;   // only when the connection limits commands in flight
  FifoServers units_;
  std::unique_ptr<FlashArray> flash_;   // only for devices with NAND internals
  std::uint64_t submitted_ = 0;
  std::uint64_t completed_ = 0;
};

}  // namespace hcisim
