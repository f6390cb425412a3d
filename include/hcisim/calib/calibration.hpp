// The calibrated software constants: the few model parameters that are not datasheet facts
// (per-stage CPU cost, the stack's fixed software latency, the USB bridge overhead, ...),
// each with its default, fitted value, standard error and provenance, kept in
// data/calibration.yaml. Every scenario gets the fitted values (apply()).
#pragma once

#include <string>
#include <vector>

#include "hcisim/storage/cluster_spec.hpp"

namespace hcisim {

struct CalibrationParameter {
  std::string name;
  double default_value = 0;
  double fitted = 0;        // the value in use
  double stderr_value = 0;  // from the fit's Jacobian; 0 = not fitted yet
  double min = 0;           // the physically plausible range; the fit stays inside
  double max = 0;
  std::string what;         // the physical quantity
  std::string range_source; // the source or argument for [min, max]
  std::string provenance;   // what it was fitted on, when, how well
  /// On (or within 0.1 % of the range of) a bound: a sign that a mechanism is missing.
  bool at_bound() const {
    const double eps = 1e-3 * (max - min);
    return fitted <= min + eps || fitted >= max - eps;
  }
};

class Calibration {
 public:
  /// The parameters the model exposes, at their defaults (an uncalibrated model).
  static Calibration defaults();
  /// Reads `path` (YAML: parameters: {name: {default, fitted, stderr, min, max, provenance}},
  /// and optionally correlation: {name: {other: r}} between fitted parameters' estimates).
  /// Unknown parameter names and values outside [min, max] are errors naming file and line.
  static Calibration load(const std::string& path);
  /// `<dir>/calibration.yaml` if it exists, else defaults().
  static Calibration load_dir(const std::string& dir);

  std::vector<CalibrationParameter>& parameters() { return params_; }
  const std::vector<CalibrationParameter>& parameters() const { return params_; }
  double value(const std::string& name) const;
  void set(const std::string& name, double value);

  /// Correlation of two parameters' estimates, from the fit's covariance (the same Jacobian as
  /// the standard errors): 1 for a parameter with itself, 0 where the file gives none.
  double correlation(const std::string& a, const std::string& b) const;
  /// Sets r (in [-1, 1]) for the pair a, b (either order); throws for unknown names.
  void set_correlation(const std::string& a, const std::string& b, double r);
  /// Forgets every correlation that involves `name` (a refit replaces them).
  void clear_correlations(const std::string& name);

  /// Sets the cluster's software constants from the fitted values: apply_settings() before
  /// a scenario's own keys are read (so a scenario can still override them), apply_drives()
  /// after its drives are known (the USB bridge latency); apply() does both.
  void apply_settings(ClusterSpec& cluster) const;
  void apply_drives(ClusterSpec& cluster) const;
  void apply(ClusterSpec& cluster) const {
    apply_settings(cluster);
    apply_drives(cluster);
  }
  /// Whether moving `name` can change this cluster's runs: the ESA factors act on ESA clusters
  /// only, congestion_delay_a_us on OSA ones, dedupe_lookup_miss on OSA with dedupe on,
  /// lsom_cost_factor on OSA with LSOM worlds, usb_bridge_latency_us where a drive sits behind
  /// a USB bridge, guest_cpu_us and windows_guest_cpu_us where a VM runs that guest OS
  /// (`guests`: the OS of every workload group); every other parameter on every cluster.
  /// Throws for an unknown name.
  bool moves(const std::string& name, const ClusterSpec& cluster, const std::vector<GuestOs>& guests) const;
  /// YAML text of the whole file.
  std::string to_yaml() const;
  /// A table of the parameters: value, range, whether fitted, and a warning for a fitted
  /// parameter on its bound (a sign that a mechanism the data need is missing).
  std::string format_table() const;

 private:
  struct Correlation {
    std::string a, b;   // a before b in parameter order
    double r = 0;
  };
  std::vector<CalibrationParameter> params_;
  std::vector<Correlation> correlations_;
};

}  // namespace hcisim
