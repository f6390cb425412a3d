// Where an object's components live. Each VMDK is an object; its data components (RAID-1
// replicas or the k+m erasure-coding columns) sit on distinct hosts drawn from a
// deterministic shuffle seeded by (seed, object index); witnesses (OSA RAID-1) take further
// distinct hosts, or the witness host of a 2-node cluster. ESA's performance-leg mirrors
// use the first FTT+1 of the same hosts. Within a host a component sits on one disk group
// and one capacity device (OSA; a column may have several RAID-0 components, below) or is
// spread over the pool's devices by 1 MiB range (ESA).
// RAID-0 within a column (OSA). The policy's stripe width ("number of disk stripes per
// object", 1..12) is the least number of capacity devices each replica is striped over, each
// stripe a component on a device of its own (VMware Virtual Blocks, "vSAN stripes (How, When
// and Why?)", 2016-09 [S30]). A component holds at most 255 GB ([S32]; taken as GiB), and a
// larger object is divided into more components "in the same RAID-0 stripe configuration"
// (VMware vCAT, "vSAN Storage Policy Design" [S31]: a 2 TB VMDK
// gives eight or more). So a column has stripe_width x ceil(column / (stripe_width x 255 GiB))
// components, taking RAID-0 units in turn: 1 MiB of a replica, or one erasure-coding row
// (one stripe unit of each column) (the units are our assumption). An I/O across units is
// split into one operation per unit (Cluster::submit). The first
// stripe_width sit on distinct capacity devices of the column's host; the split ones, which
// vSAN may place on the same disks, draw freely there. Keeping the host keeps the policy's
// host separation and the read rules below. ESA pools spread every component over all their
// devices by range already, so striping changes nothing there and is not tracked.
// Address mapping: RAID-1 reads of a 1 MiB range always go to the same replica ([S22]
// [S23]), chosen by a hash of (object, range): about 1/H of reads are local. 2-node
// clusters read from the replica on the reading host ([S27]). Erasure coding: stripe rows of
// k data units of `stripe_unit` bytes plus m parity units; parity rotates by row.
#pragma once

#include <cstdint>
#include <vector>

#include "hcisim/model/core/rng.hpp"
#include "hcisim/core/units.hpp"
#include "hcisim/storage/cluster_spec.hpp"
#include "hcisim/storage/policy.hpp"

namespace hcisim {

struct ComponentPlace {
  std::uint16_t host = 0;
  std::uint16_t group = 0;      // OSA disk group index on the host (0 on ESA)
  std::uint16_t device = 0;     // OSA capacity device in the group (ESA: chosen per range)
};

/// vSAN's largest component.
inline constexpr Bytes kMaxComponent = Bytes{std::int64_t{255} << 30};
/// The RAID-0 unit of a replica over its components.
inline constexpr Bytes kRaid0Unit = Bytes{std::int64_t{1} << 20};

struct ObjectPlacement {
  int owner = 0;                          // DOM owner host
  Bytes size;
  std::vector<ComponentPlace> data;       // replicas or k+m columns (their first component)
  int chunks = 1;                         // OSA: RAID-0 components per column (see above)
  std::vector<ComponentPlace> split;      // OSA: components 1.. of each column, chunks - 1 per column
  /// Component `chunk` of column `column`.
  const ComponentPlace& component(int column, int chunk) const {
    return chunk == 0 ? data[static_cast<std::size_t>(column)]
                      : split[static_cast<std::size_t>(column * (chunks - 1) + chunk - 1)];
  }
  ComponentPlace& component(int column, int chunk) {
    return const_cast<ComponentPlace&>(static_cast<const ObjectPlacement&>(*this).component(column, chunk));
  }
  std::vector<ComponentPlace> perf;       // ESA performance leg
  std::vector<int> witnesses;             // hosts; -1 = the 2-node witness host
};

/// OSA: a disk group of `host` and a capacity device in it, uniformly.
ComponentPlace draw_device(const ClusterSpec& cluster, RngStream& rng, int host);
/// OSA: the RAID-0 components 1 .. chunks-1 of a column whose first component is `first`:
/// the policy's stripes on capacity devices of its host that no other stripe of the column
/// uses, the splits of oversized stripes anywhere on the host (above).
std::vector<ComponentPlace> place_split(const ClusterSpec& cluster, const ComponentPlace& first, int chunks,
                                        RngStream& rng);

ObjectPlacement place_object(const ClusterSpec& cluster, const Layout& layout, int object, int owner, Bytes size,
                             std::uint64_t seed);

/// Bytes of one column: the object for RAID-1, its share of the stripe rows for erasure coding.
std::int64_t column_bytes(const Layout& layout, Bytes stripe_unit, Bytes object_size);
/// Object bytes per RAID-0 unit: kRaid0Unit for RAID-1, one stripe row (k units) for EC.
std::int64_t raid0_span(const Layout& layout, Bytes stripe_unit);
/// Which of a column's components holds object offset `offset`.
int chunk_of(const ObjectPlacement& p, const Layout& layout, Bytes stripe_unit, std::uint64_t offset);

/// RAID-1: index into `data` of the replica that serves reads of `offset`.
int read_replica(const ObjectPlacement& p, int object, std::uint64_t offset, int reader_host, bool two_node);

/// Erasure coding: the data column holding `offset`, and the parity columns of its row.
struct StripeColumns {
  int data_column = 0;
  int parity_columns[2] = {0, 0};
  int parity_count = 0;
  /// Whether `column` holds one of the row's parities.
  bool is_parity(std::size_t column) const {
    for (int j = 0; j < parity_count; ++j)
      if (static_cast<std::size_t>(parity_columns[j]) == column) return true;
    return false;
  }
};
StripeColumns stripe_columns(const Layout& layout, Bytes stripe_unit, std::uint64_t offset);

/// 64-bit mix of an object and a range index (deterministic hashing for placement choices).
std::uint64_t range_hash(int object, std::uint64_t range);

}  // namespace hcisim
