// Catalog files: every row of data/ loads and validates; a bad row is reported by file,
// line and column; CSV quoting works.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "hcisim/core/check.hpp"
#include "hcisim/scenario/csv.hpp"
#include "hcisim/scenario/device_catalog.hpp"

using namespace hcisim;

namespace {
const char* kHeader =
    "name,kind,interface,media,capacity_gb,read_iops_4k,write_iops_4k,read_latency_us,write_latency_us,"
    "seq_read_mbps,seq_write_mbps,queue_depth_rated,rpm,seek_ms,dwpd,source,notes\n";
const char* kGood = "good-ssd,ssd,nvme,tlc,1000,100000,50000,80,20,3000,2000,32,,,1,\"a, b\",\"says \"\"hi\"\"\"\n";

std::string write_catalog(const std::string& tag, const std::string& device_rows) {
  const auto dir = std::filesystem::temp_directory_path() / ("hcisim_catalog_" + tag);
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "devices.csv") << kHeader << device_rows;
  std::ofstream(dir / "connections.csv") << "name,added_latency_us,max_iops,max_mbps,source,notes\n"
                                         << "nvme-direct,0,,,x,y\n";
  return dir.string();
}
}  // namespace

TEST_CASE("the shipped catalogs load and cover the seed device classes", "[scenario]") {
  const DeviceCatalog cat = DeviceCatalog::load();
  for (const char* name : {"optane-p4800x-375gb", "optane-p4800x-750gb", "optane-905p-280gb", "lexar-nm620-2tb",
                           "samsung-pm1733-3.84tb", "intel-p5600-3.2tb", "intel-s3700-400gb"})
    CHECK(cat.device(name).name == name);
  for (const DeviceSpec& d : cat.devices()) CHECK_FALSE(d.source.empty());
  CHECK(cat.connection("usb-nvme").added_latency_us > 0);
}

TEST_CASE("quoted CSV fields and bad rows with file and line", "[scenario]") {
  const std::string ok = write_catalog("ok", kGood);
  const DeviceCatalog cat = DeviceCatalog::load(ok);
  CHECK(cat.device("good-ssd").source == "a, b");

  const std::string neg = write_catalog("neg", std::string(kGood) + "bad-ssd,ssd,nvme,tlc,1000,-1,50000,80,20,3000,2000,,,,,s,n\n");
  CHECK_THROWS_WITH(DeviceCatalog::load(neg), Catch::Contains("devices.csv:3") && Catch::Contains("read_iops_4k"));

  const std::string garbage = write_catalog("garbage", "x-ssd,ssd,nvme,tlc,1000,lots,50000,80,20,3000,2000,,,,,s,n\n");
  CHECK_THROWS_WITH(DeviceCatalog::load(garbage), Catch::Contains("devices.csv:2") && Catch::Contains("'read_iops_4k' = 'lots'"));

  const std::string shape = write_catalog("shape", "short,row\n");
  CHECK_THROWS_WITH(DeviceCatalog::load(shape), Catch::Contains("devices.csv:2: 2 fields, expected 17"));

  const std::string kind = write_catalog("kind", "t-ssd,tape,nvme,tlc,1000,1,1,1,1,1,1,,,,,s,n\n");
  CHECK_THROWS_WITH(DeviceCatalog::load(kind), Catch::Contains("'kind' = 'tape'") && Catch::Contains("ssd or hdd"));
}
