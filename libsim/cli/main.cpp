// hcisim command line. For now it runs the engine demo: one device queue (4 parallel
// channels, 10 us exponential service: an NVMe-like device) under Poisson load rising
// from 10% to 95%, printing simulated IOPS and latency next to M/M/c theory.
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "hcisim/hcisim.hpp"

namespace {

int usage(std::FILE* out) {
  std::fprintf(out,
               "usage: hcisim [demo] [--seed N] [--ios N]\n"
               "  demo        device queue at rising load vs M/M/c theory (default)\n"
               "  --seed N    random seed (default 1)\n"
               "  --ios N     measured I/Os per load point (default 200000)\n"
               "  --help      this text\n");
  return out == stdout ? 0 : 2;
}

std::uint64_t parse_count(const char* flag, const char* text) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0' || text[0] == '-' || v == 0)
    throw hcisim::InvalidArgument(std::string(flag) + " = '" + text + "' is not allowed; expected a positive integer");
  return v;
}

int demo(std::uint64_t seed, std::uint64_t ios) {
  constexpr int kChannels = 4;
  constexpr double kServiceUs = 10.0;
  const double mu = 1e6 / kServiceUs;   // per channel, I/Os per second
  std::printf("hcisim %s engine demo: device queue, %d channels, %.0f us exponential service, seed %llu\n",
              hcisim::kVersion, kChannels, kServiceUs, static_cast<unsigned long long>(seed));
  std::printf("%6s %12s %14s %14s %12s %12s\n", "load", "IOPS", "mean_lat_us", "theory_us", "p99_us", "events");
  for (double load : {0.10, 0.30, 0.50, 0.70, 0.80, 0.90, 0.95}) {
    const double lambda = load * kChannels * mu;
    hcisim::OpenQueueSpec spec;
    spec.servers = kChannels;
    spec.interarrival_ns = hcisim::Distribution::exponential(1e9 / lambda);
    spec.service_ns = hcisim::Distribution::exponential(kServiceUs * 1e3);
    spec.warmup_customers = ios / 10;
    spec.customers = ios;
    spec.seed = seed;
    const auto r = hcisim::run_open_queue(spec);
    const double theory_us = (hcisim::theory::mmc_wait(lambda, mu, kChannels) + 1.0 / mu) * 1e6;
    std::printf("%5.0f%% %12.0f %14.2f %14.2f %12.2f %12llu\n", load * 100, r.throughput_per_s,
                r.mean_sojourn_s * 1e6, theory_us, r.p99_sojourn.us(), static_cast<unsigned long long>(r.events));
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::uint64_t seed = 1;
    std::uint64_t ios = 200'000;
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "--help" || arg == "-h") return usage(stdout);
      if (arg == "demo") continue;
      if ((arg == "--seed" || arg == "--ios") && i + 1 < argc) {
        (arg == "--seed" ? seed : ios) = parse_count(arg.c_str(), argv[++i]);
        continue;
      }
      std::fprintf(stderr, "hcisim: unknown argument '%s'\n", arg.c_str());
      return usage(stderr);
    }
    return demo(seed, ios);
  } catch (const hcisim::InvalidArgument& e) {
    std::fprintf(stderr, "hcisim: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hcisim: internal error: %s\n", e.what());
    return 1;
  }
}
