// Looking keys up in the table of every input file's keys (file_keys.cpp; FileKey in
// scenario.hpp). Private to libsim: the readers (yaml_reader.hpp) and --set use it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hcisim/model/report/text_escape.hpp"
#include "hcisim/scenario/scenario.hpp"

namespace hcisim::detail {

/// The row of `path` (its schema path: "[]" for list items) in `file`'s table, if any.
std::optional<FileKey> find_file_key(std::string_view file, std::string_view path);

/// The keys declared directly under `section` (a canonical schema path; "" for the top), in
/// table order, retired ones included.
std::vector<std::string_view> section_keys(std::string_view file, std::string_view section);

/// The section whose keys `section` takes: a workload group takes the workload's, a
/// more_hosts item's cpu cluster.host's cpu, a drive given by figures the "drive" rows.
std::string canonical_section(std::string_view file, std::string_view section);

/// The key a mistyped `key` in `section` most likely meant, as a full path, or "".
std::string did_you_mean(std::string_view file, std::string_view section, std::string_view key);

/// What an error says is allowed for `k`: its own text, else its range and unit.
std::string describe_range(const FileKey& k);

/// Edit distance: insertions, deletions, substitutions and swaps of neighbouring letters.
std::size_t edit_distance(std::string_view a, std::string_view b);

}  // namespace hcisim::detail
