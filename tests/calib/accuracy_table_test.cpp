// The accuracy table by class, its file and inputs hash, and the "nearest measured" match:
// synthetic rows for the classes and the match, a one-scenario measurement set (short
// windows) for the rows' features, and copies of data/ for the hash.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "hcisim/calib/accuracy.hpp"
#include "hcisim/hcisim.hpp"

using namespace hcisim;

namespace accuracy_table_test {

// A scratch copy of data/ and the example scenarios, as a repository's layout has them.
inline std::filesystem::path copy_of_inputs(const char* name) {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / name;
  fs::remove_all(root);
  fs::create_directories(root / "examples");
  const std::string src = default_data_dir();
  fs::copy(src, root / "data", fs::copy_options::recursive);
  fs::copy(src + "/../examples/scenarios", root / "examples" / "scenarios", fs::copy_options::recursive);
  return root;
}

AccuracyTableRow scored(const std::string& sample, const std::string& seed, const std::string& arch,
                        const std::string& type, const std::string& what_if, double gbps, double error) {
  AccuracyTableRow r;
  r.sample = sample;
  r.seed = seed;
  r.architecture = arch;
  r.answer_type = type;
  r.what_if = what_if;
  r.network_gbps = gbps;
  r.block_kib = 4;
  r.scenario = "s" + seed;
  r.metric = type == "what-if ratio" ? "throughput_ratio" : "iops";
  r.unit = type == "what-if ratio" ? "x" : "IO/s";
  r.description = arch + ", " + seed;
  r.measured = 100;
  r.predicted = 100 + error;
  r.error = error;
  r.error_unit = "%";
  return r;
}

// A table like the committed one, in miniature.
std::vector<AccuracyTableRow> mini_table() {
  return {scored(kSampleIn, "000", "OSA", "IOPS/throughput", "absolute", 10, -3),
          scored(kSampleIn, "003", "OSA", "IOPS/throughput", "absolute", 100, 7),
          scored(kSampleIn, "003", "OSA", "IOPS/throughput", "absolute", 100, -4),
          scored(kSampleIn, "000", "OSA", "host CPU", "absolute", 10, 11),
          scored(kSampleIn, "003", "OSA", "what-if ratio", "network speed; disk groups; cache device", 100, -17),
          scored(kSampleIn, "004", "OSA", "what-if ratio", "cache device", 10, 15),
          scored(kSampleOut, "001", "ESA", "IOPS/throughput", "absolute", 100, 17),
          scored(kSampleOut, "001", "ESA", "what-if ratio", "network speed", 100, 120),
          cv_not_measured_row()};
}

}  // namespace accuracy_table_test

TEST_CASE("accuracy classes: rows, median and max |error|, seeds, and single-seed fits said", "[accuracy]") {
  const std::vector<AccuracyClassRow> c = class_summary(accuracy_table_test::mini_table());
  REQUIRE(c.size() == 6);
  CHECK(c[0].architecture == "OSA");
  CHECK(c[0].answer_type == "IOPS/throughput");
  CHECK(c[0].sample == kSampleIn);
  CHECK(c[0].rows == 3);
  CHECK(c[0].median_abs == Approx(4));
  CHECK(c[0].max_abs == Approx(7));
  CHECK(c[0].seeds == std::vector<std::string>{"000", "003"});
  CHECK(c[0].note.empty());
  CHECK(c[1].answer_type == "host CPU");
  CHECK(c[1].note.find("fitted on the only seed of its kind") != std::string::npos);
  CHECK(c[3].architecture == "ESA");
  CHECK(c[3].sample == kSampleOut);
  CHECK(c[3].note == "one seed, never fitted");
  CHECK(c[5].sample == kSampleCv);
  CHECK(c[5].note == kNotMeasured);
  const std::string text = format_class_table(c);
  CHECK(text.find("leave-one-seed-out") != std::string::npos);
  CHECK(format_class_markdown(c).find("| ESA | what-if ratio | out of sample | 1 | 120.0 % | 120.0 % | 001 |") !=
        std::string::npos);
}

