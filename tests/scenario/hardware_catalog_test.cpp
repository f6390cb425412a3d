// Catalog files: every row of data/ loads and validates; a bad row is reported by file,
// line and column; CSV quoting works.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "hcisim/core/check.hpp"
#include "hcisim/model/scenario/csv.hpp"
#include "hcisim/scenario/hardware_catalog.hpp"

using namespace hcisim;

namespace {
const char* kHeader =
    "name,kind,interface,media,capacity_gb,read_iops_4k,write_iops_4k,read_latency_us,write_latency_us,"
    "seq_read_mbps,seq_write_mbps,queue_depth_rated,rpm,seek_ms,dwpd,source,notes\n";
const char* kGood = "good-ssd,ssd,nvme,tlc,1000,100000,50000,80,20,3000,2000,32,,,1,\"a, b\",\"says \"\"hi\"\"\"\n";

const char* kNicHeader = "name,speed_gbps,ports,latency_us,rx_interrupt_us,rdma,source,notes\n";
const char* kGoodNic = "good-nic,25,2,5,10,yes,s,n\n";

const char* kFlashHeader =
    "device,cell,channels,die_gbit,planes,page_kib,block_mib,read_us,program_us,erase_us,slc_read_us,"
    "slc_program_us,channel_mbps,spare_pct,map,map_cache_mb,map_miss_us,controller_cores,pslc_cache_gb,"
    "write_buffer_mb,controller_us,source,notes\n";

std::string write_catalog(const std::string& tag, const std::string& device_rows,
                          const std::string& nic_rows = kGoodNic, const std::string& flash_rows = "") {
  const auto dir = std::filesystem::temp_directory_path() / ("hcisim_catalog_" + tag);
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "devices.csv") << kHeader << device_rows;
  std::ofstream(dir / "connections.csv") << "name,added_latency_us,commands,max_mbps,source,notes\n"
                                         << "nvme-direct,0,,,x,y\n";
  std::ofstream(dir / "nics.csv") << kNicHeader << nic_rows;
  std::ofstream(dir / "switches.csv") << "name,ports,port_speed_gbps,latency_us,cut_through,buffer_mb,source,notes\n"
                                      << "good-switch,48,25,0.8,yes,32,s,n\n";
  std::ofstream(dir / "cpus.csv") << "name,cores,threads,base_ghz,turbo_ghz,sustained_ghz,sustained_source,source,notes\n"
                                  << "good-cpu,8,16,2.4,3.2,2.6,ss,s,n\n";
  std::ofstream(dir / "flash.csv") << kFlashHeader << flash_rows;
  return dir.string();
}
}  // namespace

TEST_CASE("the shipped catalogs load and cover the seed device classes", "[scenario]") {
  const HardwareCatalog cat = HardwareCatalog::load();
  for (const char* name : {"optane-p4800x-375gb", "optane-p4800x-750gb", "optane-905p-280gb", "lexar-nm620-2tb",
                           "samsung-pm1733-3.84tb", "intel-p5600-3.2tb", "intel-s3700-400gb"})
    CHECK(cat.device(name).name == name);
  for (const DeviceSpec& d : cat.devices()) CHECK_FALSE(d.source.empty());
  CHECK(cat.connection("usb-nvme").added_latency_us > 0);
  CHECK(cat.connection("usb-nvme").commands == 0);        // UAS queues commands
  CHECK(cat.connection("usb-bot-nvme").commands == 1);    // Bulk-Only Transport: one at a time
  CHECK(cat.connection("usb-nvme").read_protocol_us == 0);      // the bridge's own latency only
  CHECK(cat.connection("usb-nvme").write_protocol_us == 0);
  CHECK(cat.connection("usb-bot-nvme").write_protocol_us > 0);  // BOT's stages on top
  CHECK(cat.connection("usb-bot-nvme").added_latency_us == cat.connection("usb-nvme").added_latency_us);
  // Network parts and CPUs of the seeds: X520 (000), Broadcom 57414/57508 and the Dell
  // S5248F/S5232F switches (001), ConnectX-4 (003), E5-2630 v3 (004), i7-11700B (000).
  CHECK(cat.nic("intel-x520-da1").speed_gbps == 10);
  CHECK(cat.nic("broadcom-57508-100g").speed_gbps == 100);
  CHECK(cat.nic("broadcom-57414-25g").speed_gbps == 25);
  CHECK(cat.network_switch("dell-s5248f-on").port_speed_gbps == 25);
  CHECK(cat.network_switch("dell-s5232f-on").port_speed_gbps == 100);
  CHECK(cat.cpu("intel-xeon-e5-2630-v3").cores_per_socket == 8);
  CHECK(cat.cpu("intel-core-i7-11700b").threads_per_core == 2);
  for (const NicSpec& n : cat.nics()) CHECK_FALSE(n.source.empty());
}

