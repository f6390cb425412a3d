// NAND-level SSD model (flash_array.hpp) against published device measurements and
// mechanisms: the pSLC cliff of the Lexar NM620 1 TB (TechPowerUp's fill), reads slowed by a
// write load (Wu and He, FAST 2012 [S113]), a DRAM-less drive's extra map read (AnandTech, Toshiba
// RC100), a NAND drive's QD1 read from its NAND figures against its datasheet, Optane's
// measured QD1 and QD16 points (AnandTech) for the datasheet model it keeps, and greedy
// garbage collection's write amplification.
#include <catch2/catch.hpp>

#include <cmath>

#include "hcisim/core/check.hpp"
#include "hcisim/model/hw/flash_array.hpp"
#include "hcisim/scenario/hardware_catalog.hpp"
#include "device_loop.hpp"

using namespace hcisim;
using namespace hcisim::test;

namespace {

Bytes gb(double g) { return Bytes{static_cast<std::int64_t>(g * 1e9)}; }

// A closed loop on a drive whose live data and random span are `span_gb`.
LoopResult loop_on(const DeviceSpec& spec, IoOp op, Bytes size, int qd, double span_gb, int writers = 0,
                   std::uint64_t ios = 20'000) {
  ClosedLoop l(spec, ConnectionSpec{}, op, size, false);
  l.device.flash()->set_live(gb(span_gb), gb(span_gb));
  l.background = writers;
  l.background_size = 64_KiB;
  return l.run(qd, ios);
}

}  // namespace

TEST_CASE("the NM620 1 TB fills like TechPowerUp's: pSLC speed, ~800 MB/s after the cache, ~300 MB/s past half", "[hw]") {
  const HardwareCatalog catalog = HardwareCatalog::load();
  const DeviceSpec& drive = catalog.device("lexar-nm620-1tb");
  REQUIRE(drive.flash);
  // A fresh drive written sequentially in 1 MiB commands, 32 at a time, from empty.
  ClosedLoop fill(drive, ConnectionSpec{}, IoOp::write, 1_MiB, true);
  FlashArray& nand = *fill.device.flash();
  nand.set_live(Bytes{0}, gb(drive.capacity_gb));
  fill.measured_slots = 32;
  fill.issued.assign(32, Time::zero());
  for (std::uint64_t i = 0; i < 32; ++i) fill.issue(i);
  // Throughput over 20 s windows, with the live data at the window's start.
  auto window = [&] {
    const std::uint64_t before = fill.device.completed();
    const double live = static_cast<double>(nand.live().count());
    fill.engine.run_for(Time::from_seconds(20));
    return std::pair{live / (drive.capacity_gb * 1e9), static_cast<double>(fill.device.completed() - before) * 1048576.0 / 20 * 1e-6};
  };
  const auto [fill0, slc] = window();
  CHECK(fill0 < 0.05);
  CHECK(slc > 1500);   // in the pSLC cache: channel- and pSLC-program-bound, above 1.5 GB/s
  double after_cache = 0, past_half = 0;
  for (int w = 0; w < 120 && (after_cache == 0 || past_half == 0); ++w) {
    const auto [f, mbps] = window();
    if (f > 0.30 && f < 0.45 && after_cache == 0) after_cache = mbps;
    if (f > 0.52 && f < 0.60 && past_half == 0) past_half = mbps;
  }
  INFO("after the cache " << after_cache << " MB/s, past half full " << past_half << " MB/s");
  CHECK(after_cache == Approx(800).epsilon(0.25));   // TechPowerUp: ~800 MB/s writing TLC directly
  CHECK(past_half == Approx(300).epsilon(0.35));     // ~300 MB/s once more than half full
  // Native TLC programs on every die: dies x planes x 16 KiB x 3 bits / tPROG.
  CHECK(nand.native_program_rate() == Approx(nand.dies() * drive.flash->planes * 16384.0 * 3 /
                                             (drive.flash->program_us * 1e-6)));
}

TEST_CASE("reads wait behind programs and erases: a write load slows an NM620's reads", "[hw]") {
  const HardwareCatalog catalog = HardwareCatalog::load();
  const DeviceSpec& drive = catalog.device("lexar-nm620-2tb");
  // A 2 GB span: every map entry cached, so what slows the reads is the dies' program work.
  const LoopResult alone = loop_on(drive, IoOp::read, 4_KiB, 4, 2);
  const LoopResult loaded = loop_on(drive, IoOp::read, 4_KiB, 4, 2, 8);
  INFO("reads alone " << alone.mean_latency_us << " us, with 8 x 64 KiB writers " << loaded.mean_latency_us << " us");
  // Wu and He (FAST 2012): without suspension, programs and erases about double read latency.
  CHECK(loaded.mean_latency_us > 1.5 * alone.mean_latency_us);
  // The same reads on a drive with no write load stay near one NAND read.
  CHECK(alone.mean_latency_us < 1.2 * (drive.flash->read_us + drive.flash->controller_us + 4096.0 / drive.flash->channel_mbps));
}

