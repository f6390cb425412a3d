// The latency split's layers at the storage level (latency_split.hpp): an object whose DOM owner
// is on another host than its client pays the client-owner hop and the owner's CPU on its own
// host; one owned on the client's host shares the client's CPU job, whose time goes to the DOM
// client and the DOM owner in proportion to their work.
#include <catch2/catch.hpp>

#include <vector>

#include "cluster_fixtures.hpp"
#include "hcisim/model/core/engine.hpp"
#include "hcisim/model/storage/cluster.hpp"
#include "hcisim/storage/latency_split.hpp"

using namespace hcisim;
using namespace hcisim::literals;

namespace latency_layers_test {

// Keeps each completed I/O's split and when it completed.
struct SplitRecorder final : IoClient {
  Engine* engine = nullptr;
  std::vector<LatencyParts> splits;
  std::vector<Time> at;
  void on_io_done(Cluster& c, std::uint64_t) override {
    splits.push_back(c.completing_split());
    at.push_back(engine->now());
  }
};

Time part(const LatencyParts& s, LatencyPart p) { return s[part_index(p)]; }

Time sum(const LatencyParts& s) {
  Time t = Time::zero();
  for (const Time& x : s) t += x;
  return t;
}

// One I/O at a time on an idle cluster: each split against the I/O's own latency.
std::vector<LatencyParts> one_at_a_time(const ClusterSpec& spec, int owner, int client) {
  Engine engine;
  SplitRecorder rec;
  rec.engine = &engine;
  Cluster cluster(engine, spec, {}, 3, rec);
  const int obj = cluster.add_object(owner, 1_GiB, 1_GiB);
  std::vector<LatencyParts> out;
  std::uint64_t token = 1;
  for (const IoOp op : {IoOp::write, IoOp::read, IoOp::write, IoOp::read}) {
    const Time start = engine.now();
    const std::uint64_t t = token++;
    cluster.submit(t, obj, client, op, 64 * 4096 * t, 4_KiB);
    engine.run();
    REQUIRE(rec.splits.size() == out.size() + 1);
    CHECK(sum(rec.splits.back()) == rec.at.back() - start);   // exactly, in nanoseconds
    out.push_back(rec.splits.back());
  }
  return out;
}

}  // namespace latency_layers_test

using namespace latency_layers_test;

TEST_CASE("latency layers: a remote DOM owner pays the client-owner hop, its CPU on its own host") {
  for (const bool esa : {false, true}) {
    INFO((esa ? "ESA" : "OSA"));
    const ClusterSpec spec = esa ? test::esa_cluster(4) : test::osa_cluster(4);
    for (const LatencyParts& s : one_at_a_time(spec, 1, 0)) {
      CHECK(part(s, LatencyPart::client_network) > Time::zero());
      CHECK(part(s, LatencyPart::dom_owner) > Time::zero());
      CHECK(part(s, LatencyPart::dom_client) > Time::zero());
    }
    for (const LatencyParts& s : one_at_a_time(spec, 0, 0)) {
      CHECK(part(s, LatencyPart::client_network) == Time::zero());
      CHECK(part(s, LatencyPart::dom_owner) > Time::zero());
    }
  }
}