TEST_CASE("unknown device, NIC, switch or CPU names list the closest catalog names", "[scenario]") {
  const HardwareCatalog cat = HardwareCatalog::load();
  CHECK_THROWS_WITH(cat.device("optane-p4800x-700gb"),
                    Catch::Contains("unknown device 'optane-p4800x-700gb'") && Catch::Contains("optane-p4800x-750gb"));
  CHECK_THROWS_WITH(cat.nic("intel-x520"), Catch::Contains("unknown NIC") && Catch::Contains("intel-x520-da1"));
  CHECK_THROWS_WITH(cat.nic("broadcom-57508"), Catch::Contains("broadcom-57508-100g"));
  CHECK_THROWS_WITH(cat.network_switch("dell-s5248"), Catch::Contains("unknown switch") &&
                                                          Catch::Contains("dell-s5248f-on"));
  CHECK_THROWS_WITH(cat.cpu("e5-2630-v3"), Catch::Contains("unknown CPU") && Catch::Contains("intel-xeon-e5-2630-v3"));
}

TEST_CASE("an unknown name with no close catalog name offers none, and says how to go on without one", "[scenario]") {
  const HardwareCatalog cat = HardwareCatalog::load();
  // A drive the catalog lacks: no far-off names, the inline form instead.
  CHECK_THROWS_WITH(cat.device("micron-7450-pro-3.84tb"),
                    Catch::StartsWith("unknown device 'micron-7450-pro-3.84tb': no catalog name is close to it "
                                      "(hcisim catalog devices lists them); a drive that is not in the catalog is "
                                      "described inline by its datasheet figures, e.g. {kind: ssd, interface: nvme,") &&
                        !Catch::Contains("intel-s4500-3.84tb"));
  // A near miss keeps its close names, and the inline form comes after them.
  CHECK_THROWS_WITH(cat.device("optane-p4800x-700gb"),
                    Catch::StartsWith("unknown device 'optane-p4800x-700gb'; closest catalog names: optane-p4800x-750gb") &&
                        Catch::Contains("; or a drive that is not in the catalog is described inline"));
  CHECK_THROWS_WITH(cat.cpu("intel-xeon-gold-6430"),
                    Catch::Contains("closest catalog names: intel-xeon-gold-6338") &&
                        Catch::Contains("{cores: N, ghz: its sustained all-core clock"));
  CHECK_THROWS_WITH(cat.cpu("ampere-altra-q80-30"), Catch::Contains("no catalog name is close to it (hcisim catalog cpus "
                                                                     "lists them); a CPU that is not in the catalog"));
  CHECK_THROWS_WITH(cat.nic("chelsio-t62100"), Catch::Contains("no catalog name is close") &&
                                                   Catch::Contains("leave nic: out for a generic NIC"));
}

