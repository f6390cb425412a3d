// vSAN ESA's back end (cluster_core.hpp): one storage pool per host. Writes are compressed
// (and encrypted) at the source and land as FTT+1 performance-leg mirror writes of the
// compressed bytes; the owner gathers each object's writes into full stripes and writes the
// k+m columns (or FTT+1 copies) to the capacity leg, times the GC factor, in the background.
// From vSAN 8.0 U1 a write of at least one full stripe skips the performance leg instead and
// is written to the capacity leg's k+m columns at once (the large-I/O path, [S43] [S248]).
// Reads go to the pool device holding the range, are decompressed on the component's host
// and cross the network uncompressed. Its I/O steps are in esa_io_path.hpp (inlined into
// io_path.cpp), the rest in esa_back_end.cpp.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "hcisim/model/core/station.hpp"
#include "hcisim/model/hw/host_cpu.hpp"
#include "hcisim/storage/cluster_spec.hpp"
#include "hcisim/model/storage/write_buffer.hpp"
#include "io_state.hpp"

namespace hcisim {

class ClusterCore;

class EsaBackEnd {
 public:
  // Built (esa_back_end.cpp).
  /// The CPU costs of an ESA host: the component stage (zDOM/LFS) at esa.cpu_per_io_factor.
  static CpuCosts cpu_costs(const ClusterSpec& spec);
  static int pinned_cores(const ClusterSpec&, const HostSpec&) { return 0; }
  void build(ClusterCore& c);
  void add_object(ClusterCore& c, io::Object& o, Bytes size, Bytes working_set);

  // The I/O path (esa_io_path.hpp).
  /// ESA compresses a write at the source: it is sent and stored compressed.
  static std::int64_t stored_bytes(const ClusterCore& c, std::int64_t bytes);
  Bytes stripe_unit(const ClusterCore& c) const;
  /// Data services at the source: a write's compression, then checksum and encryption of the
  /// compressed bytes; a read's checksum and decryption.
  Time source_services(const ClusterCore& c, HostCpu& cpu, IoOp op, Bytes size) const;
  Time admission_delay(ClusterCore&, const io::Request&) { return Time::zero(); }
  bool admit(ClusterCore&, std::uint32_t) { return true; }
  void fan_out_write(ClusterCore& c, std::uint32_t req);
  void place_read(ClusterCore& c, io::SubOp& s, const io::Request& r, int column, int chunk);
  bool next_phase(ClusterCore&, io::Request&) const { return false; }
  Time component_work(const ClusterCore& c, HostCpu& cpu, const io::SubOp& s) const;
  Station* world_of(const ClusterCore&, std::uint32_t) const { return nullptr; }
  /// A capacity-leg stripe write finished.
  void background_done(ClusterCore& c, std::uint32_t sub);
  /// The pool device holding `offset` of `object` on `host`.
  std::uint32_t pool_device(int host, int object, std::uint64_t offset) const;

  // Whole-cluster steps and reports (esa_back_end.cpp).
  void idle_check(ClusterCore&, std::uint32_t) {}   // ESA has no elevator to wake
  void prepare_write_buffers(const ClusterCore&) {}
  void set_time_compression(ClusterCore&, double) {}
  /// Writes out every object's partial stripe.
  void drain(ClusterCore& c);
  void reset_stats() {}
  const WriteBuffer& write_buffer(const ClusterCore& c, int host, int group) const;
  double smallest_write_buffer() const { return 0; }
  const std::vector<std::unique_ptr<Station>>& lsom_worlds() const { return no_worlds_; }

  // Resync (esa_back_end.cpp).
  void place_rebuild(ClusterCore& c, io::ResyncJob& job, const io::Object& o, RngStream& rng);
  bool resync_room(ClusterCore&, const io::ResyncJob&, std::int64_t&) { return true; }
  std::uint32_t resync_source(ClusterCore& c, std::uint32_t object, std::size_t column, int chunk,
                              const ComponentPlace& from, std::uint64_t offset);
  std::uint32_t resync_target(ClusterCore& c, const io::ResyncJob& job, const io::ResyncCopy& copy);
  /// The performance-leg mirror that was on `old_host` moves to the new host too.
  void on_rebuilt(ClusterCore& c, io::Object& o, const io::ResyncJob& job, int old_host);

 private:
  /// Writes the object's pending compressed bytes to the capacity leg, a full stripe at a time.
  void stripe_out(ClusterCore& c, std::uint32_t object);
  /// The large-I/O path: the request's `bytes` (compressed) written as full stripes to the
  /// capacity leg's columns, acknowledged when every column is written.
  void write_full_stripes(ClusterCore& c, std::uint32_t req, std::int64_t bytes);

  std::int64_t large_write_ = 0;                          // bytes; 0: no large-I/O path

  std::vector<std::vector<std::uint32_t>> pools_;         // device indices per host
  std::vector<std::unique_ptr<Station>> no_worlds_;       // ESA has no LSOM worlds
};

}  // namespace hcisim
