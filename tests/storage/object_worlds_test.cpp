// One ESA object's DOM client worlds (ClusterCore::client_worlds_, EsaSettings::client_worlds):
// before vSAN 8.0 U2 one world runs an object's DOM client work; 8.0 U2 added helper threads
// to the object manager client ([S248] [S250]). The oracles: a saturated single server
// completes 1 / (its work per job) jobs per second; c busy servers c times that.
#include <catch2/catch.hpp>

#include <array>

#include "cluster_fixtures.hpp"
#include "hcisim/model/storage/cluster.hpp"
#include "hcisim/model/workload/vm_workload.hpp"
#include "hcisim/workload/workload_result.hpp"

using namespace hcisim;
using namespace hcisim::literals;

namespace object_worlds_test {

struct Loop {
  double iops = 0;
  double world_busy = 0;     // the object's worlds' busy share
  double work_ns = 0;        // the DOM client job of one 4 KiB read: dom_client + checksum
};

// One VM with `vmdks` VMDKs at `outstanding` each, 4 KiB random reads, on a 3-host ESA cluster of
// `release` (RAID-1 FTT 1, checksum on, no compression or encryption, no client cache). The
// DOM client costs 40 us per I/O at the reference clock, about the calibrated one (8 us x
// vsan_cpu_scale 5.86), so its worlds bind before the NIC or the devices do.
Loop run(VsanRelease release, int vmdks, int outstanding, int worlds = EsaSettings::kWorldsByRelease) {
  ClusterSpec spec = test::esa_cluster(3);
  spec.release = release;
  spec.esa.client_worlds = worlds;
  spec.services.compression = false;
  spec.cpu_costs.dom_client_us = 40;
  WorkloadSpec w;
  w.vms = 1;
  w.vmdks_per_vm = vmdks;
  w.outstanding_per_vmdk = outstanding;
  w.read_pct = 100;
  Loop out;
  out.iops = test::closed_loop(spec, w, 7, 20_ms, 200_ms, [&out](const Cluster& cluster) {
    for (int o = 0; o < cluster.objects(); ++o)
      out.world_busy += cluster.client_world_utilisation(o) / cluster.objects();
    const HostCpu& cpu = cluster.cpu(cluster.object_client_host(0));
    out.work_ns =
        static_cast<double>((cpu.cost(CpuStage::dom_client, 4_KiB) + cpu.cost(CpuStage::checksum, 4_KiB)).count_ns());
  }).iops;
  return out;
}

}  // namespace object_worlds_test

using object_worlds_test::run;

TEST_CASE("the worlds of one ESA object's DOM client: one before 8.0 U2, helpers from it, none on OSA") {
  ClusterSpec spec = test::esa_cluster(3);
  for (VsanRelease r : {VsanRelease::v8_0, VsanRelease::v8_0u1}) {
    spec.release = r;
    CHECK(esa_client_worlds(spec) == 1);
  }
  for (VsanRelease r : {VsanRelease::v8_0u2, VsanRelease::v8_0u3}) {
    spec.release = r;
    CHECK(esa_client_worlds(spec) == EsaSettings::kHelperWorlds);
  }
  spec.esa.client_worlds = 2;
  CHECK(esa_client_worlds(spec) == 2);   // stated: the release does not move it
  CHECK(esa_client_worlds(test::osa_cluster(3)) == 0);
}

TEST_CASE("one VMDK at a deep queue on ESA 8.0: its DOM client world saturates at 1 / its work per I/O") {
  const auto one = run(VsanRelease::v8_0, 1, 64);
  INFO("IOPS " << one.iops << ", world busy " << one.world_busy << ", work per I/O " << one.work_ns << " ns");
  CHECK(one.world_busy > 0.99);
  CHECK(one.iops == Approx(1e9 / one.work_ns).epsilon(0.02));
}

TEST_CASE("spreading a busy VM over several VMDKs: the what-if moves for one object's DOM client world") {
  // Same VM, same 64 outstanding I/Os, 4 KiB reads, the client's 25 GbE NIC far from full:
  // on one VMDK the object's single world (8.0) caps the VM; over eight VMDKs eight worlds
  // share the work and the VM goes faster. PVSCSI's per-disk queue (64) does not bind either
  // way. From 8.0 U2 the helper threads narrow the difference.
  const auto one_80 = run(VsanRelease::v8_0, 1, 64);
  const auto eight_80 = run(VsanRelease::v8_0, 8, 8);
  const auto one_u3 = run(VsanRelease::v8_0u3, 1, 64);
  const auto eight_u3 = run(VsanRelease::v8_0u3, 8, 8);
  INFO("8.0: " << one_80.iops << " vs " << eight_80.iops << "; 8.0 U3: " << one_u3.iops << " vs " << eight_u3.iops);
  CHECK(eight_80.iops == Approx(8 * one_80.iops).epsilon(0.03));   // eight single worlds, each saturated
  CHECK(eight_80.world_busy > 0.97);
  CHECK(one_u3.iops == Approx(4 * one_80.iops).epsilon(0.05));      // four worlds, not one
  CHECK(eight_u3.world_busy < 0.8);                                 // bound elsewhere: the worlds have room
  CHECK(eight_u3.iops / one_u3.iops < eight_80.iops / one_80.iops / 2);   // the helpers narrow the gain
}

TEST_CASE("four DOM client worlds of one object do four times one world's work when they are the bottleneck") {
  const auto one = run(VsanRelease::v8_0u3, 1, 128, 1);
  const auto four = run(VsanRelease::v8_0u3, 1, 128, 4);
  INFO("one world " << one.iops << ", four " << four.iops << ", busy " << four.world_busy);
  REQUIRE(four.world_busy > 0.97);   // still the bottleneck with four
  CHECK(four.iops == Approx(4 * one.iops).epsilon(0.05));
}

TEST_CASE("ESA's CPU factor prices its log-structured back end, not the DOM layers it shares with OSA") {
  // ESA keeps vSAN's DOM owner (its latency is named on ESA [S246]) and DOM client (8.0 U2 gave
  // it helper threads [S250]), ASSUMED at OSA's cost; the saving per I/O VMware names is data
  // services done once at the source ([S42]), which are their own stages: the factor scales the
  // component stage (zDOM/LFS) alone. The OSA fixture runs its component on shared cores.
  ClusterSpec esa = test::esa_cluster(3);
  esa.esa.cpu_per_io_factor = 0.5;
  ClusterSpec osa = test::osa_cluster(3);
  REQUIRE(osa.osa.lsom_worlds_per_dg == 0);   // else LSOM's cost_factor would apply
  auto costs = [](const ClusterSpec& spec) {
    Engine engine;
    test::Recorder rec;
    Cluster cluster(engine, spec, DataProfile{}, 1, rec);
    const HostCpu& cpu = cluster.cpu(0);
    return std::array<double, 3>{static_cast<double>(cpu.cost(CpuStage::dom_client, 4_KiB).count_ns()),
                                 static_cast<double>(cpu.cost(CpuStage::dom_owner, 4_KiB).count_ns()),
                                 static_cast<double>(cpu.cost(CpuStage::component, 4_KiB).count_ns())};
  };
  const auto e = costs(esa), o = costs(osa);
  CHECK(e[0] == o[0]);
  CHECK(e[1] == o[1]);
  CHECK(e[2] == Approx(0.5 * o[2]).margin(1));
}
