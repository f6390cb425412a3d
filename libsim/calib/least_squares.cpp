// Bounded, robust Levenberg-Marquardt with several starts (least_squares.hpp). Marquardt's
// damping on the diagonal of J^T J, lambda divided by 3 on success and multiplied by 4 on
// failure; bounds by clamping, a parameter on a bound held there while the gradient points
// out of the range (an active set); parameters with a positive lower bound in log space.
#include "hcisim/model/calib/least_squares.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>

#include "hcisim/core/check.hpp"
#include "hcisim/model/core/rng.hpp"

namespace hcisim {

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

// Huber's loss at threshold k (k = 0: half the sum of squares): r^2 / 2 within k, k (|r| - k/2) beyond.
double loss_of(const Eigen::VectorXd& r, double k) {
  double sum = 0;
  for (Eigen::Index i = 0; i < r.size(); ++i) {
    const double a = std::fabs(r[i]);
    sum += k > 0 && a > k ? k * (a - k / 2) : a * a / 2;
  }
  return sum;
}

double rms_of(const Eigen::VectorXd& r) { return std::sqrt(r.squaredNorm() / static_cast<double>(r.size())); }

// The fit's coordinates <-> parameter values.
struct Space {
  const std::vector<BoundedParameter>& params;
  double to_value(std::size_t j, double x) const {
    const BoundedParameter& p = params[j];
    const double v = p.log_scale ? std::exp(x) : x;
    return std::min(p.max, std::max(p.min, v));
  }
  double to_x(std::size_t j, double v) const { return params[j].log_scale ? std::log(v) : v; }
  std::vector<double> values(const Eigen::VectorXd& x) const {
    std::vector<double> v(params.size());
    for (std::size_t j = 0; j < params.size(); ++j) v[j] = to_value(j, x[static_cast<Eigen::Index>(j)]);
    return v;
  }
  // The finite-difference step: forward, or backward where a forward step would leave the
  // range. A forward step from a parameter on its upper bound is clamped back onto the bound,
  // which gave a zero Jacobian column: the fit could never move the parameter back inside,
  // and cross-validation's reset_uninformed took it for a parameter no row responds to.
  // In a range narrower than a step both directions leave it; the step then goes toward the
  // bound with more room, so that the clamped step is not zero.
  double step(std::size_t j, double x) const {
    const BoundedParameter& p = params[j];
    const double h = p.log_scale ? 0.05 : std::max(0.02 * std::fabs(x), 0.01 * (p.max - p.min));
    const double ahead = p.log_scale ? std::exp(x + h) : x + h;
    const double behind = p.log_scale ? std::exp(x - h) : x - h;
    if (ahead <= p.max) return h;
    if (behind >= p.min) return -h;
    const double v = to_value(j, x);
    return p.max - v >= v - p.min ? h : -h;
  }
};

}  // namespace

std::vector<std::vector<double>> spread_starts(const std::vector<BoundedParameter>& params, int count) {
  const Space space{params};
  std::vector<std::vector<double>> points(static_cast<std::size_t>(std::max(0, count)), std::vector<double>(params.size()));
  const auto n = static_cast<std::uint64_t>(points.size());
  for (std::size_t j = 0; j < params.size(); ++j) {
    // A fixed permutation of the strata per parameter name (Fisher-Yates on its own stream).
    std::vector<std::uint64_t> stratum(n);
    for (std::uint64_t i = 0; i < n; ++i) stratum[i] = i;
    RngStream rng(1, 0, "calibrate/starts/" + params[j].name);
    for (std::uint64_t i = n; i > 1; --i) std::swap(stratum[i - 1], stratum[rng.below(i)]);
    const double lo = space.to_x(j, params[j].min), hi = space.to_x(j, params[j].max);
    for (std::uint64_t i = 0; i < n; ++i)
      points[i][j] = space.to_value(j, lo + (static_cast<double>(stratum[i]) + 0.5) / static_cast<double>(n) * (hi - lo));
  }
  return points;
}

