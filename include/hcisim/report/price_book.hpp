// What parts cost: list prices in US dollars, each with where it came
// from. The catalogs carry a price where one is published (data/*.csv, `price_usd`), and a
// user's price file (`--prices FILE`, scenario/hardware_catalog.hpp) adds or overrides any of them.
// A part without a price stays unpriced: costs are never guessed.
#pragma once

#include <map>
#include <string>

namespace hcisim {

/// The largest amount a price may have (US dollars): beyond any part, and far from overflow.
inline constexpr double kMaxPriceUsd = 1e9;

struct Price {
  double usd = 0;
  std::string source;          // where the figure comes from: a catalog row's source or the price file
};

/// Licences: per physical core (with a minimum per socket, as per-core subscriptions count)
/// and per TiB of raw capacity. Absent (unset) means "not priced", 0 means "free".
struct LicencePrices {
  bool per_core_set = false;
  double per_core_usd = 0;
  int min_cores_per_socket = 0;
  std::string per_core_source;
  bool per_tib_set = false;
  double per_tib_raw_usd = 0;
  std::string per_tib_source;
};

class PriceBook {
 public:
  enum class Part { cpu, device, nic, switch_unit, cable };

  /// Sets the price of one part (a CPU per socket, a drive, a NIC card, a whole switch, or the
  /// cable of one port of that switch).
  void set(Part part, const std::string& name, Price price) { parts_[{part, name}] = std::move(price); }
  /// nullptr when the part has no price.
  const Price* find(Part part, const std::string& name) const {
    const auto it = parts_.find({part, name});
    return it == parts_.end() ? nullptr : &it->second;
  }
  /// What one host costs beyond its CPUs, drives and NICs (chassis, memory, boot device).
  void set_host_base(Price p) {
    host_base_ = std::move(p);
    host_base_set_ = true;
  }
  const Price* host_base() const { return host_base_set_ ? &host_base_ : nullptr; }
  LicencePrices& licences() { return licences_; }
  const LicencePrices& licences() const { return licences_; }
  bool empty() const { return parts_.empty() && !host_base_set_ && !licences_.per_core_set && !licences_.per_tib_set; }
  /// Every price of `over` replaces or adds to this book's.
  void overlay(const PriceBook& over);

 private:
  std::map<std::pair<Part, std::string>, Price> parts_;
  Price host_base_;
  bool host_base_set_ = false;
  LicencePrices licences_;
  bool from_file_ = false;

 public:
  /// Whether a price file was laid over this book: reports then give the cost even when no
  /// part of the scenario has a price (to say what is missing).
  bool from_file() const { return from_file_; }
  void mark_from_file() { from_file_ = true; }
};

}  // namespace hcisim
