// Names of the latency parts (latency_split.hpp), as the JSON and text reports print them, and
// the vSAN diagnostic counter each belongs to ([S246] [S247]).
#include "hcisim/storage/latency_split.hpp"

namespace hcisim {

const char* latency_part_name(LatencyPart p) {
  switch (p) {
    case LatencyPart::guest_queue: return "guest_queue";
    case LatencyPart::dom_client: return "dom_client";
    case LatencyPart::admission: return "admission";
    case LatencyPart::client_network: return "client_network";
    case LatencyPart::dom_owner: return "dom_owner";
    case LatencyPart::network: return "network";
    case LatencyPart::lsom: return "lsom";
    case LatencyPart::device: return "device";
  }
  return "?";
}

const char* latency_part_label(LatencyPart p) {
  switch (p) {
    case LatencyPart::guest_queue: return "guest queue";
    case LatencyPart::dom_client: return "DOM client";
    case LatencyPart::admission: return "admission";
    case LatencyPart::client_network: return "client-owner network";
    case LatencyPart::dom_owner: return "DOM owner";
    case LatencyPart::network: return "owner-component network";
    case LatencyPart::lsom: return "LSOM";
    case LatencyPart::device: return "device";
  }
  return "?";
}

// VsanIOLatencyType ([S246]): DomOwnerLatency, NetworkLatency and LsomLatency; from 8.0 U1 the
// performance leg's and the capacity leg's own network and LSOM counters. The device is put
// under LSOM's counter, the layer that issues its I/O (ASSUMED: the API's text does not say
// whether LSOM's latency includes the device's); the model reports it apart.
const char* vsan_layer_name(LatencyPart p, VsanCounters counters) {
  if (counters == VsanCounters::none) return "";
  const bool perf = counters == VsanCounters::performance_leg, cap = counters == VsanCounters::capacity_leg;
  switch (p) {
    case LatencyPart::dom_owner: return "DomOwnerLatency";
    case LatencyPart::network: return perf ? "PerfNetworkLatency" : cap ? "CapacityNetworkLatency" : "NetworkLatency";
    case LatencyPart::lsom:
    case LatencyPart::device: return perf ? "PerfLsomLatency" : cap ? "CapacityLsomLatency" : "LsomLatency";
    default: return "";
  }
}

}  // namespace hcisim
