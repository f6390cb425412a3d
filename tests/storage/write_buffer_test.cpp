// The write buffer's coalescing arithmetic (write_buffer.hpp): random writes land on dirty
// blocks with probability D/W; a sequential stream only once its dirty blocks cover W.
#include <catch2/catch.hpp>

#include "hcisim/model/storage/write_buffer.hpp"

using namespace hcisim;

namespace {
constexpr double kGiB = 1024.0 * 1024 * 1024;

WriteBuffer buffer(double capacity_gib, double working_set_gib) {
  WriteBuffer b(Bytes{static_cast<std::int64_t>(capacity_gib * kGiB)}, OsaSettings{});
  b.add_working_set(Bytes{static_cast<std::int64_t>(working_set_gib * kGiB)});
  return b;
}
}  // namespace

TEST_CASE("a random write coalesces with probability D/W, a sequential one not until D reaches W") {
  WriteBuffer random = buffer(600, 400);
  WriteBuffer sequential = buffer(600, 400);
  random.set_dirty(100 * kGiB);
  sequential.set_dirty(100 * kGiB);
  const Bytes block{256 << 10};
  CHECK(random.write(block, 1.0 / (256 << 10)) == Approx(0.75 * (256 << 10)));   // 1 - 100/400
  CHECK(sequential.write(block, 0.0) == Approx(256 << 10));                       // every byte fresh

  // Once the dirty blocks cover the whole working set, a stream rewrites dirty blocks only.
  sequential.set_dirty(400 * kGiB);
  CHECK(sequential.write(block, 0.0) == 0.0);
  // Just short of it, only the gap is fresh, so D never passes W.
  sequential.set_dirty(400 * kGiB - 1000);
  CHECK(sequential.write(block, 0.0) == Approx(1000));
  CHECK(sequential.dirty() == Approx(400 * kGiB).margin(1));

  // With no working set known, both keep every byte.
  WriteBuffer none(Bytes{std::int64_t{1} << 30}, OsaSettings{});
  CHECK(none.write(block, 0.0) == 256 << 10);
  CHECK(none.write(block, 1.0 / (256 << 10)) == 256 << 10);
}

TEST_CASE("a resync copy fills the buffer with every byte, even where the working set is all dirty") {
  WriteBuffer b = buffer(600, 400);
  b.set_dirty(400 * kGiB);
  CHECK(b.write(Bytes{1 << 20}, 0.0) == 0.0);              // a stream rewriting dirty blocks
  CHECK(b.write_new(Bytes{1 << 20}) == Approx(1 << 20));   // a new component's blocks
  CHECK(b.dirty() == Approx(400 * kGiB + (1 << 20)).margin(1));
}

TEST_CASE("under time compression a sequential stream still stops at the working set") {
  WriteBuffer b = buffer(600, 400);
  b.set_dirty(399 * kGiB);
  b.set_time_compression(100);
  const double fresh = b.write(Bytes{1 << 30}, 0.0);   // 1 GiB counted 100 times would pass W
  CHECK(fresh == Approx(kGiB / 100));
  CHECK(b.dirty() == Approx(400 * kGiB).margin(1));
  // A random write under the same compression adds k times its fresh share.
  WriteBuffer r = buffer(600, 400);
  r.set_dirty(100 * kGiB);
  r.set_time_compression(10);
  CHECK(r.write(Bytes{1 << 20}, 1.0 / (1 << 20)) == Approx(0.75 * (1 << 20)));
  CHECK(r.dirty() == Approx(100 * kGiB + 10 * 0.75 * (1 << 20)).margin(1));
}
