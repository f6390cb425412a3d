// Links hcisim::hcisim from an installed package and runs a tiny simulation.
#include <hcisim/hcisim.hpp>

#include <cstdio>

int main() {
  hcisim::OpenQueueSpec spec;
  spec.customers = 20'000;
  spec.warmup_customers = 1'000;
  const auto r = hcisim::run_open_queue(spec);
  std::printf("hcisim %s consumer: %llu customers, mean sojourn %.2f us\n", hcisim::kVersion,
              static_cast<unsigned long long>(r.completed), r.mean_sojourn_s * 1e6);
  return r.completed == spec.customers ? 0 : 1;
}
