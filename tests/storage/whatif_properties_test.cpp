// What-if answers that must move the right way whatever the calibration: scaling out with
// the VMs, and the orderings of protection levels for small random writes and for capacity.
// Each is an argument from the amplification rules (docs/sources.md [S23] [S38] [S39] [S47] [S52]), not a
// number taken from a run. (A larger read share is not one of them: at low queue depth an
// SSD acknowledges a write from its protected DRAM faster than it reads NAND, PM1733 18 us
// against 77 us, so an ESA cluster's write-only run can outpace its read-only one.)
#include <catch2/catch.hpp>

#include "cluster_fixtures.hpp"
#include "hcisim/storage/capacity.hpp"
#include "hcisim/model/workload/vm_workload.hpp"
#include "hcisim/workload/workload_result.hpp"

using namespace hcisim;
using namespace hcisim::literals;

namespace {

double iops(const ClusterSpec& spec, const WorkloadSpec& w) { return test::closed_loop(spec, w, 3, 20_ms, 150_ms).iops; }

}  // namespace

TEST_CASE("scaling out with the VMs: IOPS per host stays flat from 4 to 8 hosts", "[whatif]") {
  // One VM per host (vms = 0), RAID-1 FTT 1: each host adds the same devices, links and CPU
  // as its VM adds load; only placement spreads differ.
  for (bool esa : {false, true}) {
    WorkloadSpec w;
    w.outstanding_per_vmdk = 8;
    const double four = iops(esa ? test::esa_cluster(4) : test::osa_cluster(4), w) / 4;
    const double eight = iops(esa ? test::esa_cluster(8) : test::osa_cluster(8), w) / 8;
    INFO((esa ? "ESA" : "OSA") << ": per host " << four << " on 4 hosts, " << eight << " on 8");
    CHECK(eight == Approx(four).epsilon(0.10));
  }
}

TEST_CASE("small random writes: more protection, fewer IOPS, capacity the other way", "[whatif]") {
  // Device writes per guest write: RAID-1 FTT 1 two, FTT 2 three; OSA RAID-5 and RAID-6 read
  // and rewrite data and parity (2 + 2, 3 + 3 operations and a round trip more).
  WorkloadSpec w;
  w.read_pct = 0;
  w.vmdks_per_vm = 2;
  w.outstanding_per_vmdk = 4;
  auto with = [](StoragePolicy p) {
    ClusterSpec c = test::osa_cluster(6);
    c.policy = p;
    return c;
  };
  const ClusterSpec r1 = with({RaidLevel::raid1, 1}), r1f2 = with({RaidLevel::raid1, 2}),
                    r5 = with({RaidLevel::raid5, 1}), r6 = with({RaidLevel::raid6, 2});
  const double a = iops(r1, w), b = iops(r1f2, w), c = iops(r5, w), d = iops(r6, w);
  INFO("RAID-1 FTT 1 " << a << ", RAID-1 FTT 2 " << b << ", RAID-5 " << c << ", RAID-6 " << d);
  CHECK(a > b);
  CHECK(a > c);
  CHECK(c > d);
  const DataProfile none{};
  const double u1 = capacity(r1, none).usable_gb, u1f2 = capacity(r1f2, none).usable_gb,
               u5 = capacity(r5, none).usable_gb, u6 = capacity(r6, none).usable_gb;
  CHECK(u1f2 < u1);
  CHECK(u1 < u6);   // RAID-6 4+2 stores 1.5x, RAID-1 FTT 1 2x
  CHECK(u6 < u5);   // RAID-5 3+1 stores 1.33x
  CHECK(u5 / u1 == Approx(2.0 / (4.0 / 3.0)).epsilon(1e-9));
}
