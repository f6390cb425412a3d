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
    cluster.submit(token++, obj, client, op, 64 * 4096 * token, 4_KiB);
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
