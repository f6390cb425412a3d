// Parsers for what users ran: HCIBench job names, DiskSpd command lines, fio options, the
// oltp32k preset and HCIBench Easy Run's derivation from the cluster.
#include <catch2/catch.hpp>

#include "../storage/cluster_fixtures.hpp"
#include "hcisim/core/check.hpp"
#include "hcisim/model/workload/workload_parsers.hpp"

using namespace hcisim;

TEST_CASE("HCIBench fio and vdbench job names") {
  const WorkloadSpec f = parse_hcibench_name("fio-8vmdk-100ws-4k-70rdpct-100randompct-4threads-50compress-50dedupe");
  CHECK(f.tool == WorkloadTool::fio);
  CHECK(f.vmdks_per_vm == 8);
  CHECK(f.working_set_pct == 100);
  CHECK(f.block.count() == 4096);
  CHECK(f.read_pct == 70);
  CHECK(f.random_pct == 100);
  CHECK(f.outstanding_per_vmdk == 4);
  CHECK(f.compress_pct == 50);
  CHECK(f.dedupe_pct == 50);
  const WorkloadSpec v = parse_hcibench_name("vdb-8vmdk-100ws-4k-100rdpct-100randompct-8threads");
  CHECK(v.tool == WorkloadTool::vdbench);
  CHECK(v.outstanding_per_vmdk == 8);
  CHECK(v.compress_pct == 0);
  CHECK(f.guest_os == GuestOs::linux_os);   // HCIBench's test VMs run Linux
  CHECK(v.guest_os == GuestOs::linux_os);
  const WorkloadSpec s = parse_hcibench_name("fio-8vmdk-100ws-256k-0rdpct-0randompct-1threads-50compress-50dedupe");
  CHECK(s.block.count() == 256 * 1024);
  CHECK(s.read_pct == 0);
  CHECK(s.random_pct == 0);
  CHECK_THROWS_WITH(parse_hcibench_name("fio-8vmdk-100ws-4k-70rdpct"), Catch::Contains("fio|vdb-<N>vmdk"));
  CHECK_THROWS_WITH(parse_hcibench_name("iozone-8vmdk-100ws-4k-70rdpct-100randompct-4threads"),
                    Catch::Contains("'iozone'") && Catch::Contains("fio or vdb"));
  CHECK_THROWS_WITH(parse_hcibench_name("fio-8vmdk-100ws-4k-70rdpct-100randompct-4thread"),
                    Catch::Contains("'4thread'") && Catch::Contains("threads"));
  CHECK_THROWS_WITH(parse_hcibench_name("fio-8vmdk-100ws-4k-170rdpct-100randompct-4threads"),
                    Catch::Contains("read_pct"));
}

TEST_CASE("DiskSpd command lines (seed 002's run)") {
  const WorkloadSpec d = parse_diskspd("-d60 -W15 -C15 -c128M -t4 -o4 -b8k -L -r -Sh -w50 E:\\io.dat F:\\io.dat");
  CHECK(d.tool == WorkloadTool::diskspd);
  CHECK(d.guest_os == GuestOs::windows);   // Microsoft's Windows tool: the guest's CPU per I/O
  CHECK(d.duration_s == 60);
  CHECK(d.warmup_s == 15);
  CHECK(d.vmdk_size.count() == 128 << 20);
  CHECK(d.outstanding_per_vmdk == 16);   // 4 threads x 4 outstanding per target
  CHECK(d.vmdks_per_vm == 2);
  CHECK(d.block.count() == 8192);
  CHECK(d.random_pct == 100);
  CHECK(d.read_pct == 50);
  // What ran before the window is DiskSpd's own warm-up, not HCIBench's half hour.
  CHECK(d.history_s == 15);
  CHECK(parse_diskspd("-b8k -t1 -o1").history_s == 5);   // DiskSpd's default -W5
  // No warm-up keeps the default history: 0 would also start from empty buffers.
  CHECK(parse_diskspd("-b8k -t1 -o1 -W0").history_s == 1800);
  CHECK(parse_diskspd("-b8k -t1 -o1 -W0").warmup_s == 0);
  CHECK(parse_diskspd("-b64k -t1 -o1").random_pct == 0);   // sequential unless -r
  CHECK_THROWS_WITH(parse_diskspd("-d60 -x3"), Catch::Contains("'-x3'") && Catch::Contains("-b<size>"));
  CHECK_THROWS_WITH(parse_diskspd("-bfour"), Catch::Contains("DiskSpd -b"));
}

