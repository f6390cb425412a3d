// Hardware-model throughput. items_per_second = simulated completions per wall second.
//  BM_DeviceIo: one catalog NVMe SSD (intel-p4610-1.6tb), closed loop at QD32, 4 KiB
//    random 70 % read / 30 % write.
//  BM_FlashIo: the same loop on the NAND-level model of a DRAM-less drive (lexar-nm620-2tb,
//    300 GB of live data: map misses, pSLC cache, garbage collection).
//  BM_NetworkTransfer: 8 hosts on one 25 GbE switch, each keeping 8 transfers of 64 KiB
//    in flight to other hosts (closed loop, a new destination per transfer).
#include <benchmark/benchmark.h>

#include "hcisim/model/model.hpp"

using namespace hcisim;
using namespace hcisim::literals;

namespace {

struct DeviceLoop final : DeviceClient {
  Engine engine;
  StorageDevice device;
  RngStream rng{1, 0, "mix"};
  std::uint64_t done = 0;
  explicit DeviceLoop(const DeviceSpec& spec, const ConnectionSpec& conn)
      : device(engine, spec, conn, 1, "dev", *this) {}
  void issue(std::uint64_t slot) {
    device.submit(slot, rng.uniform01() < 0.7 ? IoOp::read : IoOp::write, 4_KiB);
  }
  void on_io_complete(StorageDevice&, std::uint64_t slot) override {
    ++done;
    issue(slot);
  }
};

void run_device_loop(benchmark::State& state, DeviceLoop& loop) {
  for (std::uint64_t i = 0; i < 32; ++i) loop.issue(i);
  loop.engine.run_for(10_ms);
  const std::uint64_t start = loop.done;
  for (auto _ : state) loop.engine.run_for(10_ms);
  state.SetItemsProcessed(static_cast<std::int64_t>(loop.done - start));
}

void BM_DeviceIo(benchmark::State& state) {
  const HardwareCatalog cat = HardwareCatalog::load();
  DeviceLoop loop(cat.device("intel-p4610-1.6tb"), cat.connection("nvme-direct"));
  run_device_loop(state, loop);
}
BENCHMARK(BM_DeviceIo)->Unit(benchmark::kMillisecond);

void BM_FlashIo(benchmark::State& state) {
  const HardwareCatalog cat = HardwareCatalog::load();
  DeviceLoop loop(cat.device("lexar-nm620-2tb"), cat.connection("nvme-direct"));
  loop.device.flash()->set_live(Bytes{300'000'000'000}, Bytes{300'000'000'000});
  run_device_loop(state, loop);
}
BENCHMARK(BM_FlashIo)->Unit(benchmark::kMillisecond);

struct TransferLoop final : NetworkClient {
  static constexpr int kHosts = 8;
  Engine engine;
  Network net;
  RngStream rng{1, 0, "dst"};
  std::uint64_t done = 0;
  explicit TransferLoop(const HardwareCatalog& cat) : net(engine, NetworkConfig{}, *this) {
    const auto tor = net.add_switch("tor", cat.network_switch("dell-s5248f-on"));
    for (int h = 0; h < kHosts; ++h) {
      const int id = net.add_host("esx" + std::to_string(h), cat.nic("broadcom-57414-25g"));
      net.connect(net.host_node(id), tor, 25);
    }
    net.finalize();
  }
  void issue(std::uint64_t token) {
    const int src = static_cast<int>(token % kHosts);
    const int dst = (src + 1 + static_cast<int>(rng.uniform01() * (kHosts - 1))) % kHosts;
    net.send(token, src, dst, 64_KiB, token);
  }
  void on_delivered(Network&, std::uint64_t token) override {
    ++done;
    issue(token);
  }
};

void BM_NetworkTransfer(benchmark::State& state) {
  const HardwareCatalog cat = HardwareCatalog::load();
  TransferLoop loop(cat);
  for (std::uint64_t t = 0; t < TransferLoop::kHosts * 8; ++t) loop.issue(t);
  loop.engine.run_for(5_ms);
  const std::uint64_t start = loop.done;
  for (auto _ : state) loop.engine.run_for(5_ms);
  state.SetItemsProcessed(static_cast<std::int64_t>(loop.done - start));
}
BENCHMARK(BM_NetworkTransfer)->Unit(benchmark::kMillisecond);

}  // namespace
