// Names of the latency parts (latency_split.hpp), as the JSON and text reports print them.
#include "hcisim/storage/latency_split.hpp"

namespace hcisim {

const char* latency_part_name(LatencyPart p) {
  switch (p) {
    case LatencyPart::guest_queue: return "guest_queue";
    case LatencyPart::host_cpu: return "host_cpu";
    case LatencyPart::admission: return "admission";
    case LatencyPart::network: return "network";
    case LatencyPart::component: return "component";
    case LatencyPart::device: return "device";
  }
  return "?";
}

}  // namespace hcisim
