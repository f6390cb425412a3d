// Network model against arithmetic: frame overhead and goodput, one flow's goodput (within
// 2% of the computed value), fair sharing of one egress port, unloaded small-message
// latency = the sum of its hops, LACP and ECMP spreading, local traffic beyond link rate,
// per-host payload counts, receive interrupt moderation (a landing on an idle queue waits for
// the next allowed interrupt, one on a busy queue does not), and clear errors for impossible
// topologies.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>

#include "hcisim/core/check.hpp"
#include "hcisim/model/core/engine.hpp"
#include "hcisim/model/hw/network.hpp"
#include "hcisim/model/hw/topology.hpp"

using namespace hcisim;
using namespace hcisim::literals;

namespace {

NicSpec nic(double gbps, int ports = 1, double latency_us = 5.0, double rx_interrupt_us = 0.0) {
  NicSpec n;
  n.name = "test-nic";
  n.speed_gbps = gbps;
  n.ports = ports;
  n.latency_us = latency_us;
  n.rx_interrupt_us = rx_interrupt_us;
  return n;
}

SwitchSpec tor(double gbps, double latency_us = 0.8) {
  SwitchSpec s;
  s.name = "test-switch";
  s.ports = 48;
  s.port_speed_gbps = gbps;
  s.latency_us = latency_us;
  return s;
}

// Records delivery times per token; optionally resends each delivered message (closed loop).
struct Sink final : NetworkClient {
  Engine* engine = nullptr;
  std::map<std::uint64_t, Time> delivered;
  std::function<void(std::uint64_t)> on_done;
  void on_delivered(Network&, std::uint64_t token) override {
    delivered[token] = engine->now();
    if (on_done) on_done(token);
  }
};

// `hosts` hosts on one switch, every host linked at `gbps`.
struct Star {
  Engine engine;
  Sink sink;
  Network net;
  Star(int hosts, double gbps, NetworkConfig config = {}, int ports = 1, Teaming teaming = Teaming::failover,
       double rx_interrupt_us = 0.0)
      : net(engine, config, sink) {
    sink.engine = &engine;
    const auto sw = net.add_switch("tor", tor(std::max(gbps, 25.0)));
    for (int h = 0; h < hosts; ++h) {
      const int id = net.add_host("esx" + std::to_string(h), nic(gbps, ports, 5.0, rx_interrupt_us),
                                  teaming == Teaming::lacp ? ports : 1,
                                  teaming);
      net.connect(net.host_node(id), sw, gbps, teaming == Teaming::lacp ? ports : 1);
    }
    net.finalize();
  }
};

double line_payload_bytes_per_s(double gbps, const Framing& f) { return gbps * 1e9 / 8.0 * f.goodput_fraction(); }

}  // namespace

TEST_CASE("Framing: payload and wire bytes per frame for TCP and RoCE at MTU 1500 and 9000") {
  Framing f;
  CHECK(f.payload_per_frame() == 1448);
  CHECK(f.wire_per_frame() == 1538);
  CHECK(f.goodput_fraction() == Approx(1448.0 / 1538.0));
  CHECK(f.wire_bytes(Bytes{4096}).count() == 4096 + 3 * 90);   // 3 frames, 90 B overhead each
  CHECK(f.wire_bytes(Bytes{0}).count() == 90);
  f.mtu = 9000;
  CHECK(f.payload_per_frame() == 8948);
  CHECK(f.goodput_fraction() == Approx(8948.0 / 9038.0));
  f.transport = Transport::rdma;
  CHECK(f.payload_per_frame() == 4096);
  CHECK(f.wire_per_frame() == 4096 + 44 + 38);
  f.mtu = 1500;
  CHECK(f.payload_per_frame() == 1024);
  f.mtu = 100;
  CHECK_THROWS_WITH(f.validate(), Catch::Contains("network mtu") && Catch::Contains("[576, 9216]"));
}