TEST_CASE("a DRAM-less drive pays a map read per random read beyond the span its map cache covers", "[hw]") {
  const HardwareCatalog catalog = HardwareCatalog::load();
  const DeviceSpec& drive = catalog.device("lexar-nm620-2tb");
  const FlashSpec& f = *drive.flash;
  const double xfer_4k_us = 4096.0 / f.channel_mbps;
  const double page_us = f.page_kib * 1024.0 / f.channel_mbps;
  // 4 MB of 4-byte entries map 4 GiB-ish (4e6 / 4 x 4096 B = 4.1 GB): a 2 GB span always hits.
  const LoopResult hit = loop_on(drive, IoOp::read, 4_KiB, 1, 2, 0, 5'000);
  CHECK(hit.mean_latency_us == Approx(f.controller_us + f.read_us + xfer_4k_us).epsilon(0.02));
  // Over 1 TB nearly every read misses: the map page's read and transfer, the firmware, then the data.
  ClosedLoop far(drive, ConnectionSpec{}, IoOp::read, 4_KiB, false);
  far.device.flash()->set_live(gb(1000), gb(1000));
  const double miss = far.device.flash()->map_miss_probability();
  CHECK(miss == Approx(1.0 - 4e6 / 4 * 4096 / 1e12).epsilon(1e-9));
  const LoopResult r = far.run(1, 5'000);
  const double expected = f.controller_us + f.read_us + xfer_4k_us + miss * (f.read_us + page_us + f.map_miss_us);
  CHECK(r.mean_latency_us == Approx(expected).epsilon(0.02));
  // Deep queues: each miss holds a firmware core for its map load, so the controller's
  // cores cap the random reads at cores / (tR + page transfer + firmware).
  const LoopResult deep = loop_on(drive, IoOp::read, 4_KiB, 64, 1000, 0, 40'000);
  CHECK(deep.iops == Approx(f.controller_cores * 1e6 / (f.read_us + page_us + f.map_miss_us) / miss).epsilon(0.03));
}

TEST_CASE("a NAND drive's QD1 read from its NAND figures meets its datasheet (Samsung 970 EVO Plus)", "[hw]") {
  const HardwareCatalog catalog = HardwareCatalog::load();
  const DeviceSpec& drive = catalog.device("samsung-970-evo-plus-1tb");
  REQUIRE(drive.flash);
  // 50 us reads of Samsung's 9x-layer V-NAND, a 4 KiB transfer at 1.4 GB/s and the controller;
  // the datasheet rates the 1 TB at 19K IOPS at QD1 (52.6 us), which the model does not read.
  const LoopResult qd1 = loop_on(drive, IoOp::read, 4_KiB, 1, 100, 0, 5'000);
  CHECK(qd1.mean_latency_us == Approx(1e6 / 19000).epsilon(0.15));
}

TEST_CASE("Optane keeps its datasheet model, within 15 % of AnandTech's measured P4800X", "[hw]") {
  const HardwareCatalog catalog = HardwareCatalog::load();
  const DeviceSpec& optane = catalog.device("optane-p4800x-375gb");
  CHECK_FALSE(optane.flash);
  // AnandTech, P4800X review p.4: 4K random read QD1 mean 8.9 us; QD16 584.8K IOPS.
  CHECK(closed_loop(optane, IoOp::read, 4_KiB, 1).mean_latency_us == Approx(8.9).epsilon(0.15));
  CHECK(closed_loop(optane, IoOp::read, 4_KiB, 16, false, ConnectionSpec{}, 50'000).iops ==
        Approx(584.8e3).epsilon(0.15));
}

TEST_CASE("random writes pay greedy garbage collection's write amplification, sequential ones none", "[hw]") {
  const HardwareCatalog catalog = HardwareCatalog::load();
  const DeviceSpec& drive = catalog.device("lexar-nm620-2tb");
  FlashArray nand(*drive.flash, drive.capacity_gb, 0, 10);
  const double physical = drive.capacity_gb * 1e9 * (1 + drive.flash->spare_pct / 100);
  for (double fill : {0.2, 0.6, 0.9, 1.0}) {
    nand.set_live(gb(drive.capacity_gb * fill), gb(drive.capacity_gb * fill));
    const double rho = (physical - drive.capacity_gb * 1e9 * fill) / (drive.capacity_gb * 1e9 * fill);
    INFO("fill " << fill);
    CHECK(nand.gc_write_amplification() == Approx(rho >= 1 ? 1.0 : (1 + rho) / (2 * rho)));
  }
  // Full drive, 9.95 % spare: (1 + 0.0995) / (2 x 0.0995) = 5.5.
  CHECK(nand.gc_write_amplification() == Approx(5.53).epsilon(0.01));
}

TEST_CASE("bad NAND figures are refused by file, line and field", "[hw]") {
  FlashSpec f = *HardwareCatalog::load().device("lexar-nm620-2tb").flash;
  f.cell = "plc";
  CHECK_THROWS_WITH(f.validate("x"), Catch::Contains("cell") && Catch::Contains("slc, mlc, tlc, qlc"));
  f.cell = "tlc";
  f.read_us = 0;
  CHECK_THROWS_WITH(f.validate("x"), Catch::Contains("read_us") && Catch::Contains("1 .. 1000"));
  f.read_us = 60;
  f.map = FtlMap::hmb;
  f.map_cache_mb = 0;
  CHECK_THROWS_WITH(f.validate("x"), Catch::Contains("map_cache_mb"));
}