TEST_CASE("latency layers: an owner on the client's host takes its share of the client's CPU job") {
  // Only the DOM client's and the DOM owner's per-I/O work on the client's CPU, equal: at idle
  // (no wait for a core) the job's time splits in two equal parts.
  ClusterSpec spec = test::osa_cluster(4);
  spec.policy.checksum = false;
  spec.cpu_costs.guest_us = 0;
  spec.cpu_costs.vscsi_us = 0;
  spec.cpu_costs.dom_client_us = 10;
  spec.cpu_costs.dom_owner_us = 10;
  for (const LatencyParts& s : one_at_a_time(spec, 0, 0)) {
    CHECK(part(s, LatencyPart::dom_owner) > Time::zero());
    const auto diff = part(s, LatencyPart::dom_owner).count_ns() - part(s, LatencyPart::dom_client).count_ns();
    CHECK(std::abs(diff) <= 1);   // rounding to the nanosecond
  }
  // Three times the owner's work: three quarters of the job.
  spec.cpu_costs.dom_owner_us = 30;
  for (const LatencyParts& s : one_at_a_time(spec, 0, 0)) {
    const double owner = static_cast<double>(part(s, LatencyPart::dom_owner).count_ns());
    const double client = static_cast<double>(part(s, LatencyPart::dom_client).count_ns());
    CHECK(owner / (owner + client) == Approx(0.75).epsilon(1e-4));
  }
}

TEST_CASE("latency layers: on ESA the job before the DOM client world carries a local owner's share, the world's job is the DOM client's") {
  // ESA, owner on the client's host, only the DOM client's (10 us) and the DOM owner's (30 us)
  // per-I/O work: at idle the owner's job is the owner's part, the world's job the client's.
  // The first I/O's job carries nothing else; a later one also the stack work the previous
  // I/O's replies deferred to the host's next shared job, which goes with that job's time (as
  // on OSA, in proportion to the work: here all the owner's).
  ClusterSpec spec = test::esa_cluster(4);
  spec.release = VsanRelease::v8_0;
  spec.policy.checksum = false;
  spec.cpu_costs.guest_us = 0;
  spec.cpu_costs.vscsi_us = 0;
  spec.cpu_costs.dom_client_us = 10;
  spec.cpu_costs.dom_owner_us = 30;
  const std::vector<LatencyParts> splits = one_at_a_time(spec, 0, 0);
  for (std::size_t i = 0; i < splits.size(); ++i) {
    const double owner = static_cast<double>(part(splits[i], LatencyPart::dom_owner).count_ns());
    const double client = static_cast<double>(part(splits[i], LatencyPart::dom_client).count_ns());
    INFO("I/O " << i);
    if (i == 0) CHECK(owner / (owner + client) == Approx(0.75).epsilon(1e-4));
    else CHECK(owner / (owner + client) > 0.75);
    // The world's job takes no deferred work: the client's part is the same every time.
    CHECK(client == Approx(static_cast<double>(part(splits[0], LatencyPart::dom_client).count_ns())).epsilon(1e-9));
  }
}

TEST_CASE("latency layers: I/Os queued for one ESA object's DOM client world still split exactly") {
  // 16 reads submitted at once to one object on 8.0 (one world): the k-th waits for k - 1 jobs
  // of the world, in the DOM client's part, and every split sums to its latency to the nanosecond.
  for (const int owner : {0, 1}) {
    INFO("owner on host " << owner);
    ClusterSpec spec = test::esa_cluster(4);
    spec.release = VsanRelease::v8_0;
    Engine engine;
    SplitRecorder rec;
    rec.engine = &engine;
    Cluster cluster(engine, spec, {}, 3, rec);
    const int obj = cluster.add_object(owner, 1_GiB, 1_GiB);
    for (std::uint64_t t = 0; t < 16; ++t) cluster.submit(t, obj, 0, IoOp::read, 64 * 4096 * t, 4_KiB);
    engine.run();
    REQUIRE(rec.splits.size() == 16);
    Time longest_client = Time::zero();
    for (std::size_t i = 0; i < rec.splits.size(); ++i) {
      CHECK(sum(rec.splits[i]) == rec.at[i]);   // submitted at time 0
      longest_client = std::max(longest_client, part(rec.splits[i], LatencyPart::dom_client));
    }
    const Time job = cluster.cpu(0).cost(CpuStage::dom_client, 4_KiB) + cluster.cpu(0).cost(CpuStage::checksum, 4_KiB);
    CHECK(longest_client >= job * 15);   // the last one waited for fifteen jobs, then ran its own
  }
}