TEST_CASE("fio job options and the oltp32k preset") {
  const WorkloadSpec f = parse_fio_options("bs=4k rw=randrw rwmixread=70 iodepth=4 numjobs=2 size=10g");
  CHECK(f.block.count() == 4096);
  CHECK(f.read_pct == 70);
  CHECK(f.random_pct == 100);
  CHECK(f.outstanding_per_vmdk == 8);
  CHECK(f.vmdk_size.count() == std::int64_t{10} << 30);
  CHECK(parse_fio_options("--bs=256k --rw=write --iodepth=1").read_pct == 0);
  // The guest OS from the engine: fio's Windows engine means a Windows guest.
  CHECK(f.guest_os == GuestOs::linux_os);
  CHECK(parse_fio_options("bs=4k rw=randread ioengine=libaio").guest_os == GuestOs::linux_os);
  CHECK(parse_fio_options("bs=4k rw=randread ioengine=windowsaio").guest_os == GuestOs::windows);
  // What ran before the window: fio's ramp_time when given; without one, and for HCIBench's
  // names and the preset, HCIBench's 1800 s.
  CHECK(f.history_s == 1800);
  const WorkloadSpec r = parse_fio_options("bs=4k rw=randread ramp_time=30");
  CHECK(r.history_s == 30);
  CHECK(r.warmup_s == 30);
  CHECK(parse_fio_options("bs=4k rw=randread ramp_time=0").history_s == 1800);   // fio's own default
  CHECK(parse_hcibench_name("fio-8vmdk-100ws-4k-70rdpct-100randompct-4threads").history_s == 1800);
  CHECK(preset("oltp32k").history_s == 1800);
  CHECK_THROWS_WITH(parse_fio_options("bs=4k rw=randomrw"), Catch::Contains("'randomrw'") && Catch::Contains("randrw"));
  CHECK_THROWS_WITH(parse_fio_options("blocksizes=4k"), Catch::Contains("'blocksizes'") && Catch::Contains("bs, rw"));
  const WorkloadSpec o = preset("oltp32k");
  CHECK(o.block.count() == 32 * 1024);
  CHECK(o.read_pct == 70);
  CHECK(o.random_pct == 100);
  CHECK_THROWS_WITH(preset("oltp8k"), Catch::Contains("oltp32k"));
}

TEST_CASE("HCIBench Easy Run derives VMs, VMDKs, outstanding I/O and working set from the cluster") {
  // OSA: 4 hosts x 1 disk group, P4800X 375 GB caches, RAID-1 (HCIBench factor 2).
  const WorkloadSpec osa = easy_run(test::osa_cluster(4), EasyRunProfile::mixed_4k_70r);
  CHECK(osa.vms == 8);                  // 2 x disk groups
  CHECK(osa.vmdks_per_vm == 4);
  CHECK(osa.outstanding_per_vmdk == 8);   // 32 per VM / 4 disks
  // min(4 x 600 GB, 4 x 375 GB) x 0.75 / 2 over 32 VMDKs
  CHECK(static_cast<double>(osa.vmdk_size.count()) == Approx(4 * 375e9 * 0.75 / 2 / 32).epsilon(1e-4));
  CHECK(osa.name == "fio-4vmdk-100ws-4k-70rdpct-100randompct-8threads");
  const WorkloadSpec seq = easy_run(test::osa_cluster(4), EasyRunProfile::seq_write);
  CHECK(seq.block.count() == 256 * 1024);
  CHECK(seq.outstanding_per_vmdk == 2);   // 8 / 4 with checksum on
  // ESA: 6 hosts, 2 VMs per host, 128 outstanding per VM, 512k sequential, RANDOM prep.
  ClusterSpec e = test::esa_cluster(6);
  e.policy = {RaidLevel::raid6, 2};
  const WorkloadSpec esa = easy_run(e, EasyRunProfile::seq_read);
  CHECK(esa.vms == 12);
  CHECK(esa.outstanding_per_vmdk == 4);   // 128 / 4 / 8
  CHECK(esa.block.count() == 512 * 1024);
  CHECK(esa.compress_pct == 50);
  CHECK(esa.vmdk_size.count() <= std::int64_t{64} << 30);
  CHECK_THROWS_WITH(parse_easy_run_profile("4k-50read"), Catch::Contains("4k-70read"));
}

