// Closed-loop VMDK workload (closed_loop.hpp).
#include "hcisim/workload/closed_loop.hpp"

#include "hcisim/core/check.hpp"

namespace hcisim {

void ClosedLoopSpec::validate() const {
  check::in_range(vms_per_host, 1, 1000, "workload vms_per_host");
  check::in_range(disks_per_vm, 1, 64, "workload disks_per_vm");
  check::in_range(outstanding, 1, 1024, "workload outstanding");
  check::in_range(block.count(), 512, 64 << 20, "workload block bytes");
  if (!(read_fraction >= 0 && read_fraction <= 1)) check::fail("workload read_fraction", read_fraction, "0..1");
  if (!(working_set > 0 && working_set <= 1)) check::fail("workload working_set", working_set, "(0, 1]");
  if (disk_size < block) check::fail("workload disk_size bytes", disk_size.count(), "at least one block");
}

ClosedLoop::ClosedLoop(Engine& engine, const ClosedLoopSpec& spec, std::uint64_t seed)
    : engine_(engine), spec_((spec.validate(), spec)), rng_(seed, 0, "workload") {}

void ClosedLoop::start(Cluster& cluster) {
  cluster_ = &cluster;
  const auto ws_bytes = static_cast<std::int64_t>(static_cast<double>(spec_.disk_size.count()) * spec_.working_set);
  const auto blocks = static_cast<std::uint64_t>(std::max<std::int64_t>(1, ws_bytes / spec_.block.count()));
  for (int h = 0; h < cluster.hosts(); ++h)
    for (int v = 0; v < spec_.vms_per_host; ++v)
      for (int d = 0; d < spec_.disks_per_vm; ++d) {
        Disk disk;
        disk.host = h;
        disk.object = cluster.add_object(h, spec_.disk_size, Bytes{static_cast<std::int64_t>(blocks) * spec_.block.count()});
        disk.span_blocks = blocks;
        disk.next_offset = rng_.below(blocks);
        disks_.push_back(disk);
      }
  slots_.resize(disks_.size() * static_cast<std::size_t>(spec_.outstanding));
  for (std::uint32_t s = 0; s < slots_.size(); ++s) {
    slots_[s].disk = s / static_cast<std::uint32_t>(spec_.outstanding);
    issue(s);
  }
  reset_stats();
}

void ClosedLoop::issue(std::uint32_t slot) {
  Slot& s = slots_[slot];
  Disk& d = disks_[s.disk];
  std::uint64_t block;
  if (spec_.random) {
    block = rng_.below(d.span_blocks);
  } else {
    block = d.next_offset;
    d.next_offset = (d.next_offset + 1) % d.span_blocks;
  }
  s.op = rng_.uniform01() < spec_.read_fraction ? IoOp::read : IoOp::write;
  s.issued = engine_.now();
  in_flight_.add(engine_.now(), 1.0);
  cluster_->submit(slot, d.object, d.host, s.op, block * static_cast<std::uint64_t>(spec_.block.count()), spec_.block);
}

void ClosedLoop::on_io_done(Cluster&, std::uint64_t token) {
  const auto slot = static_cast<std::uint32_t>(token);
  const Slot& s = slots_[slot];
  const Time latency = engine_.now() - s.issued;
  in_flight_.add(engine_.now(), -1.0);
  if (s.issued >= since_) {   // count I/Os issued after the warm-up cut only
    const int op = static_cast<int>(s.op);
    hist_[op].record(latency);
    all_.record(latency);
    sum_ns_[op] += static_cast<double>(latency.count_ns());
    ++count_[op];
  }
  ++completed_;
  issue(slot);
}

void ClosedLoop::reset_stats() {
  for (auto& h : hist_) h.reset();
  all_.reset();
  sum_ns_[0] = sum_ns_[1] = 0;
  count_[0] = count_[1] = 0;
  since_ = engine_.now();
  in_flight_ = TimeWeighted(engine_.now(), in_flight_.value());
}

LoopResult ClosedLoop::result() const {
  LoopResult r;
  r.seconds = (engine_.now() - since_).seconds();
  if (r.seconds <= 0) return r;
  const double reads = static_cast<double>(count_[0]);
  const double writes = static_cast<double>(count_[1]);
  r.read_iops = reads / r.seconds;
  r.write_iops = writes / r.seconds;
  r.iops = r.read_iops + r.write_iops;
  r.mbps = r.iops * static_cast<double>(spec_.block.count()) * 1e-6;
  r.read_latency_us = reads > 0 ? sum_ns_[0] / reads * 1e-3 : 0;
  r.write_latency_us = writes > 0 ? sum_ns_[1] / writes * 1e-3 : 0;
  r.mean_latency_us = reads + writes > 0 ? (sum_ns_[0] + sum_ns_[1]) / (reads + writes) * 1e-3 : 0;
  r.p95_latency_us = all_.percentile(0.95).us();
  r.mean_in_flight = in_flight_.mean(engine_.now());
  return r;
}

}  // namespace hcisim
