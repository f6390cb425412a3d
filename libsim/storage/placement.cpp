// Component placement and address mapping (placement.hpp).
#include "hcisim/model/storage/placement.hpp"

#include <numeric>
#include <string>

#include "hcisim/core/check.hpp"
#include "hcisim/model/core/rng.hpp"

namespace hcisim {

std::uint64_t range_hash(int object, std::uint64_t range) {
  std::uint64_t x = (static_cast<std::uint64_t>(object) << 40) ^ range ^ 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

ComponentPlace draw_device(const ClusterSpec& cluster, RngStream& rng, int host) {
  const auto& groups = cluster.hosts[static_cast<std::size_t>(host)].disk_groups;
  ComponentPlace c;
  c.host = static_cast<std::uint16_t>(host);
  c.group = static_cast<std::uint16_t>(rng.below(groups.size()));
  c.device = static_cast<std::uint16_t>(rng.below(groups[c.group].capacity.size()));
  return c;
}

std::vector<ComponentPlace> place_split(const ClusterSpec& cluster, const ComponentPlace& first, int chunks,
                                        RngStream& rng) {
  const std::int64_t width = cluster.policy.stripe_width;
  const auto& groups = cluster.hosts[first.host].disk_groups;
  // The host's capacity devices as (group, device), the first component's taken.
  std::vector<ComponentPlace> unused;
  for (std::size_t g = 0; g < groups.size(); ++g)
    for (std::size_t d = 0; d < groups[g].capacity.size(); ++d)
      if (g != first.group || d != first.device)
        unused.push_back(ComponentPlace{first.host, static_cast<std::uint16_t>(g), static_cast<std::uint16_t>(d)});
  // ClusterSpec::validate() refuses this; place_object is public, so check again.
  check::in_range(width, 1, static_cast<std::int64_t>(unused.size()) + 1, "policy.stripe_width (capacity devices on a host)");
  std::vector<ComponentPlace> out;
  for (int c = 1; c < chunks; ++c) {
    if (c < width) {   // a stripe of the policy: a device no other stripe of the column uses
      const std::size_t pick = rng.below(unused.size());
      out.push_back(unused[pick]);
      unused.erase(unused.begin() + static_cast<std::ptrdiff_t>(pick));
    } else {           // a split of an oversized stripe: anywhere on the host
      out.push_back(draw_device(cluster, rng, first.host));
    }
  }
  return out;
}

ObjectPlacement place_object(const ClusterSpec& cluster, const Layout& layout, int object, int owner, Bytes size,
                             std::uint64_t seed) {
  const int hosts = static_cast<int>(cluster.hosts.size());
  RngStream rng(seed, 0, "placement/" + std::to_string(object));
  std::vector<int> order(static_cast<std::size_t>(hosts));
  std::iota(order.begin(), order.end(), 0);
  for (int i = hosts - 1; i > 0; --i)   // Fisher-Yates
    std::swap(order[static_cast<std::size_t>(i)], order[rng.below(static_cast<std::uint64_t>(i) + 1)]);

  ObjectPlacement p;
  p.owner = owner;
  p.size = size;
  const int n = layout.data_components();
  for (int i = 0; i < n; ++i) {
    const int h = order[static_cast<std::size_t>(i)];
    p.data.push_back(cluster.architecture == Architecture::osa ? draw_device(cluster, rng, h)
                                                               : ComponentPlace{static_cast<std::uint16_t>(h), 0, 0});
  }
  if (cluster.architecture == Architecture::osa) {
    // Components beyond the first of each column: their own draws, so the first components
    // sit where they would without striping.
    const std::int64_t width = cluster.policy.stripe_width;
    const std::int64_t column = column_bytes(layout, cluster.osa.stripe_unit, size);
    const std::int64_t per_stripe = (column + width * kMaxComponent.count() - 1) / (width * kMaxComponent.count());
    p.chunks = static_cast<int>(width * per_stripe);
    RngStream more(seed, 0, "placement-stripes/" + std::to_string(object));
    for (int i = 0; i < n; ++i)
      for (const ComponentPlace& c : place_split(cluster, p.data[static_cast<std::size_t>(i)], p.chunks, more))
        p.split.push_back(c);
  }
  for (int i = 0; i < layout.perf_leg_copies; ++i) p.perf.push_back(ComponentPlace{p.data[static_cast<std::size_t>(i % n)].host, 0, 0});
  // With fewer spare hosts than witnesses (2-node), the witness host holds them.
  for (int i = 0; i < layout.witnesses; ++i)
    p.witnesses.push_back(n + i < hosts ? order[static_cast<std::size_t>(n + i)] : -1);
  return p;
}

std::int64_t column_bytes(const Layout& layout, Bytes stripe_unit, Bytes object_size) {
  if (!layout.erasure_coded()) return object_size.count();
  const std::int64_t row = stripe_unit.count() * layout.data;
  return (object_size.count() + row - 1) / row * stripe_unit.count();
}

std::int64_t raid0_span(const Layout& layout, Bytes stripe_unit) {
  return layout.erasure_coded() ? stripe_unit.count() * layout.data : kRaid0Unit.count();
}

int chunk_of(const ObjectPlacement& p, const Layout& layout, Bytes stripe_unit, std::uint64_t offset) {
  if (p.chunks == 1) return 0;
  const std::uint64_t unit = offset / static_cast<std::uint64_t>(raid0_span(layout, stripe_unit));
  return static_cast<int>(unit % static_cast<std::uint64_t>(p.chunks));
}

int read_replica(const ObjectPlacement& p, int object, std::uint64_t offset, int reader_host, bool two_node) {
  const int n = static_cast<int>(p.data.size());
  if (two_node)
    for (int i = 0; i < n; ++i)
      if (p.data[static_cast<std::size_t>(i)].host == reader_host) return i;
  return static_cast<int>(range_hash(object, offset >> 20) % static_cast<std::uint64_t>(n));
}

StripeColumns stripe_columns(const Layout& layout, Bytes stripe_unit, std::uint64_t offset) {
  const std::uint64_t unit = static_cast<std::uint64_t>(stripe_unit.count());
  const std::uint64_t k = static_cast<std::uint64_t>(layout.data);
  const std::uint64_t width = k + static_cast<std::uint64_t>(layout.parity);
  const std::uint64_t row = offset / (unit * k);
  const std::uint64_t unit_in_row = (offset / unit) % k;
  StripeColumns s;
  // Row r keeps parity on columns (r + k + j) mod width, j < m; data fills the others in order.
  for (int j = 0; j < layout.parity; ++j)
    s.parity_columns[j] = static_cast<int>((row + k + static_cast<std::uint64_t>(j)) % width);
  s.parity_count = layout.parity;
  s.data_column = static_cast<int>((row + unit_in_row) % width);
  return s;
}

}  // namespace hcisim