TEST_CASE("a catalog row whose notes call its figures estimated, borrowed or doubtful carries that caveat", "[scenario]") {
  // The sentences that say so, and only those.
  CHECK(figure_caveat("PCIe 4.0 TLC, 1 DWPD. IOPS are the family maxima; write IOPS probably below 260K (doubtful). "
                      "Used in seed 001.") == "IOPS are the family maxima; write IOPS probably below 260K (doubtful).");
  CHECK(figure_caveat("Launch spec: 4K IOPS at QD16. Used as cache in seeds 000 and 004.").empty());
  CHECK(figure_caveat("latency_us ESTIMATE 1.5 (none published)").size() > 0);
  // A part's family, series, arithmetic on its own figures or its threads are no caveat.
  CHECK(figure_caveat("Dual-port 10GbE on the 700-series X710 controller (i40e driver). ixgbe driver family. "
                      "600 TBW -> 0.33 DWPD derived. cpuinfo dump: 8 cores, 16 siblings.")
            .empty());
  CHECK(figure_caveat("Latency from Intel P4610 (sibling). 2 sockets ASSUMED.") ==
        "Latency from Intel P4610 (sibling). 2 sockets ASSUMED.");
  // The shipped catalog: the PM1733's write IOPS caveat is there; the P4500's product guide figures are not flagged.
  const HardwareCatalog cat = HardwareCatalog::load();
  const std::vector<RowCaveat> devices = catalog_caveats(cat.dir() + "/devices.csv");
  const auto of = [&](const std::string& name) {
    for (const RowCaveat& r : devices)
      if (r.name == name) return r.caveat;
    return std::string("none");
  };
  CHECK_THAT(of("samsung-pm1733-3.84tb"), Catch::Contains("write IOPS at 3.84 TB is probably below 260K (doubtful)"));
  CHECK(of("intel-p4500-1tb") == "none");
  CHECK(of("samsung-970-evo-plus-1tb") == "none");   // its DWPD and QD1 latency derived from its own datasheet
  CHECK_THAT(of("lexar-nm620-2tb"), Catch::Contains("Samsung 970 EVO Plus 1TB figures"));
}

TEST_CASE("bad NIC rows are reported by file, line and field", "[scenario]") {
  const std::string speed = write_catalog("nic_speed", kGood, "slow-nic,11,1,5,10,no,s,n\n");
  CHECK_THROWS_WITH(HardwareCatalog::load(speed), Catch::Contains("nics.csv:2") && Catch::Contains("speed_gbps") &&
                                                      Catch::Contains("10, 25"));
  const std::string flag = write_catalog("nic_flag", kGood, "odd-nic,10,1,5,10,maybe,s,n\n");
  CHECK_THROWS_WITH(HardwareCatalog::load(flag), Catch::Contains("nics.csv:2") && Catch::Contains("yes or no"));
  const std::string ports = write_catalog("nic_ports", kGood, "odd-nic,10,1.5,5,10,no,s,n\n");
  CHECK_THROWS_WITH(HardwareCatalog::load(ports), Catch::Contains("'ports' = '1.5' is not a whole number"));
  const std::string lat = write_catalog("nic_lat", kGood, "odd-nic,10,1,-3,10,no,s,n\n");
  CHECK_THROWS_WITH(HardwareCatalog::load(lat), Catch::Contains("nics.csv:2") && Catch::Contains("latency_us"));
  const std::string irq = write_catalog("nic_irq", kGood, "odd-nic,10,1,5,5000,no,s,n\n");
  CHECK_THROWS_WITH(HardwareCatalog::load(irq), Catch::Contains("nics.csv:2") && Catch::Contains("odd-nic") &&
                                                    Catch::Contains("rx_interrupt_us") && Catch::Contains("1000"));
  // Required: an empty cell is not taken as 0 (moderation off).
  const std::string empty_irq = write_catalog("nic_irq_empty", kGood, "odd-nic,10,1,5,,no,s,n\n");
  CHECK_THROWS_WITH(HardwareCatalog::load(empty_irq), Catch::Contains("nics.csv:2") && Catch::Contains("rx_interrupt_us"));
}

