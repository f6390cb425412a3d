// Levenberg-Marquardt fit of calibration parameters (fit.hpp). Marquardt's damping on the
// diagonal of J^T J, lambda divided by 3 on success and multiplied by 4 on failure; bounds
// by clamping, a parameter on a bound held there while the gradient points out of the range
// (an active set); parameters with a positive lower bound are fitted in log space.
#include "hcisim/calib/fit.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
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

namespace {

// The first pass of a Huber fit uses this threshold (a log error of 3 %, about the spread of
// a short fitting run): rows further off count about linearly, so the pass is close to least
// absolute deviations, which a few rows far off cannot pull the way they pull least squares,
// while rows within it count as squares, which keeps the Levenberg-Marquardt steps well
// conditioned where exact absolute deviations (weights 1 / |r|) crawl near rows fitted exactly.
constexpr double kFirstPassK = 0.03;

// Huber's threshold from the first pass's residuals: 1.345 (95 % efficiency at the normal)
// times the MAD estimate of sigma (1.4826 x median |r|), never below the first pass's own.
double huber_scale(const Eigen::VectorXd& r) {
  std::vector<double> a(static_cast<std::size_t>(r.size()));
  for (Eigen::Index i = 0; i < r.size(); ++i) a[static_cast<std::size_t>(i)] = std::fabs(r[i]);
  std::nth_element(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(a.size() / 2), a.end());
  return std::max(kFirstPassK, 1.345 * 1.4826 * a[a.size() / 2]);
}

struct Space {
  std::vector<CalibrationParameter*> params;
  std::vector<bool> log_scale;
  // Internal coordinate <-> parameter value.
  double to_value(std::size_t j, double x) const {
    const CalibrationParameter& p = *params[j];
    const double v = log_scale[j] ? std::exp(x) : x;
    return std::min(p.max, std::max(p.min, v));
  }
  double to_x(std::size_t j, double v) const { return log_scale[j] ? std::log(v) : v; }
  // The finite-difference step: forward, or backward where a forward step would leave the
  // range. A forward step from a parameter on its upper bound is clamped back onto the bound,
  // which gave a zero Jacobian column: the fit could never move the parameter back inside,
  // and cross-validation's reset_uninformed took it for a parameter no row responds to.
  // In a range narrower than a step both directions leave it; the step then goes toward the
  // bound with more room, so that the clamped step is not zero.
  double step(std::size_t j, double x) const {
    const CalibrationParameter& p = *params[j];
    const double h = log_scale[j] ? 0.05 : std::max(0.02 * std::fabs(x), 0.01 * (p.max - p.min));
    const double ahead = log_scale[j] ? std::exp(x + h) : x + h;
    const double behind = log_scale[j] ? std::exp(x - h) : x - h;
    if (ahead <= p.max) return h;
    if (behind >= p.min) return -h;
    const double v = to_value(j, x);
    return p.max - v >= v - p.min ? h : -h;
  }
};

}  // namespace

