// The core's steps that the back ends' inline code (osa_io_path.hpp, esa_io_path.hpp) calls
// too, defined inline here so that every unit compiling that code has them: taking a
// component-operation slot and starting the operation (cluster_core.hpp). Starting one asks
// either back end for its component work, so both back ends' inline code comes along: a unit
// that includes any of these three headers gets all three.
#pragma once

#include "cluster_core.hpp"
#include "esa_io_path.hpp"
#include "hcisim/model/core/slot_pool.hpp"
#include "osa_io_path.hpp"

namespace hcisim {

[[gnu::always_inline]] inline std::uint32_t ClusterCore::new_subop(const SubOp& s) {
  return take_slot(subops_, free_subops_, s);
}

[[gnu::always_inline]] inline void ClusterCore::start_subop(std::uint32_t sub) {
  SubOp& s = subops_[sub];
  s.sent = engine_.now();
  if (s.from == s.host) {
    s.arrived = s.sent;
    HostCpu& cpu = *cpus_[s.host];
    run_lsom(sub, cpu, with_back_end([&](const auto& be) { return be.component_work(*this, cpu, s); }));
    return;
  }
  charge_stack(s.from, s.out_bytes);
  send(io::token(io::kSubOut, sub), s.from, s.host, s.out_bytes, s.kind != io::SubKind::foreground, sub);
}

}  // namespace hcisim