TEST_CASE("bad connection rows are reported by file, line and field", "[scenario]") {
  const auto with_connection = [](const std::string& tag, const std::string& row) {
    const std::string dir = write_catalog(tag, kGood);
    std::ofstream(std::filesystem::path(dir) / "connections.csv") << "name,added_latency_us,commands,max_mbps,source,notes\n"
                                                                 << row;
    return dir;
  };
  CHECK(HardwareCatalog::load(with_connection("con_ok", "bot,54,1,1000,s,n\n")).connection("bot").commands == 1);
  // The protocol columns are optional (a catalog without them adds nothing per command).
  CHECK(HardwareCatalog::load(with_connection("con_ok", "bot,54,1,1000,s,n\n")).connection("bot").read_protocol_us == 0);
  const auto with_protocol = [](const std::string& tag, const std::string& row) {
    const std::string dir = write_catalog(tag, kGood);
    std::ofstream(std::filesystem::path(dir) / "connections.csv")
        << "name,added_latency_us,read_protocol_us,write_protocol_us,commands,max_mbps,source,notes\n" << row;
    return dir;
  };
  const ConnectionSpec p = HardwareCatalog::load(with_protocol("con_proto", "bot,54,81,31,1,1000,s,n\n")).connection("bot");
  CHECK(p.read_protocol_us == 81);
  CHECK(p.write_protocol_us == 31);
  CHECK_THROWS_WITH(HardwareCatalog::load(with_protocol("con_proto_neg", "bot,54,81,-3,1,1000,s,n\n")),
                    Catch::Contains("connections.csv:2") && Catch::Contains("write_protocol_us") &&
                        Catch::Contains("a finite number >= 0"));
  CHECK_THROWS_WITH(HardwareCatalog::load(with_protocol("con_proto_nan", "bot,54,nan,31,1,1000,s,n\n")),
                    Catch::Contains("connections.csv:2") && Catch::Contains("'read_protocol_us' = 'nan'") &&
                        Catch::Contains("not a finite number"));
  CHECK_THROWS_WITH(HardwareCatalog::load(with_protocol("con_proto_text", "bot,54,fast,31,1,1000,s,n\n")),
                    Catch::Contains("connections.csv:2") && Catch::Contains("'read_protocol_us' = 'fast'"));
  CHECK_THROWS_WITH(HardwareCatalog::load(with_connection("con_half", "bot,54,1.5,1000,s,n\n")),
                    Catch::Contains("connections.csv:2") && Catch::Contains("'commands' = '1.5' is not a whole number"));
  CHECK_THROWS_WITH(HardwareCatalog::load(with_connection("con_neg", "bot,54,-2,1000,s,n\n")),
                    Catch::Contains("connections.csv:2") && Catch::Contains("commands") &&
                        Catch::Contains("0 (no limit) or 1 .. 65536"));
}

TEST_CASE("quoted CSV fields and bad rows with file and line", "[scenario]") {
  const std::string ok = write_catalog("ok", kGood);
  const HardwareCatalog cat = HardwareCatalog::load(ok);
  CHECK(cat.device("good-ssd").source == "a, b");

  const std::string neg = write_catalog("neg", std::string(kGood) + "bad-ssd,ssd,nvme,tlc,1000,-1,50000,80,20,3000,2000,,,,,s,n\n");
  CHECK_THROWS_WITH(HardwareCatalog::load(neg), Catch::Contains("devices.csv:3") && Catch::Contains("read_iops_4k"));

  const std::string garbage = write_catalog("garbage", "x-ssd,ssd,nvme,tlc,1000,lots,50000,80,20,3000,2000,,,,,s,n\n");
  CHECK_THROWS_WITH(HardwareCatalog::load(garbage), Catch::Contains("devices.csv:2") && Catch::Contains("'read_iops_4k' = 'lots'"));

  const std::string shape = write_catalog("shape", "short,row\n");
  CHECK_THROWS_WITH(HardwareCatalog::load(shape), Catch::Contains("devices.csv:2: 2 fields, expected 17"));

  const std::string kind = write_catalog("kind", "t-ssd,tape,nvme,tlc,1000,1,1,1,1,1,1,,,,,s,n\n");
  CHECK_THROWS_WITH(HardwareCatalog::load(kind), Catch::Contains("'kind' = 'tape'") && Catch::Contains("ssd or hdd"));
}

