// Moments on Boost.Accumulators (count, mean, variance, min, max), stored in place.
#include "hcisim/model/core/moments.hpp"

#include <cmath>
#include <new>

#include <boost/accumulators/accumulators.hpp>
#include <boost/accumulators/statistics/count.hpp>
#include <boost/accumulators/statistics/max.hpp>
#include <boost/accumulators/statistics/mean.hpp>
#include <boost/accumulators/statistics/min.hpp>
#include <boost/accumulators/statistics/stats.hpp>
#include <boost/accumulators/statistics/variance.hpp>

namespace hcisim {

namespace acc = boost::accumulators;
namespace {
using Set = acc::accumulator_set<double, acc::stats<acc::tag::count, acc::tag::mean, acc::tag::variance,
                                                    acc::tag::min, acc::tag::max>>;
Set& set_of(unsigned char* p) { return *std::launder(reinterpret_cast<Set*>(p)); }
const Set& set_of(const unsigned char* p) { return *std::launder(reinterpret_cast<const Set*>(p)); }
}  // namespace

Moments::Moments() {
  static_assert(sizeof(Set) <= kStorage, "enlarge Moments::kStorage");
  static_assert(alignof(Set) <= 16, "Moments storage alignment");
  new (storage_) Set();
}
Moments::Moments(const Moments& other) { new (storage_) Set(set_of(other.storage_)); }
Moments& Moments::operator=(const Moments& other) {
  if (this != &other) set_of(storage_) = set_of(other.storage_);
  return *this;
}
Moments::~Moments() { set_of(storage_).~Set(); }

void Moments::add(double x) { set_of(storage_)(x); }
void Moments::reset() {
  set_of(storage_).~Set();
  new (storage_) Set();
}

std::uint64_t Moments::count() const { return static_cast<std::uint64_t>(acc::count(set_of(storage_))); }
double Moments::mean() const { return count() == 0 ? 0.0 : acc::mean(set_of(storage_)); }
double Moments::variance() const { return count() < 2 ? 0.0 : acc::variance(set_of(storage_)); }
double Moments::stddev() const { return std::sqrt(variance()); }
double Moments::min() const { return count() == 0 ? 0.0 : acc::min(set_of(storage_)); }
double Moments::max() const { return count() == 0 ? 0.0 : acc::max(set_of(storage_)); }

}  // namespace hcisim
