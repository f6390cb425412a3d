// Validation and names for CPU specs and per-stage costs.
#include "hcisim/hw/cpu_spec.hpp"

#include "hcisim/core/check.hpp"

namespace hcisim {

void CpuSpec::validate() const {
  const std::string p = "cpu '" + name + "' ";
  check::in_range(sockets, 1, 8, p + "sockets");
  check::in_range(cores_per_socket, 1, 256, p + "cores_per_socket");
  check::in_range(threads_per_core, 1, 8, p + "threads_per_core");
  check::positive(ghz, p + "ghz");
  if (!(ghz >= 0.1 && ghz <= 10)) check::fail(p + "ghz", ghz, "0.1 .. 10 GHz");
  if (!(base_ghz == 0 || (base_ghz >= 0.1 && base_ghz <= 10)))
    check::fail(p + "base_ghz", base_ghz, "0 (not given) or 0.1 .. 10 GHz");
  if (!(turbo_ghz == 0 || (turbo_ghz >= 0.1 && turbo_ghz <= 10)))
    check::fail(p + "turbo_ghz", turbo_ghz, "0 (not given) or 0.1 .. 10 GHz");
  if (threads_per_core > 1 && !(ht_throughput >= 1.0 && ht_throughput <= threads_per_core))
    check::fail(p + "ht_throughput", ht_throughput, "1 .. threads_per_core");
}

const char* cpu_stage_name(CpuStage stage) {
  static constexpr const char* kNames[kCpuStages] = {"guest",       "vscsi",         "dom_client", "dom_owner",
                                                     "component",   "checksum",      "compression",
                                                     "decompression", "encryption",  "network",    "destage",
                                                     "dedupe"};
  return kNames[static_cast<int>(stage)];
}

const char* guest_os_name(GuestOs os) { return os == GuestOs::windows ? "windows" : "linux"; }

void CpuCosts::validate() const {
  check::positive_at_most(reference_ghz, 100, "cpu costs reference_ghz");
  const std::pair<const char*, double> all[] = {
      {"guest_us", guest_us},
      {"windows_guest_us", windows_guest_us},
      {"vscsi_us", vscsi_us},
      {"dom_client_us", dom_client_us},
      {"dom_owner_us", dom_owner_us},
      {"component_us", component_us},
      {"destage_us", destage_us},
      {"net_message_us", net_message_us},
      {"rdma_message_us", rdma_message_us},
      {"checksum_us_per_kib", checksum_us_per_kib},
      {"compression_us_per_kib", compression_us_per_kib},
      {"decompression_us_per_kib", decompression_us_per_kib},
      {"encryption_us_per_kib", encryption_us_per_kib},
      {"dedupe_us_per_kib", dedupe_us_per_kib},
      {"net_us_per_kib", net_us_per_kib},
      {"tcp_receive_us_per_kib", tcp_receive_us_per_kib},
      {"rdma_us_per_kib", rdma_us_per_kib},
  };
  // At most a second of core time per I/O (or per KiB): far above anything physical, and
  // far below what would overflow a duration in nanoseconds.
  for (const auto& [field, v] : all) check::non_negative_at_most(v, 1e6, std::string("cpu costs ") + field);
}

}  // namespace hcisim
