// Storage policies (RAID-1 mirroring, RAID-5/6 erasure coding) and the layout each one
// takes on a given architecture and host count ([S10] [S40] [S44] [S50] [S51]):
//   RAID-1 FTT n : n+1 full copies (+ n witness components on OSA), 2n+1 hosts, n <= 3
//   OSA RAID-5   : 3+1, 4 hosts;            OSA RAID-6: 4+2, 6 hosts
//   ESA RAID-5   : adaptive, 2+1 on 3-5 hosts, 4+1 on 6 or more;  ESA RAID-6: 4+2, 6 hosts
//   ESA objects also carry a RAID-1 performance leg of FTT+1 mirrors that absorbs writes.
// A 2-node cluster (seed 003) runs RAID-1 FTT 1 with the witness on a separate witness host.
#pragma once

#include <cstdint>
#include <string>

namespace hcisim {

enum class Architecture : std::uint8_t { osa, esa };
enum class RaidLevel : std::uint8_t { raid1, raid5, raid6 };

const char* architecture_name(Architecture a);
const char* raid_name(RaidLevel r);

struct StoragePolicy {
  RaidLevel raid = RaidLevel::raid1;
  int ftt = 1;                 // failures to tolerate: RAID-1 0..3; RAID-5 1; RAID-6 2
  bool checksum = true;        // CRC-32C per 4 KB block (on by default in vSAN)
  bool encryption = false;     // data-at-rest encryption (CPU per KiB)
  int stripe_width = 1;        // "number of disk stripes per object", 1..12: the least number of
                               // capacity devices each replica or column is striped over (OSA)
};

/// A policy resolved for an architecture and a host count.
struct Layout {
  RaidLevel raid = RaidLevel::raid1;
  int ftt = 1;
  int data = 1;                // k: data columns per stripe (1 for RAID-1)
  int parity = 0;              // m: parity columns per stripe (0 for RAID-1)
  int replicas = 1;            // RAID-1 copies (FTT+1); 1 for erasure coding
  int witnesses = 0;           // metadata-only components (OSA RAID-1)
  int perf_leg_copies = 0;     // ESA performance-leg mirrors (FTT+1); 0 on OSA
  int min_hosts = 1;

  bool erasure_coded() const { return raid != RaidLevel::raid1; }
  /// Hosts that hold data or parity: replicas for RAID-1, k + m for erasure coding.
  int data_components() const { return erasure_coded() ? data + parity : replicas; }
  /// Raw bytes per byte of VM data (before ESA's log-structured overhead).
  double capacity_factor() const;
  /// e.g. "RAID-6 4+2 (FTT 2)".
  std::string describe() const;
};

/// Resolves `policy` on `arch` with `hosts` data hosts (`witness_host`: a 2-node cluster's
/// separate witness). Throws InvalidArgument naming the policy, the rule and the hosts needed.
Layout resolve_layout(const StoragePolicy& policy, Architecture arch, int hosts, bool witness_host = false);

}  // namespace hcisim