TEST_CASE("flash.csv rows attach NAND internals to devices, bad rows name file, line and field", "[scenario]") {
  const std::string row = "good-ssd,tlc,4,512,4,16,24,60,1500,3500,35,250,800,10,sram,4,20,2,100,4,5,s,n\n";
  const HardwareCatalog cat = HardwareCatalog::load(write_catalog("flash_ok", kGood, kGoodNic, row));
  REQUIRE(cat.device("good-ssd").flash);
  CHECK(cat.device("good-ssd").flash->map == FtlMap::sram);
  CHECK(cat.device("good-ssd").flash->channels == 4);
  CHECK_THROWS_WITH(HardwareCatalog::load(write_catalog("flash_unknown", kGood, kGoodNic, "no-such" + row.substr(8))),
                    Catch::Contains("flash.csv:2") && Catch::Contains("device 'no-such' is not in devices.csv"));
  CHECK_THROWS_WITH(HardwareCatalog::load(write_catalog("flash_twice", kGood, kGoodNic, row + row)),
                    Catch::Contains("flash.csv:3") && Catch::Contains("appears twice"));
  std::string bad_map = row;
  bad_map.replace(bad_map.find("sram"), 4, "disk");
  CHECK_THROWS_WITH(HardwareCatalog::load(write_catalog("flash_map", kGood, kGoodNic, bad_map)),
                    Catch::Contains("flash.csv:2") && Catch::Contains("'map' = 'disk'") && Catch::Contains("dram, hmb or sram"));
  std::string slow = row;
  slow.replace(slow.find(",60,"), 4, ",0,");
  CHECK_THROWS_WITH(HardwareCatalog::load(write_catalog("flash_tr", kGood, kGoodNic, slow)),
                    Catch::Contains("flash.csv:2") && Catch::Contains("read_us"));
}

TEST_CASE("a CPU works at its sustained all-core clock, which lies between base and turbo", "[scenario]") {
  const HardwareCatalog cat = HardwareCatalog::load(write_catalog("cpu_sustained", kGood));
  CHECK(cat.cpu("good-cpu").ghz == 2.6);
  CHECK(cat.cpu("good-cpu").base_ghz == 2.4);
  CHECK(cat.cpu("good-cpu").turbo_ghz == 3.2);
  const std::string dir = write_catalog("cpu_sustained_bad", kGood);
  std::ofstream(std::filesystem::path(dir) / "cpus.csv") << "name,cores,threads,base_ghz,turbo_ghz,sustained_ghz,sustained_source,source,notes\n"
                                                         << "fast-cpu,8,16,2.4,3.2,3.5,ss,s,n\n";
  CHECK_THROWS_WITH(HardwareCatalog::load(dir),
                    Catch::Contains("cpus.csv:2: base_ghz 2.4, sustained_ghz 3.5, turbo_ghz 3.2 is not allowed; "
                                    "expected 0 < base_ghz <= sustained_ghz <= turbo_ghz"));
  // An empty clock is named as empty (it used to read as 0), and a sustained clock needs its source.
  std::ofstream(std::filesystem::path(dir) / "cpus.csv") << "name,cores,threads,base_ghz,turbo_ghz,sustained_ghz,sustained_source,source,notes\n"
                                                         << "blank-cpu,8,16,2.4,3.2,,ss,s,n\n";
  CHECK_THROWS_WITH(HardwareCatalog::load(dir),
                    Catch::Contains("cpus.csv:2: column 'sustained_ghz' is empty; expected a clock in GHz"));
  std::ofstream(std::filesystem::path(dir) / "cpus.csv") << "name,cores,threads,base_ghz,turbo_ghz,sustained_ghz,sustained_source,source,notes\n"
                                                         << "unsourced-cpu,8,16,2.4,3.2,2.6,,s,n\n";
  CHECK_THROWS_WITH(HardwareCatalog::load(dir), Catch::Contains("cpus.csv:2: column 'sustained_source' is empty"));
  std::ofstream(std::filesystem::path(dir) / "cpus.csv") << "name,cores,threads,base_ghz,turbo_ghz,sustained_ghz,source,notes\n"
                                                         << "old-cpu,8,16,2.4,3.2,2.6,s,n\n";
  CHECK_THROWS_WITH(HardwareCatalog::load(dir), Catch::Contains("no column 'sustained_source'"));
  // The shipped catalog's seed hosts: the NUC 11 Extreme's 65 W limit holds it near 3.4 GHz.
  CHECK(HardwareCatalog::load().cpu("intel-core-i7-11700b").ghz == 3.4);
}

