// A planning tool's view of hcisim: it knows only the installed package's planner headers
// (run_consumer.cmake removes the model's before building it). It finds the package's data
// (catalogs, calibration) beside itself, runs the built-in default scenario shortened by the
// overrides given on its command line, compares it with itself (both sides must be that run),
// and prints the data folder it used and the run's CSV row (compared with the in-tree CLI's by
// tests/package/run_consumer.cmake).
#include <hcisim/hcisim.hpp>

#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  try {
    std::vector<std::string> sets(argv + 1, argv + argc);
    const std::string data = hcisim::default_data_dir();
    const hcisim::HardwareCatalog cat = hcisim::HardwareCatalog::load(data);
    const hcisim::Scenario s = hcisim::parse_scenario(hcisim::default_scenario_yaml(), "<built-in default>", sets, cat);
    const hcisim::RunResult r = hcisim::simulate(s);
    const hcisim::Comparison c = hcisim::compare(s, s);
    if (hcisim::csv_row(c.a) != hcisim::csv_row(r) || hcisim::csv_row(c.b) != hcisim::csv_row(r)) {
      std::fprintf(stderr, "consumer: compare's sides differ from the run\n");
      return 2;
    }
    std::printf("data: %s\n%s\n", data.c_str(), hcisim::csv_row(r).c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "consumer: %s\n", e.what());
    return 1;
  }
}