TEST_CASE("nearest measured: a class of one seed is at best a guide", "[accuracy]") {
  std::vector<AccuracyTableRow> t = accuracy_table_test::mini_table();
  for (AccuracyTableRow& r : t)
    if (r.seed == "001" && r.answer_type == "what-if ratio") {   // within 10: "close" for two seeds
      r.predicted = r.measured + 4;
      r.error = 4;
    }
  QuestionFeatures esa_network;
  esa_network.architecture = "ESA";
  esa_network.what_if = {"network speed"};
  esa_network.network_gbps = 100;
  const NearestMeasured n = nearest_measured(t, esa_network);
  CHECK(n.cls.median_abs == Approx(4));
  CHECK(n.verdict == "a guide");
  CHECK(n.text.find("over 1 row of one seed; treat this what-if as a guide") != std::string::npos);
}

TEST_CASE("nearest measured: architecture first, then what-if type, then bottleneck, network and block size", "[accuracy]") {
  const std::vector<AccuracyTableRow> t = accuracy_table_test::mini_table();
  QuestionFeatures esa_network;
  esa_network.architecture = "ESA";
  esa_network.what_if = {"network speed"};
  esa_network.network_gbps = 100;
  NearestMeasured n = nearest_measured(t, esa_network);
  CHECK(n.seeds == std::vector<std::string>{"001"});
  CHECK(n.verdict == "direction only");
  CHECK(n.text.find("treat this what-if as its direction only") != std::string::npos);

  QuestionFeatures osa_cache;
  osa_cache.architecture = "OSA";
  osa_cache.what_if = {"cache device"};
  n = nearest_measured(t, osa_cache);
  CHECK(n.seeds == std::vector<std::string>{"004", "003"});   // the exact what-if first
  CHECK(n.verdict == "a guide");                               // the class: 15 and 17 %

  QuestionFeatures osa_run;
  osa_run.architecture = "OSA";
  osa_run.network_gbps = 100;
  n = nearest_measured(t, osa_run);
  CHECK(n.row.seed == "003");   // the network speed decides between the absolute rows
  CHECK(n.verdict == "close");
  osa_run.network_gbps = 10;
  CHECK(nearest_measured(t, osa_run).row.seed == "000");

  QuestionFeatures esa_raid;
  esa_raid.architecture = "ESA";
  esa_raid.what_if = {"RAID"};
  n = nearest_measured(t, esa_raid);
  CHECK(n.verdict == "unvalidated");
  CHECK(n.seeds.empty());
  CHECK(n.text == "nearest measured: no measured cluster like this (ESA, a what-if on RAID): unvalidated");
  CHECK(to_json(n).find("\"row\": null") != std::string::npos);

  n = nearest_measured(std::string("/nonexistent/accuracy.csv"), esa_raid);
  CHECK(n.verdict == "table missing");
  CHECK(n.text.find("is missing") != std::string::npos);
}

TEST_CASE("nearest measured: a shared bottleneck outranks network speeds and block size together", "[accuracy]") {
  // Both rows are the same what-if; the first shares the network speeds and the block size class,
  // the second only the bottleneck device class, which ranks above them.
  using accuracy_table_test::scored;
  std::vector<AccuracyTableRow> t = {scored(kSampleOut, "001", "ESA", "what-if ratio", "network speed", 100, 20),
                                     scored(kSampleOut, "005", "ESA", "what-if ratio", "network speed", 10, 20)};
  t[0].baseline_network_gbps = 25;
  t[0].bottleneck = "network_port";
  t[1].baseline_network_gbps = 1;
  t[1].block_kib = 512;
  t[1].bottleneck = "rx_queue";
  QuestionFeatures q;
  q.architecture = "ESA";
  q.what_if = {"network speed"};
  q.network_gbps = 100;
  q.baseline_network_gbps = 25;
  q.block_kib = 4;
  q.bottleneck = "rx_queue";
  CHECK(nearest_measured(t, q).row.seed == "005");
}