TEST_CASE("catalog errors name the right column, say an empty catalog is empty and reject an unrepresentable number",
          "[scenario]") {
  // cores = 0 was reported as a bad 'threads'.
  const std::string cores = write_catalog("cpu_cores", kGood);
  std::ofstream(std::filesystem::path(cores) / "cpus.csv")
      << "name,cores,threads,base_ghz,turbo_ghz,sustained_ghz,sustained_source,source,notes\n"
      << "zero-cpu,0,16,2.4,3.2,2.6,ss,s,n\n";
  CHECK_THROWS_WITH(HardwareCatalog::load(cores),
                    Catch::Contains("cpus.csv:2: column 'cores' = 0 is not allowed; expected 1..1024"));
  // An empty catalog is said to be empty, not followed by an empty list of close names.
  const HardwareCatalog empty = HardwareCatalog::load(write_catalog("empty_devices", ""));
  CHECK_THROWS_WITH(empty.device("optane-p4800x-750gb"),
                    Catch::Contains("unknown device 'optane-p4800x-750gb': the device catalog is empty"));
  // A number strtod cannot hold is not called "not a finite number".
  const std::string tiny = write_catalog("nic_tiny", kGood, "tiny-nic,10,1,1e-320,10,no,s,n\n");
  CHECK_THROWS_WITH(HardwareCatalog::load(tiny),
                    Catch::Contains("nics.csv:2: column 'latency_us' = '1e-320' is too close to zero"));
  // A latency of 1e300 us would overflow the clock ('schedule_at ... in the past').
  const std::string huge = write_catalog("nic_huge", kGood, "slow-nic,10,1,1e300,10,no,s,n\n");
  CHECK_THROWS_WITH(HardwareCatalog::load(huge), Catch::Contains("latency_us") && Catch::Contains("[0, 1e+06]"));
}

