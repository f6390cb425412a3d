// Device service model (equations in storage_device.hpp).
#include "hcisim/model/hw/storage_device.hpp"

#include <algorithm>
#include <cmath>

#include "hcisim/core/check.hpp"

namespace hcisim {

namespace {
constexpr double kBlock4k = 4096.0;
constexpr EventTag kDone = 0;
std::size_t idx(IoOp op) { return op == IoOp::read ? 0 : 1; }
}  // namespace

DeviceModel derive_device_model(const DeviceSpec& spec) {
  spec.validate();
  DeviceModel m;
  const double bw[2] = {spec.seq_read_mbps * 1e6, spec.seq_write_mbps * 1e6};   // bytes/s
  if (spec.kind == DeviceKind::hdd) {
    m.units = 1;
    m.seek_us = spec.seek_ms * 1e3;
    m.revolution_us = 60e6 / spec.rpm;
    for (std::size_t o = 0; o < 2; ++o) m.ns_per_byte[o] = 1e9 / bw[o];
    return m;
  }
  const double iops[2] = {spec.read_iops_4k, spec.write_iops_4k};
  const double lat_us[2] = {spec.read_latency_us, spec.write_latency_us};
  // Little's law on the datasheet: units busy at saturation <= IOPS x QD1 latency.
  const double k = std::floor(std::min(iops[0] * lat_us[0], iops[1] * lat_us[1]) * 1e-6);
  m.units = static_cast<int>(std::max(1.0, k));
  for (std::size_t o = 0; o < 2; ++o) {
    m.ns_per_byte[o] = m.units * 1e9 / bw[o];
    const double per_io_us = m.units * 1e6 / iops[o];                      // k / IOPS
    m.op_us[o] = std::max(0.0, per_io_us - kBlock4k * m.ns_per_byte[o] * 1e-3);
    const double held_4k_us = m.op_us[o] + kBlock4k * m.ns_per_byte[o] * 1e-3;
    m.pipeline_us[o] = std::max(0.0, lat_us[o] - held_4k_us);
  }
  return m;
}

StorageDevice::StorageDevice(Engine& engine, const DeviceSpec& spec, const ConnectionSpec& connection,
                             std::uint64_t seed, const std::string& stream_name, DeviceClient& client,
                             double pipeline_cv, std::uint64_t replication)
    : engine_(engine),
      spec_(spec),
      connection_(connection),
      model_(derive_device_model(spec)),
      client_(client),
      rng_(seed, replication, stream_name),
      units_(model_.units) {
  connection_.validate();
  check::non_negative(pipeline_cv, "device pipeline_cv");
  if (spec_.flash) {
    // A read's latency comes from the NAND and the controller (flash.csv), not from the
    // datasheet's QD1 figure; a buffered write is acknowledged in the datasheet's time.
    flash_ = std::make_unique<FlashArray>(*spec_.flash, spec_.capacity_gb, spec_.flash->controller_us,
                                          spec_.write_latency_us);
  }
  for (std::size_t o = 0; o < 2; ++o) {
    const double protocol_us = o == idx(IoOp::read) ? connection_.read_protocol_us : connection_.write_protocol_us;
    const double d_ns = ((flash_ ? 0.0 : model_.pipeline_us[o]) + connection_.added_latency_us + protocol_us) * 1e3;
    pipeline_[o] = d_ns <= 0.0            ? Distribution::deterministic(0.0)
                   : pipeline_cv == 0.0   ? Distribution::deterministic(d_ns)
                                          : Distribution::lognormal(d_ns, pipeline_cv);
  }
  if (connection_.max_mbps > 0) link_ = std::make_unique<FifoServers>(1);
  if (connection_.commands > 0) commands_ = std::make_unique<FifoServers>(connection_.commands);
}

inline Time StorageDevice::unit_time(IoOp op, Bytes size, bool sequential, std::uint32_t extents) {
  const std::size_t o = idx(op);
  double ns = static_cast<double>(size.count()) * model_.ns_per_byte[o];
  if (sequential) return Time::round_ns(ns);
  if (spec_.kind == DeviceKind::hdd) {
    // Each extent: the average seek and a uniform rotational delay. An elevator's sorted
    // batch seeks shorter than average; the catalog has no seek curve, so this is an upper
    // bound on its cost.
    for (std::uint32_t e = 0; e < extents; ++e) ns += (model_.seek_us + rng_.uniform01() * model_.revolution_us) * 1e3;
  } else {
    ns += model_.op_us[o] * 1e3 * extents;   // per-command cost of random I/O (mapping, GC on writes)
  }
  return Time::round_ns(ns);
}

Time StorageDevice::pipeline_time(IoOp op) {
  return Time::round_ns(pipeline_[idx(op)].sample(rng_));
}

void StorageDevice::submit(std::uint64_t io, IoOp op, Bytes size, bool sequential, std::uint32_t extents) {
  if (size.count() <= 0) check::fail("device '" + spec_.name + "' I/O size (bytes)", size.count(), "a size > 0");
  ++submitted_;
  // FIFO with service times known on arrival: reserve the link (if any) and a unit now,
  // and schedule the completion once (fifo_servers.hpp). Link finishes are in arrival
  // order, so the unit reservations stay in time order too. The completion event carries
  // the caller's `io` itself, so the device keeps no state per request.
  // A connection that limits the commands in flight admits this one when a place frees;
  // the place is held until completion. Admission times never decrease (each reservation
  // replaces the earliest free time by a later one), so link and units still see arrivals
  // in time order.
  const Time now = engine_.now();
  const Time admitted = commands_ ? std::max(now, commands_->first_free()) : now;
  Time ready = admitted;
  if (link_) ready = link_->reserve(ready, transfer_time(size, Rate::bytes_per_second(connection_.max_mbps * 1e6))).finish;
  Time done;
  if (flash_) {
    // Die by die (flash_array.hpp); `extents` scattered ranges cost what their bytes cost.
    done = (op == IoOp::read ? flash_->read(ready, size, sequential, rng_) : flash_->write(ready, size, sequential, rng_)) +
           pipeline_time(op);
  } else {
    const FifoServers::Slot unit = units_.reserve(ready, unit_time(op, size, sequential, extents));
    done = unit.finish + pipeline_time(op);
  }
  if (commands_) commands_->reserve(admitted, done - admitted);
  engine_.schedule_at(done, *this, kDone, io);
}

void StorageDevice::on_event(Engine&, EventTag, std::uint64_t io) {
  ++completed_;
  client_.on_io_complete(*this, io);
}

}  // namespace hcisim
