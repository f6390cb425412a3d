// Running count, mean, variance, min and max of a sample, computed by Boost.Accumulators
// (kept private: this header needs only the standard library).
#pragma once

#include <cstddef>
#include <cstdint>

namespace hcisim {

class Moments {
 public:
  Moments();
  Moments(const Moments& other);
  Moments& operator=(const Moments& other);
  ~Moments();

  void add(double x);
  void reset();

  std::uint64_t count() const;
  double mean() const;       // 0 when empty
  double variance() const;   // population variance; 0 with fewer than 2 samples
  double stddev() const;
  double min() const;        // 0 when empty
  double max() const;        // 0 when empty

 private:
  static constexpr std::size_t kStorage = 128;
  alignas(16) unsigned char storage_[kStorage];
};

}  // namespace hcisim
