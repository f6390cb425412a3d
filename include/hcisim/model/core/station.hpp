// A multi-server FIFO queueing station (c identical servers, one shared FIFO queue): the
// building block of device queues, CPU pools and NIC egress ports. The caller decides each
// job's service time on arrival; the station tells its client when the job departs.
// Tracks time-weighted busy servers and queue length for utilisation reports. Busy time
// needs no update per event: every job's service is known when it starts, so the busy
// integral since the last reset is the service started since then (plus what remained at
// the reset of jobs then in service), minus what the jobs in service still have to run.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hcisim/model/core/engine.hpp"
#include "hcisim/model/core/time_weighted.hpp"

namespace hcisim {

class Station;

/// Receives departures. `arrived` is when the job joined the station, `started` when a
/// server took it; sojourn = engine.now() - arrived, wait = started - arrived.
class StationClient {
 public:
  virtual void on_departure(Station& station, std::uint64_t job, Time arrived, Time started) = 0;

 protected:
  StationClient() = default;
  StationClient(const StationClient&) = default;
  StationClient& operator=(const StationClient&) = default;
  ~StationClient() = default;
};

class Station final : public EventHandler {
 public:
  /// `servers` >= 1. `client` may be null (departures are then only counted).
  Station(Engine& engine, std::string name, int servers, StationClient* client);

  /// Pre-sizes the FIFO for `jobs` waiting jobs (it also grows on demand, by doubling).
  void reserve_queue(std::size_t jobs);

  /// Job `job` arrives now and needs `service` (>= 0) of one server.
  void arrive(std::uint64_t job, Time service);

  const std::string& name() const { return name_; }
  int servers() const { return servers_; }
  int busy() const { return busy_; }
  std::size_t queue_length() const { return queued_; }
  std::size_t in_system() const { return queued_ + static_cast<std::size_t>(busy_); }
  std::uint64_t arrivals() const { return arrivals_; }
  std::uint64_t departures() const { return departures_; }

  /// Mean fraction of servers busy since the last reset.
  double utilisation() const { return mean_busy() / servers_; }
  /// Time-average number waiting (not in service) since the last reset.
  double mean_queue_length() const { return queue_tw_.mean(engine_.now()); }
  /// Time-average number in the station (waiting + in service) since the last reset.
  double mean_in_system() const { return mean_busy() + queue_tw_.mean(engine_.now()); }
  /// Warm-up cut: statistics restart now; jobs present stay.
  void reset_stats();

  void on_event(Engine& engine, EventTag tag, std::uint64_t arg) override;

 private:
  __extension__ typedef __int128 Wide;   // busy server x ns, as in TimeWeighted
  struct Waiting {
    std::uint64_t id;
    Time arrived;
    Time service;
  };
  struct InService {
    std::uint64_t id;
    Time arrived;
    Time started;
    Time finish;   // stays after the departure (then <= now, so it adds no remaining work)
  };
  void start(int server, std::uint64_t id, Time arrived, Time service);
  // Every server busy: the job waits. A departure found jobs waiting: `server` takes the
  // first. Both out of line, so the common arrival and departure save fewer registers.
  [[gnu::noinline]] void enqueue(std::uint64_t job, Time service);
  [[gnu::noinline]] void start_next(int server);
  void grow_ring();
  // Service the jobs in service still have to run after `now`.
  Wide remaining(Time now) const;
  // Time-average number of busy servers since the last reset.
  double mean_busy() const;

  Engine& engine_;
  std::string name_;
  int servers_;
  StationClient* client_;
  std::vector<InService> in_service_;   // indexed by server
  std::vector<int> idle_servers_;       // stack of free server indices: the first idle_ entries
  int idle_ = 0;
  std::vector<Waiting> ring_;           // FIFO queue, power-of-two ring buffer
  std::size_t head_ = 0;
  std::size_t queued_ = 0;
  int busy_ = 0;
  std::uint64_t arrivals_ = 0;
  std::uint64_t departures_ = 0;
  Time since_;                          // last reset
  Wide busy_base_ = 0;                  // service left at the last reset by jobs then in service
  Wide busy_started_ = 0;               // service of the jobs started since the last reset
  TimeWeighted queue_tw_;
};

}  // namespace hcisim
