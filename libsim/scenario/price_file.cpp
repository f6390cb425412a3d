// Reading a price file (hardware_catalog.hpp, parse_price_file).
#include "hcisim/scenario/hardware_catalog.hpp"

#include <algorithm>
#include <vector>

#include "hcisim/core/check.hpp"
#include "yaml_reader.hpp"

namespace hcisim {

namespace {

using detail::YamlReader;

// A price at a key of the table (host_base, a switch's switch and cable, the licences).
double amount(const YamlReader& r, const char* key) {
  if (!r.has(key)) r.fail("missing key '" + r.key_path(key) + "'");
  return r.number(key, 0) + 0.0;   // -0 is 0
}

// A price of a catalog part, at its name in a map of names (cpus, devices, nics).
double part_amount(const YamlReader& r, const char* name) {
  return r.number(name, 0, 0, kMaxPriceUsd, "US dollars from 0 to 1e9") + 0.0;
}

// A key of a name map: a plain name, given once.
std::string key_name(const YamlReader& m, const YAML::Node& key, std::vector<std::string>& seen) {
  if (!key.IsScalar()) throw InvalidArgument(m.where(key) + ": a key must be a plain name, not a list or map");
  std::string name = key.Scalar();
  if (std::find(seen.begin(), seen.end(), name) != seen.end())
    throw InvalidArgument(m.where(key) + ": duplicate key '" + m.key_path(name.c_str()) + "'");
  seen.push_back(name);
  return name;
}

// A map of catalog names to amounts: `lookup(name)` throws for a name the catalog lacks.
template <class Lookup>
void read_parts(const YamlReader& r, const char* key, PriceBook::Part part, const std::string& source, Lookup lookup,
                PriceBook& book) {
  if (!r.has(key)) return;
  const YamlReader m = r.child(key);
  if (!m.is_map()) m.fail("expected a map of catalog names to US dollars, e.g. {name: 1200}");
  std::vector<std::string> seen;
  for (const auto& kv : m.node()) {
    const std::string name = key_name(m, kv.first, seen);
    try {
      lookup(name);
    } catch (const InvalidArgument& e) {
      m.fail_value(m.key_path(name.c_str()), name, std::string("a catalog name (") + e.what() + ")", kv.first);
    }
    book.set(part, name, {part_amount(m, name.c_str()), source});
  }
}

}  // namespace

PriceBook parse_price_file(const std::string& text, const std::string& source, const HardwareCatalog& catalog) {
  const YAML::Node root = detail::parse_yaml_map(
      text, source, "a price file", "a price file is a map with the keys currency, source, host_base, cpus, devices, nics, switches and licences");
  PriceBook book;
  try {
    const YamlReader r(root, source, "prices");
    r.expect_keys();
    if (!r.has("currency")) r.fail("missing key 'currency'; expected currency: USD (prices are US dollars)");
    r.choice("currency");
    const std::string from = r.text("source", "price file " + source);
    if (from.empty()) r.fail("source is empty; say where the prices come from, or leave the key out");
    if (r.has("host_base")) book.set_host_base({amount(r, "host_base"), from});
    read_parts(r, "cpus", PriceBook::Part::cpu, from, [&](const std::string& n) { catalog.cpu(n); }, book);
    read_parts(r, "devices", PriceBook::Part::device, from, [&](const std::string& n) { catalog.device(n); }, book);
    read_parts(r, "nics", PriceBook::Part::nic, from, [&](const std::string& n) { catalog.nic(n); }, book);
    if (r.has("switches")) {
      const YamlReader m = r.child("switches");
      if (!m.is_map()) m.fail("expected a map of catalog switch names to {switch: USD, cable: USD}");
      std::vector<std::string> seen;
      for (const auto& kv : m.node()) {
        const std::string name = key_name(m, kv.first, seen);
        try {
          catalog.network_switch(name);
        } catch (const InvalidArgument& e) {
          m.fail_value(m.key_path(name.c_str()), name, std::string("a catalog name (") + e.what() + ")", kv.first);
        }
        const YamlReader s = m.child(name.c_str());
        s.expect_keys();
        if (!s.has("switch") && !s.has("cable")) s.fail("expected switch: USD and/or cable: USD");
        if (s.has("switch")) book.set(PriceBook::Part::switch_unit, name, {amount(s, "switch"), from});
        if (s.has("cable")) book.set(PriceBook::Part::cable, name, {amount(s, "cable"), from});
      }
    }
    if (r.has("licences")) {
      const YamlReader l = r.child("licences");
      l.expect_keys();
      if (!l.has("per_core") && !l.has("per_tib_raw") && !l.has("min_cores_per_socket"))
        l.fail("expected per_core: USD and/or per_tib_raw: USD");
      LicencePrices& lp = book.licences();
      lp.per_core_source = lp.per_tib_source = from;
      if (l.has("per_core")) {
        lp.per_core_set = true;
        lp.per_core_usd = amount(l, "per_core");
        lp.min_cores_per_socket = static_cast<int>(l.integer("min_cores_per_socket"));
      } else if (l.has("min_cores_per_socket")) {
        l.fail("min_cores_per_socket is given without per_core; it only applies to a per-core licence");
      }
      if (l.has("per_tib_raw")) {
        lp.per_tib_set = true;
        lp.per_tib_raw_usd = amount(l, "per_tib_raw");
      }
    }
  } catch (const YAML::Exception& e) {
    throw InvalidArgument(source + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  book.mark_from_file();
  return book;
}

PriceBook load_price_file(const std::string& path, const HardwareCatalog& catalog) {
  // A price file is a few hundred bytes.
  return parse_price_file(detail::read_small_file(path, "price file", 1u << 20), path, catalog);
}

}  // namespace hcisim
