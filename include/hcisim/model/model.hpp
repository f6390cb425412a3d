// The model's own API, for model work, tests and benchmarks: the engine and its queueing
// primitives, the hardware models (devices, host CPUs, the network), the cluster's I/O path
// and the VM workload generator, beside the planner's API (hcisim.hpp). Unstable: these
// headers change with the model, without notice.
#pragma once

#include "hcisim/hcisim.hpp"
#include "hcisim/model/calib/fit.hpp"
#include "hcisim/model/calib/least_squares.hpp"
#include "hcisim/model/core/batch_means.hpp"
#include "hcisim/model/core/distribution.hpp"
#include "hcisim/model/core/engine.hpp"
#include "hcisim/model/core/moments.hpp"
#include "hcisim/model/core/open_queue_experiment.hpp"
#include "hcisim/model/core/queueing_theory.hpp"
#include "hcisim/model/core/rng.hpp"
#include "hcisim/model/core/station.hpp"
#include "hcisim/model/core/time_weighted.hpp"
#include "hcisim/model/hw/host_cpu.hpp"
#include "hcisim/model/hw/network.hpp"
#include "hcisim/model/hw/storage_device.hpp"
#include "hcisim/model/hw/topology.hpp"
#include "hcisim/model/storage/cluster.hpp"
#include "hcisim/model/workload/vm_workload.hpp"
#include "hcisim/model/workload/workload_parsers.hpp"
