// Policy -> layout rules (policy.hpp; [S10] [S40] [S44] [S50] [S51]).
#include "hcisim/storage/policy.hpp"

#include "hcisim/core/check.hpp"

namespace hcisim {

const char* architecture_name(Architecture a) { return a == Architecture::osa ? "OSA" : "ESA"; }

const char* raid_name(RaidLevel r) {
  switch (r) {
    case RaidLevel::raid1: return "RAID-1";
    case RaidLevel::raid5: return "RAID-5";
    case RaidLevel::raid6: return "RAID-6";
  }
  return "?";
}

double Layout::capacity_factor() const {
  if (!erasure_coded()) return replicas;
  return static_cast<double>(data + parity) / data;
}

std::string Layout::describe() const {
  // Built with append(): GCC 12 warns falsely (-Wrestrict) on chained operator+ here.
  std::string s = raid_name(raid);
  if (erasure_coded()) {
    s.append(" ").append(std::to_string(data)).append("+").append(std::to_string(parity));
  }
  s.append(" (FTT ").append(std::to_string(ftt)).append(")");
  return s;
}

Layout resolve_layout(const StoragePolicy& policy, Architecture arch, int hosts, bool witness_host) {
  check::in_range(hosts, 1, 64, "cluster hosts");
  Layout l;
  l.raid = policy.raid;
  l.ftt = policy.ftt;
  switch (policy.raid) {
    case RaidLevel::raid1:
      check::in_range(policy.ftt, 0, 3, "RAID-1 policy ftt");
      l.replicas = policy.ftt + 1;
      l.witnesses = arch == Architecture::osa ? policy.ftt : 0;
      l.min_hosts = 2 * policy.ftt + 1;
      break;
    case RaidLevel::raid5:
      if (policy.ftt != 1) check::fail("RAID-5 policy ftt", policy.ftt, "1 (RAID-5 tolerates one failure)");
      l.parity = 1;
      if (arch == Architecture::osa) {
        l.data = 3;
        l.min_hosts = 4;
      } else {
        l.data = hosts >= 6 ? 4 : 2;   // adaptive RAID-5
        l.min_hosts = 3;
      }
      break;
    case RaidLevel::raid6:
      if (policy.ftt != 2) check::fail("RAID-6 policy ftt", policy.ftt, "2 (RAID-6 tolerates two failures)");
      l.data = 4;
      l.parity = 2;
      l.min_hosts = 6;
      break;
  }
  if (arch == Architecture::esa) l.perf_leg_copies = policy.ftt + 1;

  // A 2-node cluster counts its witness host towards RAID-1 FTT 1's three fault domains.
  const int fault_domains = hosts + (witness_host ? 1 : 0);
  if (witness_host && !(policy.raid == RaidLevel::raid1 && policy.ftt <= 1 && hosts == 2))
    throw InvalidArgument("policy " + l.describe() + ": a witness host is only for 2-node clusters with RAID-1 FTT 1 "
                          "(this cluster has " + std::to_string(hosts) + " data hosts)");
  if (fault_domains < l.min_hosts)
    throw InvalidArgument("policy " + l.describe() + " on " + architecture_name(arch) + " needs at least " +
                          std::to_string(l.min_hosts) + " hosts; the cluster has " + std::to_string(hosts) +
                          (witness_host ? " plus a witness" : "") +
                          (l.raid == RaidLevel::raid1 && l.ftt == 1 && hosts == 2 ? " (add a witness host)" : ""));
  return l;
}

}  // namespace hcisim
