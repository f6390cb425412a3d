// Device service model against the datasheet figures it is built from: for every catalog
// SSD without NAND internals a closed-loop sweep QD 1..256 reproduces the QD1 latency (within 10%), the saturated
// 4K random IOPS (5%) and the sequential MB/s (5%); disks follow seek + rotation + transfer.
#include <catch2/catch.hpp>

#include <cmath>

#include "hcisim/core/check.hpp"
#include "hcisim/model/core/engine.hpp"
#include "hcisim/model/hw/storage_device.hpp"
#include "hcisim/scenario/hardware_catalog.hpp"
#include "device_loop.hpp"

using namespace hcisim;
using namespace hcisim::literals;
using namespace hcisim::test;


// A unit test of derive_device_model, not a validation: the model is built from the same
// figures (published measurements are checked in flash_array_test.cpp).
TEST_CASE("every catalog SSD without NAND internals reproduces the figures it is derived from", "[hw]") {
  const HardwareCatalog catalog = HardwareCatalog::load();
  int ssds = 0;
  for (const DeviceSpec& spec : catalog.devices()) {
    if (spec.kind != DeviceKind::ssd || spec.flash) continue;
    ++ssds;
    INFO("device " << spec.name << ", units " << derive_device_model(spec).units);
    for (IoOp op : {IoOp::read, IoOp::write}) {
      const bool rd = op == IoOp::read;
      INFO((rd ? "read" : "write"));
      const double iops = rd ? spec.read_iops_4k : spec.write_iops_4k;
      const double latency_us = rd ? spec.read_latency_us : spec.write_latency_us;
      // Steady state at QD1 cannot exceed the sustained IOPS: where the datasheet's QD1
      // latency implies more (1/latency > IOPS: writes absorbed by a DRAM buffer in a short
      // test), the expected QD1 latency is 1/IOPS.
      const double expected_qd1_us = std::max(latency_us, 1e6 / iops);
      const auto qd1 = closed_loop(spec, op, 4_KiB, 1);
      CHECK(qd1.mean_latency_us == Approx(expected_qd1_us).epsilon(0.10));
      double last_iops = 0;
      for (int qd : {2, 8, 32, 128}) {   // IOPS never fall as the queue deepens
        const auto r = closed_loop(spec, op, 4_KiB, qd, false, ConnectionSpec{}, 5'000);
        CHECK(r.iops >= last_iops * 0.98);
        last_iops = r.iops;
      }
      const auto sat = closed_loop(spec, op, 4_KiB, 256);
      CHECK(sat.iops == Approx(iops).epsilon(0.05));
      // Enough in flight to keep every unit busy (a latency-rich datasheet implies many units).
      const auto seq = closed_loop(spec, op, 256_KiB, std::max(32, 2 * derive_device_model(spec).units), true);
      CHECK(seq.mbps == Approx(rd ? spec.seq_read_mbps : spec.seq_write_mbps).epsilon(0.05));
    }
  }
  CHECK(ssds >= 15);
}

TEST_CASE("a 10K rpm disk: QD1 random latency is seek + half a turn + transfer", "[hw]") {
  const HardwareCatalog catalog = HardwareCatalog::load();
  const DeviceSpec& hdd = catalog.device("seagate-10k-v7-1.2tb");
  // 3.8 ms seek + 3.0 ms half revolution at 10,000 rpm + 4096 B / 150 MB/s (27 us).
  const double expected_us = hdd.seek_ms * 1e3 + 0.5 * 60e6 / hdd.rpm + 4096.0 / (hdd.seq_read_mbps * 1e6) * 1e6;
  const auto r = closed_loop(hdd, IoOp::read, 4_KiB, 1, false, ConnectionSpec{}, 4'000);
  CHECK(r.mean_latency_us == Approx(expected_us).epsilon(0.03));   // sd of the mean ~0.3%
  const auto seq = closed_loop(hdd, IoOp::write, 1_MiB, 4, true, ConnectionSpec{}, 2'000);
  CHECK(seq.mbps == Approx(hdd.seq_write_mbps).epsilon(0.02));
}

TEST_CASE("a random transfer of n extents pays the per-command cost n times", "[hw]") {
  const HardwareCatalog catalog = HardwareCatalog::load();
  // SSD, saturated: each unit holds an I/O for n * s_op + bytes * k / BW.
  const DeviceSpec& ssd = catalog.device("intel-s4500-3.84tb");
  const DeviceModel m = derive_device_model(ssd);
  for (std::uint32_t n : {1u, 8u}) {
    ClosedLoop loop(ssd, ConnectionSpec{}, IoOp::write, 32_KiB, false);
    loop.extents = n;
    const double hold_us = n * m.op_us[1] + 32768 * m.ns_per_byte[1] * 1e-3;
    INFO("extents " << n);
    CHECK(loop.run(128, 10'000).iops == Approx(m.units / hold_us * 1e6).epsilon(0.03));
  }
  // Disk at QD1: one average seek and a uniform rotational delay per extent.
  const DeviceSpec& hdd = catalog.device("seagate-10k-v7-1.2tb");
  ClosedLoop disk(hdd, ConnectionSpec{}, IoOp::write, 32_KiB, false);
  disk.extents = 8;
  const double expected_us = 8 * (hdd.seek_ms * 1e3 + 0.5 * 60e6 / hdd.rpm) + 32768.0 / (hdd.seq_write_mbps * 1e6) * 1e6;
  CHECK(disk.run(1, 1'000).mean_latency_us == Approx(expected_us).epsilon(0.03));
  // A sequential transfer pays none, whatever the extents.
  ClosedLoop seq(ssd, ConnectionSpec{}, IoOp::write, 256_KiB, true);
  seq.extents = 8;
  CHECK(seq.run(32, 5'000).mbps == Approx(ssd.seq_write_mbps).epsilon(0.05));
}

TEST_CASE("a USB bridge adds its latency and caps bandwidth", "[hw]") {
  const HardwareCatalog catalog = HardwareCatalog::load();
  const DeviceSpec& optane = catalog.device("optane-905p-280gb");
  const ConnectionSpec& usb = catalog.connection("usb-nvme");
  const auto direct = closed_loop(optane, IoOp::read, 4_KiB, 1);
  const auto bridged = closed_loop(optane, IoOp::read, 4_KiB, 1, false, usb);
  // Added: the bridge latency plus 4 KiB at the bridge's rate through its FIFO link.
  const double link_us = 4096.0 / (usb.max_mbps * 1e6) * 1e6;
  CHECK(bridged.mean_latency_us - direct.mean_latency_us == Approx(usb.added_latency_us + link_us).epsilon(0.05));
  const auto seq = closed_loop(optane, IoOp::read, 256_KiB, 32, true, usb);
  CHECK(seq.mbps == Approx(usb.max_mbps).epsilon(0.02));
}

TEST_CASE("a bridge that takes n commands at a time queues the rest in front of the device", "[hw]") {
  const HardwareCatalog catalog = HardwareCatalog::load();
  const DeviceSpec& optane = catalog.device("optane-905p-280gb");
  const ConnectionSpec& bot = catalog.connection("usb-bot-nvme");
  REQUIRE(bot.commands == 1);
  // One command's whole time through the bridge: what a queue-depth-1 loop measures. Alone,
  // a command costs what it costs under UAS plus what Bulk-Only Transport's protocol adds to
  // a command of its direction (connections.csv: measured on one host, more on a read).
  REQUIRE(bot.read_protocol_us > bot.write_protocol_us);
  REQUIRE(bot.write_protocol_us > 0);
  const ConnectionSpec& uas = catalog.connection("usb-nvme");
  for (const IoOp op : {IoOp::read, IoOp::write}) {
    const double alone_us = closed_loop(optane, op, 4_KiB, 1, false, bot).mean_latency_us;
    const double qd1_uas_us = closed_loop(optane, op, 4_KiB, 1, false, uas).mean_latency_us;
    CHECK(alone_us - qd1_uas_us ==
          Approx(op == IoOp::read ? bot.read_protocol_us : bot.write_protocol_us).epsilon(0.05));
  }
  const double command_us = closed_loop(optane, IoOp::read, 4_KiB, 1, false, bot).mean_latency_us;
  // At queue depth 16 the bridge serves one at a time: X = 1 / command time, and Little's
  // law puts the other 15 in the queue.
  ClosedLoop loop(optane, bot, IoOp::read, 4_KiB, false);
  const LoopResult r = loop.run(16, 20'000);
  CHECK(r.iops == Approx(1e6 / command_us).epsilon(0.03));
  CHECK(r.mean_latency_us == Approx(16 * command_us).epsilon(0.03));
  CHECK(loop.device.utilisation() == Approx(1.0).epsilon(0.01));
  // Four places: four times the rate (the drive itself is far from its limit).
  ConnectionSpec four = bot;
  four.commands = 4;
  CHECK(closed_loop(optane, IoOp::read, 4_KiB, 16, false, four).iops == Approx(4e6 / command_us).epsilon(0.05));
  // Without a limit the same bridge overlaps all 16.
  CHECK(closed_loop(optane, IoOp::read, 4_KiB, 16, false, catalog.connection("usb-nvme")).iops > 10e6 / command_us);
  ConnectionSpec bad = bot;
  bad.commands = -1;
  CHECK_THROWS_WITH(bad.validate(), Catch::Contains("commands") && Catch::Contains("0 (no limit) or 1 .. 65536"));
  bad = bot;
  bad.write_protocol_us = -1;
  CHECK_THROWS_WITH(bad.validate(), Catch::Contains("usb-bot-nvme") && Catch::Contains("write_protocol_us") &&
                                        Catch::Contains("a finite number >= 0"));
  bad = bot;
  bad.read_protocol_us = std::nan("");
  CHECK_THROWS_WITH(bad.validate(), Catch::Contains("read_protocol_us") && Catch::Contains("a finite number >= 0"));
  bad = bot;
  bad.read_protocol_us = 2e6;
  CHECK_THROWS_WITH(bad.validate(), Catch::Contains("read_protocol_us") && Catch::Contains("0 .. 1e6"));
}

TEST_CASE("mixed reads and writes share the device's units", "[hw]") {
  const HardwareCatalog catalog = HardwareCatalog::load();
  const DeviceSpec& nand = catalog.device("samsung-pm1733-3.84tb");
  const DeviceModel m = derive_device_model(nand);
  // A write holds a unit read_iops / write_iops times longer than a read at 4K.
  const double read_hold = m.op_us[0] + 4096 * m.ns_per_byte[0] * 1e-3;
  const double write_hold = m.op_us[1] + 4096 * m.ns_per_byte[1] * 1e-3;
  CHECK(write_hold / read_hold == Approx(nand.read_iops_4k / nand.write_iops_4k).epsilon(0.01));
}

TEST_CASE("bad device figures and unknown names are reported clearly", "[hw]") {
  const HardwareCatalog catalog = HardwareCatalog::load();
  CHECK_THROWS_WITH(catalog.device("optane-p4800x-700gb"), Catch::Contains("closest catalog names: optane-p4800x-750gb"));
  CHECK_THROWS_WITH(catalog.device("p4800x"), Catch::Contains("optane-p4800x-375gb"));
  CHECK_THROWS_WITH(catalog.connection("usb"), Catch::Contains("usb-nvme"));
  DeviceSpec bad = catalog.device("intel-s3700-400gb");
  bad.write_iops_4k = -5;
  CHECK_THROWS_WITH(bad.validate(), Catch::Contains("intel-s3700-400gb") && Catch::Contains("write_iops_4k"));
  bad.write_iops_4k = std::nan("");
  CHECK_THROWS_WITH(derive_device_model(bad), Catch::Contains("write_iops_4k") && Catch::Contains("finite"));
  bad = catalog.device("intel-s3700-400gb");
  bad.seq_read_mbps = 0;
  CHECK_THROWS_WITH(bad.validate(), Catch::Contains("seq_read_mbps"));
  CHECK_THROWS_WITH(HardwareCatalog::load("/nonexistent"), Catch::Contains("/nonexistent/devices.csv"));
}