TEST_CASE("Network: one flow's goodput is line rate times the framing efficiency, within 2 percent") {
  for (int mtu : {1500, 9000}) {
    for (double gbps : {10.0, 25.0, 100.0}) {
      NetworkConfig cfg;
      cfg.framing.mtu = mtu;
      Star s(2, gbps, cfg);
      // Closed loop of 4 outstanding 1 MiB messages on one flow from esx0 to esx1.
      s.sink.on_done = [&](std::uint64_t t) { s.net.send(t, 0, 1, 1_MiB, 42); };
      for (std::uint64_t t = 0; t < 4; ++t) s.net.send(t, 0, 1, 1_MiB, 42);
      s.engine.run_until(2_ms);
      s.net.reset_stats();
      s.engine.run_until(52_ms);
      const double measured = static_cast<double>(s.net.rx_payload(1).count()) / 0.050;
      const double expected = line_payload_bytes_per_s(gbps, cfg.framing);   // e.g. 1176.9 MB/s at 10G/1500
      INFO("mtu " << mtu << " gbps " << gbps << " expected MB/s " << expected * 1e-6);
      CHECK(measured == Approx(expected).epsilon(0.02));
      CHECK(measured <= expected * 1.001);
    }
  }
}

TEST_CASE("Network: two flows through one egress port share it evenly") {
  // esx0 -> esx2 and esx1 -> esx2: the switch port towards esx2 is the bottleneck.
  Star s(3, 10.0);
  std::int64_t bytes[2] = {0, 0};
  s.sink.on_done = [&](std::uint64_t t) {
    const int src = static_cast<int>(t % 2);
    bytes[src] += 256 * 1024;
    s.net.send(t, src, 2, 256_KiB, static_cast<std::uint64_t>(src));
  };
  for (std::uint64_t t = 0; t < 8; ++t) s.net.send(t, static_cast<int>(t % 2), 2, 256_KiB, t % 2);
  s.engine.run_until(5_ms);
  bytes[0] = bytes[1] = 0;
  s.engine.run_until(105_ms);
  const double total = static_cast<double>(bytes[0] + bytes[1]) / 0.1;
  const double expected = line_payload_bytes_per_s(10.0, s.net.framing());
  CHECK(total == Approx(expected).epsilon(0.02));            // the port is kept full
  CHECK(static_cast<double>(bytes[0]) == Approx(static_cast<double>(bytes[1])).epsilon(0.02));   // split evenly
}

TEST_CASE("Network: two flows leaving one host share its NIC port evenly") {
  Star s(3, 10.0);
  std::int64_t bytes[2] = {0, 0};
  s.sink.on_done = [&](std::uint64_t t) {
    const int dst = 1 + static_cast<int>(t % 2);
    bytes[dst - 1] += 1 << 20;
    s.net.send(t, 0, dst, 1_MiB, t % 2);
  };
  for (std::uint64_t t = 0; t < 2; ++t) s.net.send(t, 0, 1 + static_cast<int>(t % 2), 1_MiB, t % 2);
  s.engine.run_until(10_ms);
  bytes[0] = bytes[1] = 0;
  s.engine.run_until(110_ms);
  CHECK(static_cast<double>(bytes[0]) == Approx(static_cast<double>(bytes[1])).epsilon(0.02));
}

TEST_CASE("Network: an unloaded small message takes exactly the sum of its hops") {
  Star s(2, 25.0);
  s.net.send(7, 0, 1, 100_B, 1);
  s.engine.run();
  // 100 B of TCP payload = one frame of 100 + 52 + 38 = 190 wire bytes.
  const double serial_ns = 190 * 8.0 / 25.0;                  // 60.8 ns per 25 GbE port
  const double expected_ns = 5000        // sender NIC + stack
                             + serial_ns + 50 + 800          // esx0 port, cable, switch
                             + serial_ns + 50                // switch port to esx1, cable
                             + 5000;                         // receiver NIC + stack
  CHECK(static_cast<double>(s.sink.delivered.at(7).count_ns()) == Approx(expected_ns).margin(2.0));
}

TEST_CASE("Network: a large message pipelines across hops instead of storing it at each one") {
  Star s(2, 10.0);
  s.net.send(1, 0, 1, 64_KiB, 1);
  s.engine.run();
  const Framing& f = s.net.framing();
  const double wire = static_cast<double>(f.wire_bytes(64_KiB).count());
  const double frame = static_cast<double>(f.wire_per_frame());
  // Serialise once on the first port, plus one frame of store-and-forward at the switch.
  const double expected_ns = 5000 + wire * 0.8 + 50 + 800 + frame * 0.8 + 50 + 5000;
  CHECK(static_cast<double>(s.sink.delivered.at(1).count_ns()) == Approx(expected_ns).margin(3.0));
}