MinimizeResult minimize(const std::vector<BoundedParameter>& params, const std::vector<double>& start,
                        const ResidualFunction& residuals, const MinimizeOptions& options,
                        const std::function<void(const std::string&)>& log) {
  if (start.size() != params.size()) check::fail("minimize: start values", start.size(), "one per parameter");
  check::in_range(options.starts, 1, 1000, "minimize: starts");
  MinimizeResult out;
  const Space space{params};
  const std::size_t np = params.size();

  auto evaluate_at = [&](const Eigen::VectorXd& x, Evaluation which) {
    const std::vector<double> r = residuals(space.values(x), which);
    ++out.evaluations;
    return Eigen::VectorXd(Eigen::Map<const Eigen::VectorXd>(r.data(), static_cast<Eigen::Index>(r.size())));
  };

  // The state of the search from one start: the point, its residuals and weights, damping.
  Eigen::VectorXd x(static_cast<Eigen::Index>(np));
  Eigen::VectorXd r;
  Eigen::VectorXd w;
  double huber_k = 0;
  double lambda = 1e-2;
  int steps = 0, iterations = 0;
  bool converged = false;
  Eigen::MatrixXd J;

  // IRLS weights, frozen within an iteration: all 1 for least squares, Huber's
  // w = min(1, k / |r|) for a Huber fit (k 0 until its first pass sets it).
  auto reweight = [&]() {
    w = Eigen::VectorXd::Ones(r.size());
    if (huber_k > 0)
      for (Eigen::Index i = 0; i < r.size(); ++i) w[i] = std::min(1.0, huber_k / std::max(std::fabs(r[i]), 1e-300));
  };
  auto weighted_cost = [&](const Eigen::VectorXd& res) { return (w.array() * res.array().square()).sum(); };
  auto jacobian = [&]() {
    J.resize(r.size(), static_cast<Eigen::Index>(np));
    for (std::size_t j = 0; j < np; ++j) {
      Eigen::VectorXd xh = x;
      const double h = space.step(j, x[static_cast<Eigen::Index>(j)]);
      xh[static_cast<Eigen::Index>(j)] += h;
      // The step actually evaluated (values are clamped into the range): in a range narrower
      // than a step, h would overstate it; no step at all leaves a zero column.
      const auto jj = static_cast<Eigen::Index>(j);
      const double dx = space.to_x(j, space.to_value(j, xh[jj])) - x[jj];
      if (dx == 0) {
        J.col(jj).setZero();
        continue;
      }
      const Eigen::VectorXd rh = evaluate_at(xh, Evaluation::trial);
      if (rh.size() != r.size())
        throw InvalidArgument("fit: a finite-difference step of '" + params[j].name +
                              "' lost a residual (a measured scenario failed); narrow its bounds");
      J.col(jj) = (rh - r) / dx;
    }
  };
  // Levenberg-Marquardt on the weighted problem of the current stage. Each iteration freezes
  // the weights at the current residuals; a trial point is taken only if it lowers the
  // weighted cost, which for Huber's loss at the pass's own k also lowers that loss (the
  // weighted square majorises it at the current residuals: Holland & Welsch 1977 [S144]).
  auto descend = [&](const std::string& name) {
    converged = false;
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
        const BoundedParameter& p = params[j];
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
          rn = evaluate_at(xn, Evaluation::trial);
        } catch (const InvalidArgument&) {
          rn.resize(0);   // the residuals cannot be evaluated at this trial point: reject it
        }
        // A trial point where a residual drops out (its scenario failed) is not comparable: reject it.
        const double cn = rn.size() == r.size() ? weighted_cost(rn) : std::numeric_limits<double>::infinity();
        if (cn < cost) {
          x = xn;
          r = rn;
          lambda = std::max(lambda / 3, 1e-7);
          const double gain = cost - cn;
          cost = cn;
          improved = true;
          ++steps;
          if (log) {
            char buf[200];
            std::snprintf(buf, sizeof buf, "%s iteration %d: rms log error %.4f, weighted cost %.4f (lambda %.2g)",
                          name.c_str(), it + 1, rms_of(r), cost, lambda);
            log(buf);
          }
          if (gain < 1e-6 * cost) {   // converged
            converged = true;
            it = options.max_iterations;
          }
        } else {
          lambda *= 4;
        }
      }
      ++iterations;
      if (!improved) {
        converged = true;
        break;
      }
    }
  };
  auto describe = [&](const std::vector<double>& values) {
    std::string s;
    char buf[96];
    for (std::size_t j = 0; j < np; ++j) {
      std::snprintf(buf, sizeof buf, "%s%s %.4g", j ? ", " : "", params[j].name.c_str(), values[j]);
      s += buf;
    }
    return s;
  };

  // The first (or only) pass from every start.
  const bool huber = options.loss == FitLoss::huber;
  const double first_k = huber ? kFirstPassK : 0;
  std::string first_name = "least squares";
  if (huber) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "Huber first pass (k %.2g)", kFirstPassK);
    first_name = buf;
  }
  // With no iterations no start moves: only the caller's is evaluated.
  const int starts = options.max_iterations == 0 ? 1 : options.starts;
  const std::vector<std::vector<double>> spread = spread_starts(params, starts - 1);
  Eigen::VectorXd best_x, best_r;
  double best_loss = std::numeric_limits<double>::infinity();
  int best_steps = 0, best_iterations = 0;
  std::size_t rows = 0;
  for (int s = 0; s < starts; ++s) {
    StartResult sr;
    sr.start = s == 0 ? start : spread[static_cast<std::size_t>(s - 1)];
    for (std::size_t j = 0; j < np; ++j) {
      sr.start[j] = std::clamp(sr.start[j], params[j].min, params[j].max);
      x[static_cast<Eigen::Index>(j)] = space.to_x(j, sr.start[j]);
    }
    const std::string tag = starts > 1 ? "start " + std::to_string(s + 1) + ": " : "";
    if (s > 0 && log) log("start " + std::to_string(s + 1) + " of " + std::to_string(starts) + ": " + describe(sr.start));
    // The caller's start must evaluate (its failure is the caller's error); another start
    // whose evaluation, or a finite-difference step of its pass, loses a residual is skipped.
    try {
      r = evaluate_at(x, s == 0 ? Evaluation::start : Evaluation::trial);
      if (s == 0) {
        rows = static_cast<std::size_t>(r.size());
        if (r.size() <= static_cast<Eigen::Index>(np))
          throw InvalidArgument("fit: " + std::to_string(r.size()) + " residuals (fitted rows) for " +
                                std::to_string(np) + " parameters; need more residuals than parameters");
        out.rms_before = rms_of(r);
      } else if (static_cast<std::size_t>(r.size()) != rows) {
        throw InvalidArgument("a residual is missing there (a measured scenario failed)");
      }
      huber_k = first_k;
      lambda = 1e-2;
      steps = 0;
      iterations = 0;
      descend(tag + first_name);
    } catch (const InvalidArgument& e) {
      if (s == 0) throw;
      sr.failed = true;
      if (log) log(tag + e.what() + "; skipped");
      out.starts.push_back(sr);
      continue;
    }
    sr.end = space.values(x);
    sr.loss = loss_of(r, first_k);
    sr.rms = rms_of(r);
    sr.steps = steps;
    sr.iterations = iterations;
    sr.converged = converged;
    if (starts > 1 && log) {
      char buf[128];
      std::snprintf(buf, sizeof buf, "ends at loss %.5f (rms log error %.4f, %d steps%s): ", sr.loss, sr.rms, sr.steps,
                    sr.converged ? "" : ", stopped at the iteration limit");
      log(tag + buf + describe(sr.end));
    }
    // The lowest loss; the earlier start on a tie. A loss that is not a number never wins,
    // except as the caller's start when no other start ends with a number.
    const double loss = std::isnan(sr.loss) ? std::numeric_limits<double>::infinity() : sr.loss;
    if (s == 0 || loss < best_loss) {
      if (s > 0) out.best_start = out.starts.size();
      best_loss = loss;
      best_x = x;
      best_r = r;
      best_steps = steps;
      best_iterations = iterations;
    }
    out.starts.push_back(sr);
  }
  x = best_x;
  r = best_r;
  steps = best_steps;
  iterations = best_iterations;
  if (starts > 1 && log)
    log("going on from start " + std::to_string(out.best_start + 1) + ", the lowest first-pass loss");

  if (huber) {
    // Huber's threshold is taken from the residuals of the first pass and then held.
    huber_k = huber_scale(r);
    out.huber_k = huber_k;
    if (log) {
      char buf[120];
      std::snprintf(buf, sizeof buf, "Huber threshold k = %.4f (log error), from the first pass's residuals", huber_k);
      log(buf);
    }
    lambda = 1e-2;
    descend("Huber");
  }
  // Final state, Jacobian at the optimum and the covariance (for Huber: of the last weighted
  // least-squares problem, the usual IRLS approximation).
  r = evaluate_at(x, Evaluation::optimum);
  reweight();
  jacobian();
  const Eigen::MatrixXd Jw = w.array().sqrt().matrix().asDiagonal() * J;
  const double dof = std::max(1.0, static_cast<double>(r.size()) - static_cast<double>(np));
  const double s2 = weighted_cost(r) / dof;
  const Eigen::MatrixXd cov = s2 * (Jw.transpose() * Jw).completeOrthogonalDecomposition().pseudoInverse();
  out.values = space.values(x);
  out.residuals.assign(r.data(), r.data() + r.size());
  for (std::size_t j = 0; j < np; ++j) {
    const auto jj = static_cast<Eigen::Index>(j);
    for (std::size_t k = 0; k < np; ++k) out.covariance.push_back(cov(jj, static_cast<Eigen::Index>(k)));
    out.unresponsive.push_back(J.col(jj).isZero(0.0));
  }
  out.rms_after = rms_of(r);
  out.steps = steps;
  out.iterations = iterations;
  return out;
}

}  // namespace hcisim