TEST_CASE("catalog figures are pinned to the sources they cite") {
  // Each row: a catalog figure and the source it was taken from (its docs/sources.md entry,
  // and the figure as the source gives it). A catalog edit that leaves its source behind fails
  // here, naming both.
  struct Pin {
    const char* device;
    const char* field;
    double value;
    const char* source;
  };
  const Pin pins[] = {
      {"optane-p4800x-375gb", "read_iops_4k", 550000, "[S150] AnandTech launch table, QD16"},
      {"optane-p4800x-375gb", "write_iops_4k", 500000, "[S150]"},
      {"optane-p4800x-375gb", "seq_read_mbps", 2400, "[S150]"},
      {"optane-p4800x-375gb", "seq_write_mbps", 2000, "[S150]"},
      {"optane-p4800x-375gb", "read_latency_us", 10, "[S150] typical latency <10 us"},
      {"optane-p4800x-750gb", "read_iops_4k", 550000, "[S150]"},
      {"optane-p4800x-750gb", "write_iops_4k", 500000, "[S150]"},
      {"lexar-nm620-2tb", "seq_read_mbps", 3500, "[S154] Lexar spec"},
      {"lexar-nm620-2tb", "seq_write_mbps", 3000, "[S154]"},
      {"intel-s3700-400gb", "read_iops_4k", 75000, "[S162]"},
      {"toshiba-px04sl-3.84tb", "read_iops_4k", 270000, "[S160]"},
      {"toshiba-px04sl-3.84tb", "write_iops_4k", 19000, "[S160]"},
      {"samsung-pm1643-3.84tb", "read_iops_4k", 400000, "[S166] [S167]"},
      {"samsung-pm1643-3.84tb", "write_iops_4k", 50000, "[S166] [S167]"},
      {"samsung-pm1643-3.84tb", "seq_read_mbps", 2100, "[S166] [S167]"},
      {"samsung-pm1643-3.84tb", "seq_write_mbps", 1700, "[S166] [S167]"},
      {"intel-s4500-3.84tb", "read_iops_4k", 72000, "[S164] Intel product spec"},
      {"intel-s4500-3.84tb", "write_iops_4k", 33000, "[S164]"},
      {"intel-s4500-3.84tb", "seq_read_mbps", 500, "[S164]"},
      {"intel-s4500-3.84tb", "seq_write_mbps", 490, "[S164]"},
      {"intel-s4500-3.84tb", "read_latency_us", 110, "[S164]"},
      {"intel-s4500-3.84tb", "write_latency_us", 52, "[S164]"},
      {"intel-p4500-1tb", "read_iops_4k", 279500, "[S172] Lenovo product guide"},
      {"intel-p4500-1tb", "write_iops_4k", 30500, "[S172]"},
      {"intel-p4500-1tb", "seq_write_mbps", 600, "[S172]"},
      {"intel-p4500-2tb", "read_iops_4k", 490000, "[S172]"},
      {"intel-p4500-2tb", "write_iops_4k", 38000, "[S172]"},
      {"intel-p4500-2tb", "seq_write_mbps", 1050, "[S172]"},
      {"intel-p4500-4tb", "read_iops_4k", 645000, "[S172]"},
      {"intel-p4500-4tb", "write_iops_4k", 62500, "[S172]"},
      {"intel-p4500-4tb", "read_latency_us", 115, "[S172]"},
      {"intel-p4610-1.6tb", "read_iops_4k", 643000, "[S169] ARK"},
      {"intel-p4610-1.6tb", "write_iops_4k", 199000, "[S169]"},
      {"intel-p4610-1.6tb", "seq_write_mbps", 2080, "[S169]"},
      {"intel-p5500-3.84tb", "read_iops_4k", 1000000, "[S170] [S171]"},
      {"intel-p5500-3.84tb", "write_iops_4k", 130000, "[S170] [S171]"},
      {"intel-p5500-3.84tb", "seq_read_mbps", 7000, "[S170] [S171]"},
      {"samsung-pm1733-3.84tb", "read_iops_4k", 1450000, "[S168] launch spec"},
      {"samsung-pm1733-3.84tb", "write_iops_4k", 260000, "[S168]"},
      {"samsung-pm1733-3.84tb", "seq_read_mbps", 6400, "[S168]"},
      {"samsung-pm1733-3.84tb", "seq_write_mbps", 3800, "[S168]"},
  };
  const HardwareCatalog cat = HardwareCatalog::load();
  for (const Pin& p : pins) {
    const DeviceSpec& d = cat.device(p.device);
    const std::string f = p.field;
    const double v = f == "read_iops_4k"       ? d.read_iops_4k
                     : f == "write_iops_4k"    ? d.write_iops_4k
                     : f == "seq_read_mbps"    ? d.seq_read_mbps
                     : f == "seq_write_mbps"   ? d.seq_write_mbps
                     : f == "read_latency_us"  ? d.read_latency_us
                     : f == "write_latency_us" ? d.write_latency_us
                                               : -1;
    INFO(p.device << " " << p.field << " (" << p.source << ")");
    CHECK(v == p.value);
  }
}