FitResult fit(const std::vector<Measurement>& measurements, const HardwareCatalog& catalog, const FitOptions& options,
              const std::function<void(const std::string&)>& log) {
  FitResult out;
  Calibration cal = catalog.calibration();
  Space space;
  for (const auto& name : options.parameters) {
    CalibrationParameter* found = nullptr;
    for (auto& p : cal.parameters())
      if (p.name == name) found = &p;
    if (!found) throw InvalidArgument("calibrate: unknown parameter '" + name + "'");
    space.params.push_back(found);
    space.log_scale.push_back(found->min > 0);
  }
  const std::size_t np = space.params.size();
  HardwareCatalog work = catalog;

  auto evaluate_at = [&](const Eigen::VectorXd& x, AccuracyReport* report) {
    for (std::size_t j = 0; j < np; ++j) space.params[j]->fitted = space.to_value(j, x[static_cast<Eigen::Index>(j)]);
    work.set_calibration(cal);
    AccuracyReport rep = evaluate(measurements, work, options.accuracy);
    ++out.evaluations;
    std::vector<double> r;
    for (const Prediction& p : rep.rows)
      if (fitted_row(p)) r.push_back(residual(p));
    if (report) *report = std::move(rep);
    Eigen::VectorXd v(static_cast<Eigen::Index>(r.size()));
    for (std::size_t i = 0; i < r.size(); ++i) v[static_cast<Eigen::Index>(i)] = r[i];
    return v;
  };

  Eigen::VectorXd x(static_cast<Eigen::Index>(np));
  // A starting value outside the range (a catalog fitted for wider bounds) starts on the bound.
  for (std::size_t j = 0; j < np; ++j) {
    const CalibrationParameter& p = *space.params[j];
    const double start = std::clamp(p.fitted, p.min, p.max);
    if (start != p.fitted && log) {
      char buf[200];
      std::snprintf(buf, sizeof buf, "%s starts at %g, its bound: the catalog's value %g is outside [%g, %g]",
                    p.name.c_str(), start, p.fitted, p.min, p.max);
      log(buf);
    }
    x[static_cast<Eigen::Index>(j)] = space.to_x(j, start);
  }
  Eigen::VectorXd r = evaluate_at(x, &out.before);
  out.rows = static_cast<int>(r.size());
  if (out.rows <= static_cast<int>(np))
    throw InvalidArgument("calibrate: " + std::to_string(out.rows) + " fitted rows for " + std::to_string(np) +
                          " parameters; need more rows than parameters");
  out.rms_before = std::sqrt(r.squaredNorm() / static_cast<double>(r.size()));
  // IRLS weights (fit.hpp), frozen within an iteration: all 1 for least squares, Huber's
  // w = min(1, k / |r|) for a Huber fit (k 0 until its first pass sets it).
  Eigen::VectorXd w = Eigen::VectorXd::Ones(r.size());
  double huber_k = 0;
  auto reweight = [&]() {
    if (huber_k > 0)
      for (Eigen::Index i = 0; i < r.size(); ++i) w[i] = std::min(1.0, huber_k / std::max(std::fabs(r[i]), 1e-300));
  };
  auto weighted_cost = [&](const Eigen::VectorXd& res) { return (w.array() * res.array().square()).sum(); };
  double lambda = 1e-2;
  Eigen::MatrixXd J(r.size(), static_cast<Eigen::Index>(np));
  auto jacobian = [&]() {
    for (std::size_t j = 0; j < np; ++j) {
      Eigen::VectorXd xh = x;
      const double h = space.step(j, x[static_cast<Eigen::Index>(j)]);
      xh[static_cast<Eigen::Index>(j)] += h;
      // The step actually evaluated (evaluate_at clamps into the range): in a range narrower
      // than a step, h would overstate it; no step at all leaves a zero column.
      const auto jj = static_cast<Eigen::Index>(j);
      const double dx = space.to_x(j, space.to_value(j, xh[jj])) - x[jj];
      if (dx == 0) {
        J.col(jj).setZero();
        continue;
      }
      const Eigen::VectorXd rh = evaluate_at(xh, nullptr);
      if (rh.size() != r.size())
        throw InvalidArgument("calibrate: a finite-difference step of '" + space.params[j]->name +
                              "' made a measured scenario fail; narrow its bounds");
      J.col(jj) = (rh - r) / dx;
    }
  };
  // Levenberg-Marquardt on the weighted problem of the current stage. Each iteration freezes
  // the weights at the current residuals; a trial point is taken only if it lowers the
  // weighted cost, which for Huber's loss at the pass's own k also lowers that loss (the
  // weighted square majorises it at the current residuals: Holland & Welsch 1977).
  auto descend = [&](const char* name) {
    for (int it = 0; it < options.max_iterations; ++it) {
      reweight();
      double cost = weighted_cost(r);
      jacobian();
      const Eigen::MatrixXd Jw = w.array().sqrt().matrix().asDiagonal() * J;
      Eigen::MatrixXd A = Jw.transpose() * Jw;
      Eigen::VectorXd g = Jw.transpose() * (w.array().sqrt() * r.array()).matrix();
      // A parameter on a bound whose descent direction (-g) points out of the range is held
      // there for this step (the active set of a bound-constrained least-squares problem):
      // solving for it too and then clamping it back would also distort every other
      // parameter's step, and a step that changes nothing but the clamped parameter is never
      // an improvement, so the fit would stall.
      for (std::size_t j = 0; j < np; ++j) {
        const auto jj = static_cast<Eigen::Index>(j);
        const CalibrationParameter& p = *space.params[j];
        const double v = space.to_value(j, x[jj]);
        const double tol = 1e-9 * std::max(std::fabs(p.max), std::fabs(p.min));
        if ((v >= p.max - tol && g[jj] < 0) || (v <= p.min + tol && g[jj] > 0)) {
          A.row(jj).setZero();
          A.col(jj).setZero();
          A(jj, jj) = 1;
          g[jj] = 0;
        }
      }
      bool improved = false;
      for (int tries = 0; tries < 6 && !improved; ++tries) {
        Eigen::MatrixXd damped = A;
        for (Eigen::Index j = 0; j < A.rows(); ++j) damped(j, j) += lambda * std::max(A(j, j), 1e-9);
        const Eigen::VectorXd delta = damped.ldlt().solve(-g);
        Eigen::VectorXd xn = x + delta;
        for (std::size_t j = 0; j < np; ++j)
          xn[static_cast<Eigen::Index>(j)] = space.to_x(j, space.to_value(j, xn[static_cast<Eigen::Index>(j)]));
        Eigen::VectorXd rn;
        try {
          rn = evaluate_at(xn, nullptr);
        } catch (const InvalidArgument&) {
          rn.resize(0);   // every scenario failed at this trial point (accuracy.cpp): reject it
        }
        // A trial point where a row drops out (its scenario failed) is not comparable: reject it.
        const double cn = rn.size() == r.size() ? weighted_cost(rn) : std::numeric_limits<double>::infinity();
        if (cn < cost) {
          x = xn;
          r = rn;
          lambda = std::max(lambda / 3, 1e-7);
          const double gain = cost - cn;
          cost = cn;
          improved = true;
          ++out.steps;
          if (log) {
            char buf[200];
            std::snprintf(buf, sizeof buf, "%s iteration %d: rms log error %.4f, weighted cost %.4f (lambda %.2g)",
                          name, it + 1, std::sqrt(r.squaredNorm() / static_cast<double>(r.size())), cost, lambda);
            log(buf);
          }
          if (gain < 1e-6 * cost) it = options.max_iterations;   // converged
        } else {
          lambda *= 4;
        }
      }
      ++out.iterations;
      if (!improved) break;
    }
  };
  if (options.loss == FitLoss::huber) {
    // Huber's threshold is taken from the residuals of a first pass near least absolute
    // deviations and then held (fit.hpp).
    huber_k = kFirstPassK;
    char first[64];
    std::snprintf(first, sizeof first, "Huber first pass (k %.2g)", kFirstPassK);
    descend(first);
    huber_k = huber_scale(r);
    out.huber_k = huber_k;
    if (log) {
      char buf[120];
      std::snprintf(buf, sizeof buf, "Huber threshold k = %.4f (log error), from the first pass's residuals", huber_k);
      log(buf);
    }
    lambda = 1e-2;
  }
  descend(options.loss == FitLoss::huber ? "Huber" : "least squares");
  // Final state, Jacobian at the optimum and standard errors (for Huber: of the last
  // weighted least-squares problem, the usual IRLS approximation).
  r = evaluate_at(x, &out.after);
  reweight();
  jacobian();
  const Eigen::MatrixXd Jw = w.array().sqrt().matrix().asDiagonal() * J;
  const double dof = std::max(1.0, static_cast<double>(r.size()) - static_cast<double>(np));
  const double s2 = weighted_cost(r) / dof;
  const Eigen::MatrixXd cov = s2 * (Jw.transpose() * Jw).completeOrthogonalDecomposition().pseudoInverse();
  for (std::size_t j = 0; j < np; ++j) {
    const auto jj = static_cast<Eigen::Index>(j);
    const double value = space.to_value(j, x[jj]);
    const double sd_x = std::sqrt(std::max(0.0, cov(jj, jj)));
    space.params[j]->fitted = value;
    space.params[j]->stderr_value = space.log_scale[j] ? value * sd_x : sd_x;   // delta method for log space
    // No fitted row responds to it (common random numbers make that exact): not informed.
    if (options.reset_uninformed && J.col(jj).isZero(0.0)) {
      space.params[j]->fitted = space.params[j]->default_value;
      space.params[j]->stderr_value = 0;
    }
  }
  // The estimates' correlations (from the same covariance), for answers' calibration ranges.
  for (std::size_t j = 0; j < np; ++j) cal.clear_correlations(space.params[j]->name);
  for (std::size_t j = 0; j < np; ++j)
    for (std::size_t k = j + 1; k < np; ++k) {
      const auto jj = static_cast<Eigen::Index>(j), kk = static_cast<Eigen::Index>(k);
      if (space.params[j]->stderr_value <= 0 || space.params[k]->stderr_value <= 0) continue;
      const double rho = cov(jj, kk) / std::sqrt(cov(jj, jj) * cov(kk, kk));
      if (std::isfinite(rho)) cal.set_correlation(space.params[j]->name, space.params[k]->name, std::clamp(rho, -1.0, 1.0));
    }
  out.rms_after = std::sqrt(r.squaredNorm() / static_cast<double>(r.size()));
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
