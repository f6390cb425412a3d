// Multi-server FIFO station: arrivals take an idle server or join the ring-buffer queue;
// a departure frees the server, which immediately takes the head of the queue.
#include "hcisim/core/station.hpp"

#include "hcisim/core/check.hpp"

namespace hcisim {

Station::Station(Engine& engine, std::string name, int servers, StationClient* client)
    : engine_(engine),
      name_(std::move(name)),
      servers_(static_cast<int>(check::in_range(servers, 1, 1 << 20, "Station servers"))),
      client_(client),
      busy_tw_(engine.now()),
      queue_tw_(engine.now()) {
  in_service_.resize(static_cast<std::size_t>(servers_));
  idle_servers_.reserve(static_cast<std::size_t>(servers_));
  for (int s = servers_ - 1; s >= 0; --s) idle_servers_.push_back(s);
  ring_.resize(16);
}

void Station::reserve_queue(std::size_t jobs) {
  while (ring_.size() < jobs) grow_ring();
}

void Station::grow_ring() {   // doubles the ring, unwrapping it (amortised, not per event)
  std::vector<Job> bigger(ring_.size() * 2);
  for (std::size_t i = 0; i < queued_; ++i) bigger[i] = ring_[(head_ + i) & (ring_.size() - 1)];
  ring_.swap(bigger);
  head_ = 0;
}

void Station::arrive(std::uint64_t job, Time service) {
  if (service < Time::zero()) check::fail("Station::arrive service (ns)", service.count_ns(), "a duration >= 0");
  ++arrivals_;
  const Job j{job, engine_.now(), engine_.now(), service};
  if (!idle_servers_.empty()) {
    const int s = idle_servers_.back();
    idle_servers_.pop_back();
    start(s, j);
    return;
  }
  if (queued_ == ring_.size()) grow_ring();
  ring_[(head_ + queued_) & (ring_.size() - 1)] = j;
  ++queued_;
  queue_tw_.set(engine_.now(), static_cast<std::int64_t>(queued_));
}

void Station::start(int server, const Job& job) {
  Job& slot = in_service_[static_cast<std::size_t>(server)];
  slot = job;
  slot.started = engine_.now();
  ++busy_;
  busy_tw_.set(engine_.now(), busy_);
  engine_.schedule_after(job.service, *this, 0, static_cast<std::uint64_t>(server));
}

void Station::on_event(Engine& engine, EventTag, std::uint64_t arg) {
  const int server = static_cast<int>(arg);
  const Job done = in_service_[arg];
  --busy_;
  ++departures_;
  busy_tw_.set(engine.now(), busy_);
  if (queued_ > 0) {
    const Job next = ring_[head_];
    head_ = (head_ + 1) & (ring_.size() - 1);
    --queued_;
    queue_tw_.set(engine.now(), static_cast<std::int64_t>(queued_));
    start(server, next);
  } else {
    idle_servers_.push_back(server);
  }
  if (client_ != nullptr) client_->on_departure(*this, done.id, done.arrived, done.started);
}

void Station::reset_stats() {
  busy_tw_.reset(engine_.now());
  queue_tw_.reset(engine_.now());
  arrivals_ = 0;
  departures_ = 0;
}

}  // namespace hcisim