TEST_CASE("Network: a receive queue adds its service to an unloaded message and counts it as busy") {
  Star s(2, 25.0);
  s.net.set_receive(1, 4, 0.5);   // 0.5 ns per payload byte: 16 Gbit/s per queue
  s.net.send(7, 0, 1, 100_B, 1);
  s.engine.run();
  const double serial_ns = 190 * 8.0 / 25.0;
  const double expected_ns = 5000 + serial_ns + 50 + 800 + serial_ns + 50 + 5000 + 100 * 0.5;
  CHECK(static_cast<double>(s.sink.delivered.at(7).count_ns()) == Approx(expected_ns).margin(2.0));
  CHECK(s.net.receive_busy(1).count_ns() == 50);
  CHECK(s.net.receive_busy(0).count_ns() == 0);   // the sender has no queues
  CHECK(s.net.receive_queues(1) == 4);
  CHECK(s.net.receive_queues(0) == 0);
}

TEST_CASE("Network: receive interrupt moderation holds a landing on an idle queue to one interrupt per interval") {
  // One queue at 0.5 ns per byte, 50 us between interrupts. A lone message raises one at
  // once; a second that lands about 21 us after it waits for the interrupt 50 us after the
  // first; a third long after both raises one at once again. Without moderation none waits.
  // Through one port the queue is reserved as the segment goes onto the last link; through
  // two LACP ports, as it lands: both give the same times.
  struct Case {
    double interval_us;
    int ports;
  };
  for (const Case c : {Case{50.0, 1}, Case{0.0, 1}, Case{50.0, 2}}) {
    Star s(2, 25.0, {}, c.ports, c.ports > 1 ? Teaming::lacp : Teaming::failover, c.interval_us);
    s.net.set_receive(1, 1, 0.5);
    const double serial_ns = 190 * 8.0 / 25.0;
    const double unloaded_ns = 5000 + serial_ns + 50 + 800 + serial_ns + 50 + 5000 + 100 * 0.5;
    auto at_ns = [&](std::uint64_t token) { return static_cast<double>(s.sink.delivered.at(token).count_ns()); };
    s.net.send(1, 0, 1, 100_B, 1);
    s.engine.run();
    INFO("interval " << c.interval_us << " us, " << c.ports << " ports");
    CHECK(at_ns(1) == Approx(unloaded_ns).margin(2.0));
    const double land_1 = unloaded_ns - 50;   // before its queue service
    s.engine.run_until(s.engine.now() + 10_us);
    const double sent_2 = static_cast<double>(s.engine.now().count_ns());
    s.net.send(2, 0, 1, 100_B, 2);
    s.engine.run();
    if (c.interval_us > 0) {
      CHECK(sent_2 + unloaded_ns - 50 < land_1 + 50e3);   // it lands inside the interval
      CHECK(at_ns(2) == Approx(land_1 + 50e3 + 50).margin(2.0));
    } else {
      CHECK(at_ns(2) - sent_2 == Approx(unloaded_ns).margin(2.0));
    }
    s.engine.run_until(s.engine.now() + 200_us);
    const double sent_3 = static_cast<double>(s.engine.now().count_ns());
    s.net.send(3, 0, 1, 100_B, 3);
    s.engine.run();
    CHECK(at_ns(3) - sent_3 == Approx(unloaded_ns).margin(2.0));
  }
}