TEST_CASE("HCIBench Easy Run before 2.8.4 gives each VM 8 data disks and sizes them in whole GiB") {
  CHECK(parse_easy_run_release("2.8.1") == EasyRunRelease::hcibench_2_8);
  CHECK(parse_easy_run_release("2.8.3") == EasyRunRelease::hcibench_2_8);
  CHECK(parse_easy_run_release("2.7") == EasyRunRelease::hcibench_2_8);
  CHECK(parse_easy_run_release("2.8.4") == EasyRunRelease::hcibench_2_8_4);
  CHECK(parse_easy_run_release("3.0") == EasyRunRelease::hcibench_2_8_4);
  for (const char* bad : {"2.8.x", "1.6", "2", "v2.8.1", "2.8.1.1", "", "2.8.", ".2.8", "2..8", "2.99999999999", "2.8.-1",
                          "2.8.1 "})
    CHECK_THROWS_WITH(parse_easy_run_release(bad), Catch::Contains("easy_run_release") && Catch::Contains("2.8.1"));
  // Seed 000's cluster: 4 hosts, one group each of a P4800X 750 GB (698 whole GiB) over a
  // 2 TB drive, RAID-1 FTT 1, dedupe on. min(4 x 600, 4 x 698) x 0.75 / 2 = 900 GiB over
  // 8 VMs x 8 disks = 14.06, floored: 14 GiB, and HCIBench's names for the two runs seed 000
  // reports (000_9809ee29a465ffea.txt [S1]).
  ClusterSpec c = test::osa_cluster(4);
  for (auto& h : c.hosts) h.disk_groups[0].cache = test::drive("optane-p4800x-750gb");
  c.services.dedupe = c.services.compression = true;
  const WorkloadSpec mixed = easy_run(c, EasyRunProfile::mixed_4k_70r, EasyRunRelease::hcibench_2_8);
  CHECK(mixed.vms == 8);
  CHECK(mixed.vmdks_per_vm == 8);
  CHECK(mixed.outstanding_per_vmdk == 4);
  CHECK(mixed.vmdk_size.count() == std::int64_t{14} << 30);
  CHECK(mixed.name == "fio-8vmdk-100ws-4k-70rdpct-100randompct-4threads-50compress-50dedupe");
  const WorkloadSpec seq = easy_run(c, EasyRunProfile::seq_write, EasyRunRelease::hcibench_2_8);
  CHECK(seq.outstanding_per_vmdk == 1);   // 4 / 4 with checksum on
  CHECK(seq.vmdk_size.count() == std::int64_t{14} << 30);
  CHECK(seq.name == "fio-8vmdk-100ws-256k-0rdpct-0randompct-1threads-50compress-50dedupe");
  c.policy.checksum = false;
  CHECK(easy_run(c, EasyRunProfile::seq_write, EasyRunRelease::hcibench_2_8).outstanding_per_vmdk == 4);
  // 375 GB caches: 349 whole GiB each, 4 x 349 x 0.75 / 2 / 64 = 8.2 -> 8 GiB.
  CHECK(easy_run(test::osa_cluster(4), EasyRunProfile::read_4k, EasyRunRelease::hcibench_2_8).vmdk_size.count() ==
        std::int64_t{8} << 30);
  // Releases before 2.8.4 have four profiles.
  CHECK_THROWS_WITH(easy_run(c, EasyRunProfile::seq_read, EasyRunRelease::hcibench_2_8),
                    Catch::Contains("seq-read") && Catch::Contains("before 2.8.4"));
  // ESA: 4 VMs per host; capacity / 3 x 0.25 over the policy's 1.66 (RAID-6), in whole GiB:
  // 6 hosts x 4 x 3576 GiB = 85824 / 3 = 28608 x 0.25 / 1.66 = 4308.4 over 24 x 8 disks -> 22.
  ClusterSpec e = test::esa_cluster(6);
  e.policy = {RaidLevel::raid6, 2};
  const WorkloadSpec esa = easy_run(e, EasyRunProfile::mixed_8k_50r, EasyRunRelease::hcibench_2_8);
  CHECK(esa.vms == 24);
  CHECK(esa.outstanding_per_vmdk == 4);
  CHECK(esa.vmdk_size.count() == std::int64_t{22} << 30);
}
