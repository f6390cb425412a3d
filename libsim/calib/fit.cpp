// Fitting calibration parameters to the measurements (fit.hpp): the residuals are the fitted
// rows' log errors, minimised by the bounded Levenberg-Marquardt of least_squares.hpp.
#include "hcisim/model/calib/fit.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "hcisim/core/check.hpp"

namespace hcisim {

bool fitted_row(const Prediction& p) {
  if (p.cls == AccuracyClass::throughput || p.cls == AccuracyClass::mean_latency || p.cls == AccuracyClass::ratio)
    return true;
  return p.cls == AccuracyClass::other && (p.m.metric == "cpu_usage_pct" || p.m.metric == "cpu_utilization_pct") &&
         !per_host_cpu_row(p.m) &&   // the Average row is the target; hosts pair by rank, not by name
         !guest_cpu_row(p.m);        // a guest's own table: one VM's view, compared, not fitted
}

double residual(const Prediction& p) {
  if (p.m.value > 0 && p.predicted > 0) return std::log(p.predicted / p.m.value);
  return (p.predicted - p.m.value) / std::max(1e-12, std::fabs(p.m.value));
}

FitResult fit(const std::vector<Measurement>& measurements, const HardwareCatalog& catalog, const FitOptions& options,
              const std::function<void(const std::string&)>& log) {
  FitResult out;
  Calibration cal = catalog.calibration();
  std::vector<CalibrationParameter*> fitted;
  std::vector<BoundedParameter> bounded;
  std::vector<double> start;
  for (const auto& name : options.parameters) {
    CalibrationParameter* found = nullptr;
    for (auto& p : cal.parameters())
      if (p.name == name) found = &p;
    if (!found) throw InvalidArgument("calibrate: unknown parameter '" + name + "'");
    for (const CalibrationParameter* p : fitted)
      if (p == found) throw InvalidArgument("calibrate: parameter '" + name + "' is given twice");
    fitted.push_back(found);
    bounded.push_back({found->name, found->min, found->max, found->min > 0});
    // A starting value outside the range (a catalog fitted for wider bounds) starts on the bound.
    const double v = std::clamp(found->fitted, found->min, found->max);
    if (v != found->fitted && log) {
      char buf[200];
      std::snprintf(buf, sizeof buf, "%s starts at %g, its bound: the catalog's value %g is outside [%g, %g]",
                    found->name.c_str(), v, found->fitted, found->min, found->max);
      log(buf);
    }
    start.push_back(v);
  }
  const std::size_t np = fitted.size();

  // The residuals: every fitted row of the measured scenarios, run with the catalog's
  // calibration and these values (the same scenarios and seeds at every point).
  HardwareCatalog work = catalog;
  const ResidualFunction residuals = [&](const std::vector<double>& values, Evaluation which) {
    for (std::size_t j = 0; j < np; ++j) fitted[j]->fitted = values[j];
    work.set_calibration(cal);
    AccuracyReport rep = evaluate(measurements, work, options.accuracy);
    std::vector<double> r;
    for (const Prediction& p : rep.rows)
      if (fitted_row(p)) r.push_back(residual(p));
    if (which == Evaluation::start) out.before = std::move(rep);
    if (which == Evaluation::optimum) out.after = std::move(rep);
    return r;
  };
  MinimizeOptions mo;
  mo.max_iterations = options.max_iterations;
  mo.loss = options.loss;
  mo.starts = options.starts;
  const MinimizeResult m = minimize(bounded, start, residuals, mo, log);
  out.rows = static_cast<int>(m.residuals.size());
  out.rms_before = m.rms_before;
  out.rms_after = m.rms_after;
  out.huber_k = m.huber_k;
  out.iterations = m.iterations;
  out.steps = m.steps;
  out.evaluations = m.evaluations;
  out.best_start = m.best_start;
  out.starts = m.starts;

  // Values and standard errors at the optimum (for Huber: of the last weighted least-squares
  // problem, the usual IRLS approximation).
  for (std::size_t j = 0; j < np; ++j) {
    const double value = m.values[j];
    const double sd_x = std::sqrt(std::max(0.0, m.cov(j, j)));
    fitted[j]->fitted = value;
    fitted[j]->stderr_value = bounded[j].log_scale ? value * sd_x : sd_x;   // delta method for log space
    // No fitted row responds to it (common random numbers make that exact): not informed.
    if (options.reset_uninformed && m.unresponsive[j]) {
      fitted[j]->fitted = fitted[j]->default_value;
      fitted[j]->stderr_value = 0;
    }
  }
  // The estimates' correlations (from the same covariance), for answers' calibration ranges.
  for (std::size_t j = 0; j < np; ++j) cal.clear_correlations(fitted[j]->name);
  for (std::size_t j = 0; j < np; ++j)
    for (std::size_t k = j + 1; k < np; ++k) {
      if (fitted[j]->stderr_value <= 0 || fitted[k]->stderr_value <= 0) continue;
      const double rho = m.cov(j, k) / std::sqrt(m.cov(j, j) * m.cov(k, k));
      if (std::isfinite(rho)) cal.set_correlation(fitted[j]->name, fitted[k]->name, std::clamp(rho, -1.0, 1.0));
    }
  out.calibration = cal;
  return out;
}

AccuracyReport cross_validate(const std::vector<Measurement>& measurements, const HardwareCatalog& catalog,
                              const FitOptions& options, const std::vector<std::string>& eval_overrides,
                              const std::function<void(const std::string&)>& log) {
  // Seeds that have fitted rows (one evaluation at the committed calibration tells which).
  const AccuracyReport all = evaluate(measurements, catalog, options.accuracy);
  std::vector<std::string> seeds;
  for (const Prediction& p : all.rows) {
    const std::string seed = p.m.seed_file.substr(0, 3);
    if (fitted_row(p) && std::find(seeds.begin(), seeds.end(), seed) == seeds.end()) seeds.push_back(seed);
  }
  AccuracyReport out;
  for (const std::string& held : seeds) {
    FitOptions train = options;
    train.accuracy.only_seeds.clear();
    for (const std::string& s : seeds)
      if (s != held) train.accuracy.only_seeds.push_back(s);
    if (log) log("cross-validation: fitting without seed " + held);
    train.reset_uninformed = true;
    // A fold's fit takes many runs of every scenario: its steps are the progress, indented.
    std::function<void(const std::string&)> fold_log;
    if (log) fold_log = [&log](const std::string& line) { log("  " + line); };
    const FitResult f = fit(measurements, catalog, train, fold_log);
    if (log) {
      // What the fold fitted: a held-out seed far off usually means a parameter moved far.
      std::string line = "  fitted without seed " + held + ":";
      char value[64];
      for (const std::string& name : train.parameters) {
        std::snprintf(value, sizeof value, " %s %.4g", name.c_str(), f.calibration.value(name));
        line += value;
      }
      log(line);
    }
    HardwareCatalog fitted = catalog;
    fitted.set_calibration(f.calibration);
    AccuracyOptions test = options.accuracy;
    test.only_seeds = {held};
    test.overrides = eval_overrides;
    const AccuracyReport r = evaluate(measurements, fitted, test);
    out.rows.insert(out.rows.end(), r.rows.begin(), r.rows.end());
  }
  out.summary = summarize(out.rows);
  return out;
}

}  // namespace hcisim