TEST_CASE("Network: a segment that lands while its queue's thread is busy is polled up, not held for an interrupt") {
  // esx1's one queue takes 2 ns per byte: a 64 KiB message keeps it busy for 131 us after it
  // lands (an interrupt at once: the queue's first). A 100 B message that lands 20-odd us
  // later, while the thread is busy, is served right after it, 0.2 us on. Held for the next
  // interrupt instead, 1 ms after the first, it would come almost 1 ms later.
  for (const double interval_us : {1000.0, 0.0}) {
    Star s(3, 25.0, {}, 1, Teaming::failover, interval_us);
    s.net.set_receive(1, 1, 2.0);
    s.net.send(1, 0, 1, 64_KiB, 1);
    s.engine.run_until(40_us);
    s.net.send(2, 2, 1, 100_B, 2);
    s.engine.run();
    const Time big = s.sink.delivered.at(1), small = s.sink.delivered.at(2);
    INFO("interval " << interval_us << " us: big delivered at " << big.count_ns() << " ns");
    CHECK(big.count_ns() > 131'000);
    CHECK(big.count_ns() < 200'000);
    CHECK((small - big).count_ns() == 100 * 2);
  }
}

TEST_CASE("Network: receive queues cap a host's goodput at their rate, and one flow keeps to one queue") {
  // Four senders to esx0 over 100 GbE, 1 MiB messages; each queue takes 0.4 ns per byte
  // (2.5 GB/s, 20 Gbit/s). One queue: 2.5 GB/s. Four queues over many flows (a new flow per
  // message): 10 GB/s, below the port's 11.8 GB/s of payload. Four queues, one flow: 2.5 GB/s.
  struct Case {
    int queues;
    bool one_flow;
    double expected_bytes_per_s;
  };
  for (const Case c : {Case{1, false, 2.5e9}, Case{4, false, 10e9}, Case{4, true, 2.5e9}}) {
    Star s(5, 100.0);
    s.net.set_receive(0, c.queues, 0.4);
    std::uint64_t next = 0;
    auto send = [&](std::uint64_t t) {
      s.net.send(t, 1 + static_cast<int>(t % 4), 0, 1_MiB, c.one_flow ? 9 : next++);
    };
    s.sink.on_done = [&](std::uint64_t t) { send(t); };
    for (std::uint64_t t = 0; t < 64; ++t) send(t);
    s.engine.run_until(5_ms);
    s.net.reset_stats();
    s.engine.run_until(55_ms);
    const double measured = static_cast<double>(s.net.rx_payload(0).count()) / 0.050;
    const double busy = static_cast<double>(s.net.receive_busy(0).count_ns()) / 50e6;   // queue threads busy
    INFO(c.queues << " queues, one flow " << c.one_flow << ": " << measured * 1e-9 << " GB/s, " << busy
                  << " threads busy, busiest " << s.net.receive_utilisation_max(0));
    CHECK(measured == Approx(c.expected_bytes_per_s).epsilon(c.queues == 4 && !c.one_flow ? 0.05 : 0.02));
    CHECK(measured <= c.expected_bytes_per_s * 1.01);
    CHECK(s.net.receive_utilisation_max(0) > 0.97);
    double threads = 0;   // the queues' busy fractions add up to the busy threads
    for (double u : s.net.receive_queue_utilisation(0)) threads += u;
    CHECK(threads == Approx(busy));
    CHECK(busy == Approx(c.one_flow ? 1.0 : c.queues).epsilon(0.01));   // work ahead of the clock not counted
  }
}

TEST_CASE("Network: a host with two LACP ports serves its receive queue in landing order") {
  // Two 25 GbE ports into every host; esx0 has one queue at 0.1 ns per byte (10 GB/s, faster
  // than a port). Four senders flood esx0's first port with 20 MiB, which takes it 7 ms; a
  // 1 KiB probe on a flow that takes the second port must not wait for that backlog: its
  // queue is reserved when it lands, not behind segments still waiting for the first port.
  Star s(5, 25.0, {}, 2, Teaming::lacp);
  s.net.set_receive(0, 1, 0.1);
  auto into_esx0 = [&] {
    std::vector<std::int64_t> v;
    for (const PortReport& p : s.net.ports())
      if (p.from == "tor" && p.to == "esx0") v.push_back(p.payload_bytes.count());
    return v;
  };
  std::vector<std::uint64_t> flows[2];   // flows by the port into esx0 they take
  for (std::uint64_t f = 1000; flows[0].size() < 4 || flows[1].empty(); ++f) {
    const std::vector<std::int64_t> before = into_esx0();
    s.net.send(f, 1, 0, 1_KiB, f);
    s.engine.run();
    flows[into_esx0()[0] != before[0] ? 0 : 1].push_back(f);
  }
  const Time t0 = s.engine.now();
  for (int sender = 1; sender <= 4; ++sender)
    for (std::uint64_t i = 0; i < 20; ++i) s.net.send(100 + i, sender, 0, 256_KiB, flows[0][static_cast<std::size_t>(sender - 1)]);
  s.engine.run_until(t0 + 100_us);   // the first port's backlog is forming
  const Time sent = s.engine.now();
  s.net.send(7, 2, 0, 1_KiB, flows[1][0]);
  s.engine.run();
  const double probe_us = static_cast<double>((s.sink.delivered.at(7) - sent).count_ns()) / 1e3;
  const double flood_ms = static_cast<double>((s.sink.delivered.at(119) - t0).count_ns()) / 1e6;
  INFO("probe " << probe_us << " us, flood done after " << flood_ms << " ms");
  CHECK(flood_ms > 5.0);
  CHECK(probe_us < 30.0);   // unloaded: 2 x 5 us of NICs, two hops, the queue's 0.1 us
}

TEST_CASE("Network: bad receive queues are rejected with the host's name") {
  Star s(2, 25.0);
  CHECK_THROWS_WITH(s.net.set_receive(0, 65, 0.4), Catch::Contains("esx0 receive queues") && Catch::Contains("64"));
  CHECK_THROWS_WITH(s.net.set_receive(0, 4, -1), Catch::Contains("esx0 receive ns per byte"));
  CHECK_THROWS_WITH(s.net.set_receive(0, 4, 1e12), Catch::Contains("esx0 receive ns per byte"));
  CHECK_THROWS_WITH(s.net.set_receive(5, 4, 0.4), Catch::Contains("network host index"));
  s.net.set_receive(0, 4, 0.4);
  CHECK_THROWS_WITH(s.net.set_receive(0, 4, 0.4), Catch::Contains("twice"));
}

TEST_CASE("Network: a host's delivered traffic exceeds its link when part of the I/O is local") {
  // Every host reads from every host including itself; bytes from itself never touch the NIC.
  const int hosts = 4;
  Star s(hosts, 10.0);
  std::vector<std::int64_t> delivered(hosts, 0);
  auto target = [&](std::uint64_t t) { return static_cast<int>((t / hosts) % hosts); };
  auto reader = [&](std::uint64_t t) { return static_cast<int>(t % hosts); };
  // Each read is re-issued after 50 us (the device read at the target), so local reads,
  // which cost no network time, do not loop at one instant.
  struct Reissue final : EventHandler {
    std::function<void(std::uint64_t)> fn;
    void on_event(Engine&, EventTag, std::uint64_t t) override { fn(t); }
  } reissue;
  reissue.fn = [&](std::uint64_t t) { s.net.send(t, target(t), reader(t), 256_KiB, t); };
  s.sink.on_done = [&](std::uint64_t t) {
    delivered[static_cast<std::size_t>(reader(t))] += 256 * 1024;
    s.engine.schedule_after(50_us, reissue, 0, t);
  };
  for (std::uint64_t t = 0; t < hosts * hosts * 2; ++t) s.net.send(t, target(t), reader(t), 256_KiB, t);
  s.engine.run_until(5_ms);
  std::fill(delivered.begin(), delivered.end(), 0);
  s.net.reset_stats();
  s.engine.run_until(105_ms);
  const double link = line_payload_bytes_per_s(10.0, s.net.framing());
  for (int h = 0; h < hosts; ++h) {
    const double rate = static_cast<double>(delivered[static_cast<std::size_t>(h)]) / 0.1;
    const double remote = static_cast<double>(s.net.rx_payload(h).count()) / 0.1;
    const double local = static_cast<double>(s.net.local_payload(h).count()) / 0.1;
    INFO("host " << h << ": delivered " << rate << " B/s, remote " << remote << ", local " << local);
    // Six of a host's eight streams are remote and fill its link: goodput, not more.
    CHECK(remote <= link * 1.001);
    CHECK(remote == Approx(link).epsilon(0.02));
    // Two are local: no network time, so each loops every 50 us (256 KiB per loop).
    CHECK(local == Approx(2 * 256.0 * 1024 / 50e-6).epsilon(0.01));
    CHECK(rate == Approx(remote + local).epsilon(0.01));   // delivered = both, beyond the link
  }
}

TEST_CASE("Network: LACP spreads flows over active ports, failover teaming uses one") {
  for (Teaming teaming : {Teaming::failover, Teaming::lacp}) {
    Star s(5, 10.0, {}, 2, teaming);
    std::int64_t bytes = 0;
    // esx0 sends to 4 hosts on 16 flows.
    s.sink.on_done = [&](std::uint64_t t) {
      bytes += 1 << 20;
      s.net.send(t, 0, 1 + static_cast<int>(t % 4), 1_MiB, t);
    };
    for (std::uint64_t t = 0; t < 16; ++t) s.net.send(t, 0, 1 + static_cast<int>(t % 4), 1_MiB, t);
    s.engine.run_until(10_ms);
    bytes = 0;
    s.engine.run_until(110_ms);
    const double rate = static_cast<double>(bytes) / 0.1;
    const double one_port = line_payload_bytes_per_s(10.0, s.net.framing());
    INFO((teaming == Teaming::lacp ? "lacp" : "failover"));
    if (teaming == Teaming::failover) CHECK(rate == Approx(one_port).epsilon(0.02));
    else CHECK(rate > 1.5 * one_port);
  }
}

TEST_CASE("Network: a host's sent payload counts every remote transfer, over all its ports") {
  // Counted by the host's ports (a LACP team of two here), so local transfers do not count.
  Star s(3, 10.0, {}, 2, Teaming::lacp);
  std::int64_t sent0 = 0;
  for (std::uint64_t t = 0; t < 12; ++t) {
    const std::int64_t bytes = 1000 + 70000 * static_cast<std::int64_t>(t);   // 1 to 13 segments
    s.net.send(t, 0, 1 + static_cast<int>(t % 2), Bytes{bytes}, t);
    sent0 += bytes;
  }
  s.net.send(100, 1, 2, 4_KiB, 100);
  s.net.send(101, 1, 1, 8_KiB, 101);   // local
  s.engine.run();
  CHECK(s.net.tx_payload(0).count() == sent0);
  CHECK(s.net.tx_payload(1).count() == 4096);
  CHECK(s.net.tx_payload(2).count() == 0);
  CHECK(s.net.local_payload(1).count() == 8192);
  CHECK(s.net.rx_payload(1).count() + s.net.rx_payload(2).count() == sent0 + 4096);
  s.net.reset_stats();
  CHECK(s.net.tx_payload(0).count() == 0);
}

TEST_CASE("Network: one flow never spans two LACP ports") {
  Star s(2, 10.0, {}, 2, Teaming::lacp);
  s.sink.on_done = [&](std::uint64_t t) { s.net.send(t, 0, 1, 1_MiB, 99); };
  for (std::uint64_t t = 0; t < 8; ++t) s.net.send(t, 0, 1, 1_MiB, 99);
  s.engine.run_until(10_ms);
  s.net.reset_stats();
  s.engine.run_until(60_ms);
  const double rate = static_cast<double>(s.net.rx_payload(1).count()) / 0.05;
  CHECK(rate == Approx(line_payload_bytes_per_s(10.0, s.net.framing())).epsilon(0.02));
}

TEST_CASE("Network: leaf-spine routes over both spines and sums hop latencies") {
  Engine engine;
  Sink sink;
  sink.engine = &engine;
  Network net(engine, {}, sink);
  const auto spine0 = net.add_switch("spine0", tor(100, 0.6));
  const auto spine1 = net.add_switch("spine1", tor(100, 0.6));
  const auto leaf0 = net.add_switch("leaf0", tor(25, 0.8));
  const auto leaf1 = net.add_switch("leaf1", tor(25, 0.8));
  for (auto leaf : {leaf0, leaf1})
    for (auto spine : {spine0, spine1}) net.connect(leaf, spine, 100);
  for (int h = 0; h < 4; ++h) {
    const int id = net.add_host("esx" + std::to_string(h), nic(25));
    net.connect(net.host_node(id), h < 2 ? leaf0 : leaf1, 25);
  }
  net.finalize();
  CHECK(net.path(0, 1, 5) == std::vector<std::string>{"esx0", "leaf0", "esx1"});
  std::map<std::string, int> via;
  for (std::uint64_t flow = 0; flow < 64; ++flow) {
    const auto p = net.path(0, 2, flow);
    REQUIRE(p.size() == 5);
    CHECK(p[1] == "leaf0");
    CHECK(p[3] == "leaf1");
    ++via[p[2]];
  }
  CHECK(via["spine0"] > 16);
  CHECK(via["spine1"] > 16);
  // Unloaded 100 B: sender NIC, 25G port, leaf, 100G uplink, spine, 100G downlink, leaf, 25G port.
  net.send(1, 0, 2, 100_B, 3);
  engine.run();
  const double at25 = 190 * 8.0 / 25.0, at100 = 190 * 8.0 / 100.0;
  const double expected = 5000 + at25 + 50 + 800 + at100 + 50 + 600 + at100 + 50 + 800 + at25 + 50 + 5000;
  CHECK(static_cast<double>(sink.delivered.at(1).count_ns()) == Approx(expected).margin(4.0));
}

TEST_CASE("Network: two hosts cabled directly need no switch") {
  Engine engine;
  Sink sink;
  sink.engine = &engine;
  Network net(engine, {}, sink);
  const int a = net.add_host("esx-a", nic(10));
  const int b = net.add_host("esx-b", nic(10));
  net.connect(net.host_node(a), net.host_node(b), 10);
  net.finalize();
  net.send(1, a, b, 4_KiB, 1);
  engine.run();
  CHECK(sink.delivered.count(1) == 1);
  CHECK(net.path(a, b, 1) == std::vector<std::string>{"esx-a", "esx-b"});
}

TEST_CASE("Network: bad topologies and figures are rejected with the offending name") {
  Engine engine;
  Sink sink;
  Network net(engine, {}, sink);
  const int a = net.add_host("esx-a", nic(10, 2));
  const int b = net.add_host("esx-b", nic(10, 2));
  const int c = net.add_host("esx-c", nic(10, 2));
  const auto sw = net.add_switch("tor", tor(10));
  net.connect(net.host_node(a), sw, 10);
  net.connect(net.host_node(b), sw, 10);
  // Hosts never forward: esx-c behind esx-b is unreachable for esx-a.
  net.connect(net.host_node(c), net.host_node(b), 10);
  CHECK_THROWS_WITH(net.finalize(), Catch::Contains("esx-a") && Catch::Contains("cannot reach") &&
                                        Catch::Contains("esx-c"));
  CHECK_THROWS_WITH(net.connect(net.host_node(a), sw, 11), Catch::Contains("gbps") && Catch::Contains("10, 25"));
  CHECK_THROWS_WITH(net.connect(net.host_node(a), sw, 25), Catch::Contains("NIC speed of esx-a"));
  CHECK_THROWS_WITH(net.connect(net.host_node(a), sw, 10, 2), Catch::Contains("lanes"));
  CHECK_THROWS_WITH(net.add_host("esx-d", nic(10, 2), 2, Teaming::failover), Catch::Contains("failover"));
  NicSpec bad = nic(10);
  bad.latency_us = std::nan("");
  CHECK_THROWS_WITH(net.add_host("esx-e", bad), Catch::Contains("latency_us"));
  CHECK_THROWS_WITH(net.send(1, 0, 1, 1_KiB, 1), Catch::Contains("before finalize"));
}

TEST_CASE("Fabric: a leaf-spine's uplinks cap cross-leaf traffic, impossible fabrics are rejected") {
  Engine engine;
  Sink sink;
  sink.engine = &engine;
  Network net(engine, {}, sink);
  FabricSpec f;
  f.kind = FabricKind::leaf_spine;
  f.nic = nic(25);
  f.leaf = tor(25);
  f.spine = tor(100);
  f.hosts_per_leaf = 4;
  f.spines = 1;
  f.uplink_gbps = 25;   // 4 x 25 GbE hosts behind one 25 GbE uplink: 4:1 oversubscribed
  build_fabric(net, f, {"a0", "a1", "a2", "a3", "b0", "b1", "b2", "b3"});
  CHECK(net.path(0, 5, 1) == std::vector<std::string>{"a0", "leaf0", "spine0", "leaf1", "b1"});
  std::int64_t bytes = 0;
  // Every host of leaf0 streams to its partner on leaf1.
  sink.on_done = [&](std::uint64_t t) {
    bytes += 1 << 20;
    net.send(t, static_cast<int>(t % 4), 4 + static_cast<int>(t % 4), 1_MiB, t);
  };
  for (std::uint64_t t = 0; t < 16; ++t) net.send(t, static_cast<int>(t % 4), 4 + static_cast<int>(t % 4), 1_MiB, t);
  engine.run_until(10_ms);
  net.reset_stats();
  engine.run_until(60_ms);
  std::int64_t received = 0;
  for (int h = 4; h < 8; ++h) received += net.rx_payload(h).count();
  CHECK(bytes > 0);
  CHECK(static_cast<double>(received) / 0.05 == Approx(line_payload_bytes_per_s(25, net.framing())).epsilon(0.02));

  Engine e2;
  Network n2(e2, {}, sink);
  FabricSpec d;
  d.kind = FabricKind::direct;
  d.nic = nic(10);
  CHECK_THROWS_WITH(build_fabric(n2, d, {"x", "y", "z"}), Catch::Contains("exactly 2"));
  Engine e3;
  Network n3(e3, {}, sink);
  FabricSpec small;
  small.nic = nic(10);
  small.leaf = tor(10);
  small.leaf.ports = 2;
  CHECK_THROWS_WITH(build_fabric(n3, small, {"x", "y", "z"}), Catch::Contains("ports needed = 3"));
}