TEST_CASE("what differs between the seeds' what-if pairs", "[accuracy]") {
  const HardwareCatalog cat = HardwareCatalog::load();
  const std::string dir = default_data_dir() + "/../examples/scenarios/";
  auto load = [&](const char* f) { return load_scenario(dir + f, {}, cat); };
  CHECK(what_differs(load("seed001-vxrail-esa-raid6-25gbe-oltp32k.yaml"), load("seed001-vxrail-esa-raid6-100gbe-oltp32k.yaml")) ==
        std::vector<std::string>{"network speed"});
  const auto seed004 = what_differs(load("seed004-r730xd-osa-sas-cache-vdbench-4k-70r.yaml"),
                                    load("seed004-r730xd-osa-optane-cache-vdbench-4k-70r.yaml"));
  CHECK(std::count(seed004.begin(), seed004.end(), "cache device") == 1);
  CHECK(std::count(seed004.begin(), seed004.end(), "network speed") == 0);
  const auto seed003 = what_differs(load("seed003-2node-osa-ri-cache-10gbe-easyrun-4k-70r.yaml"),
                                    load("seed003-2node-osa-optane905p-100gbe-easyrun-4k-70r.yaml"));
  CHECK(std::count(seed003.begin(), seed003.end(), "cache device") == 1);
  CHECK(std::count(seed003.begin(), seed003.end(), "network speed") == 1);
  const Scenario a = load("seed000-nuc11-osa-optane-fio-4k-70r.yaml");
  CHECK(what_differs(a, a) == std::vector<std::string>{"other settings"});
  CHECK(std::string(block_size_class(4)) == "small");
  CHECK(std::string(block_size_class(32)) == "medium");
  CHECK(std::string(block_size_class(512)) == "large");
}

TEST_CASE("a one-row measurement set scored into the table's rows and classes", "[accuracy]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "hcisim-accuracy-table-test";
  fs::create_directories(dir);
  const std::string csv = (dir / "measurements.csv").string();
  std::ofstream(csv) << "seed_file,scenario,workload,metric,value,unit,kind,notes\n"
                        "000_x.txt,examples/scenarios/seed000-nuc11-osa-optane-fio-4k-70r.yaml,w,iops,50000,IO/s,absolute,n\n"
                        "001_x.txt,examples/scenarios/seed001-vxrail-esa-raid6-25gbe-512k-read.yaml,w,throughput_mbps,20000,MB/s,absolute,n\n";
  const HardwareCatalog cat = HardwareCatalog::load();
  AccuracyOptions o;
  o.repo_dir = default_data_dir() + "/..";
  o.overrides = {"workload.duration_s=0.1", "workload.warmup_s=0.02"};
  const AccuracyReport report = evaluate(load_measurements(csv), cat, o);
  const std::vector<AccuracyTableRow> rows = table_rows(report, cat, o.repo_dir);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].sample == kSampleIn);
  CHECK(rows[0].architecture == "OSA");
  CHECK(rows[0].what_if == "absolute");
  CHECK(rows[0].block_kib == 4);
  CHECK(rows[0].error == Approx(report.rows[0].error_pct));
  CHECK(rows[1].sample == kSampleOut);
  CHECK(rows[1].architecture == "ESA");
  CHECK(rows[1].network_gbps == 25);
  const std::vector<AccuracyClassRow> c = class_summary(rows);
  REQUIRE(c.size() == 2);
  CHECK(c[0].median_abs == Approx(std::fabs(rows[0].error)));
  CHECK(c[1].seeds == std::vector<std::string>{"001"});

  // The file round-trips, '#' header and all.
  AccuracyTable t;
  t.model_version = model_version();
  t.inputs_hash = "0123456789abcdef";
  t.command = "hcisim accuracy --write";
  t.rows = rows;
  t.rows.push_back(cv_not_measured_row());
  const std::string path = (dir / "accuracy.csv").string();
  std::ofstream(path) << accuracy_table_text(t);
  // A rewrite without --cv keeps the leave-one-seed-out rows of a table from the same inputs only.
  AccuracyTable with_cv = t;
  with_cv.rows.back() = rows[0];
  with_cv.rows.back().sample = kSampleCv;
  const std::string cv_path = (dir / "with-cv.csv").string();
  std::ofstream(cv_path) << accuracy_table_text(with_cv);
  CHECK(cv_rows_to_keep(cv_path, t.inputs_hash).size() == 1);
  CHECK(cv_rows_to_keep(cv_path, "fedcba9876543210").empty());
  CHECK(cv_rows_to_keep(path, t.inputs_hash).empty());   // only a row marking them not measured
  CHECK(cv_rows_to_keep((dir / "none.csv").string(), t.inputs_hash).empty());
  const AccuracyTable back = read_accuracy_table(path);
  CHECK(back.inputs_hash == t.inputs_hash);
  CHECK(back.model_version == model_version());
  CHECK(back.command == t.command);
  REQUIRE(back.rows.size() == 3);
  CHECK(back.rows[1].description == rows[1].description);
  CHECK(back.rows[2].status == kNotMeasured);
  fs::remove_all(dir);
}

