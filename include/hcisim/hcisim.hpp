// Umbrella header: everything a user of the library needs.
#pragma once

#include "hcisim/version.hpp"
#include "hcisim/core/check.hpp"
#include "hcisim/core/distribution.hpp"
#include "hcisim/core/engine.hpp"
#include "hcisim/core/latency_histogram.hpp"
#include "hcisim/core/moments.hpp"
#include "hcisim/core/rng.hpp"
#include "hcisim/core/station.hpp"
#include "hcisim/core/time_weighted.hpp"
#include "hcisim/core/units.hpp"
#include "hcisim/core/open_queue_experiment.hpp"
#include "hcisim/core/queueing_theory.hpp"
#include "hcisim/hw/device_spec.hpp"
#include "hcisim/hw/storage_device.hpp"
#include "hcisim/scenario/hardware_catalog.hpp"
