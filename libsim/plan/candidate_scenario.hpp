// What inverse sizing's two halves share (private to libsim/plan): the scenario of one
// candidate design, built from a requirements file's demand and blocks
// (candidate_scenario.cpp), and the text helpers the requirements reader
// (requirements_file.cpp) and the search (sizing.cpp) use with it.
#pragma once

#include <string>
#include <vector>

#include "hcisim/core/check.hpp"
#include "hcisim/plan/sizing.hpp"

namespace YAML {
class Node;
}

namespace hcisim::detail {

/// A YAML node as flow text ({a: 1, b: [x, y]}): how the blocks of a requirements file are
/// kept (Requirements::Block::yaml) and laid into a candidate's scenario.
std::string flow(const YAML::Node& n);

/// One number in a printf format (`f` formats one double, e.g. "%.1f").
std::string fmt(const char* f, double v);

/// The scenario of one candidate: `hosts` of `host` (with the requirements' existing hosts),
/// on `net`, under `policy`, running the demand as an open loop at its grown rate.
/// `with_data` gives the VMDKs the demand's data (vmdk_gbs, with the design's `usable_gb`;
/// else a token of 1 GB each); `with_failures` takes host_failures hosts down. Throws
/// InvalidArgument as the scenario reader does (a combination vSAN does not allow).
/// `overrides` are --set assignments laid over the scenario (a sensitivity study's moves).
Scenario candidate_scenario(const Requirements& req, const Requirements::Block& host, const Requirements::Block& net,
                            const Requirements::Block& policy, int hosts, bool with_data, bool with_failures,
                            const HardwareCatalog& catalog, double usable_gb = 0,
                            const std::vector<std::string>& overrides = {});

/// The data (decimal GB) each VMDK of each demand holds in a design of `usable_gb` usable
/// capacity (every host up): a stated capacity's share, or without one the usable capacity
/// the stated demands leave, shared over the VMDKs (candidate_scenario.cpp says why).
std::vector<double> vmdk_gbs(const Requirements& req, double usable_gb);

/// VMDKs per VM in every candidate.
inline constexpr int kVmdksPerVm = 4;

/// A candidate's error with the scenario reader's location ("<source> (candidate ...):LINE: ")
/// taken off, so the block's own place can be put in front.
std::string reason_of(const InvalidArgument& e);

}  // namespace hcisim::detail