TEST_CASE("the inputs hash moves with every input and the model version, and names a stale table", "[accuracy]") {
  namespace fs = std::filesystem;
  const fs::path root = accuracy_table_test::copy_of_inputs("hcisim-accuracy-hash-test");
  const std::string src = default_data_dir();
  const std::string data = (root / "data").string(), repo = root.string();
  const std::string before = accuracy_inputs_hash(data, repo);
  CHECK(before == accuracy_inputs_hash(src, src + "/.."));   // where the files are does not matter
  CHECK(accuracy_table_stale(data + "/accuracy.csv", data, repo).empty() ==
        accuracy_table_stale(src + "/accuracy.csv", src, src + "/..").empty());
  std::ofstream(data + "/calibration.yaml", std::ios::app) << "\n";
  const std::string after = accuracy_inputs_hash(data, repo);
  CHECK(after != before);
  const std::string stale = accuracy_table_stale(data + "/accuracy.csv", data, repo);
  CHECK(stale.find("is stale") != std::string::npos);
  CHECK(stale.find("run `hcisim accuracy --write") != std::string::npos);
  fs::remove(repo + "/examples/scenarios/seed002-skullcanyon-osa-optane-usb-diskspd-8k.yaml");
  CHECK(accuracy_inputs_hash(data, repo) != after);
  fs::remove(data + "/accuracy.csv");
  CHECK(accuracy_table_stale(data + "/accuracy.csv", data, repo).find("is missing") != std::string::npos);
  fs::remove_all(root);
}

TEST_CASE("the model fingerprint is the same run after run, moves with a scenario's prediction, and names a stale table", "[accuracy]") {
  namespace fs = std::filesystem;
  const fs::path root = accuracy_table_test::copy_of_inputs("hcisim-accuracy-fingerprint-test");
  const std::string src = default_data_dir();
  const std::string data = (root / "data").string(), repo = root.string();
  const HardwareCatalog cat = HardwareCatalog::load(data);
  const std::string before = model_fingerprint(data, repo, cat);
  CHECK(before.size() == 16);
  CHECK(model_fingerprint(data, repo, cat) == before);   // deterministic
  // The committed table carries the fingerprint of the model that wrote it.
  CHECK(accuracy_table_stale(data + "/accuracy.csv", data, repo, before).empty() ==
        (read_accuracy_table(data + "/accuracy.csv").fingerprint == before));
  // A table whose fingerprint differs from the model's now is stale, and says what to do.
  const std::string other = before == "0000000000000000" ? "0000000000000001" : "0000000000000000";
  const std::string stale = accuracy_table_stale(src + "/accuracy.csv", src, src + "/..", other);
  CHECK(stale.find("the model's predictions moved") != std::string::npos);
  CHECK(stale.find("bump kModelRevision") != std::string::npos);
  // What a scenario predicts moves it (here: half the VMs on seed 001's 100 GbE cluster).
  const std::string file = repo + "/examples/scenarios/seed001-vxrail-esa-raid6-100gbe-oltp32k.yaml";
  std::ifstream in(file);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  const std::size_t at = text.find("  vms: 12");
  REQUIRE(at != std::string::npos);
  text.replace(at, 9, "  vms: 6 ");
  std::ofstream(file, std::ios::trunc) << text;
  CHECK(model_fingerprint(data, repo, cat) != before);
  fs::remove_all(root);
}
