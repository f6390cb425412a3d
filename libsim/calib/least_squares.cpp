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

namespace {

using LogFn = std::function<void(const std::string&)>;

// One minimisation: the state of the search from one start (the point, its residuals and
// weights, the damping, the counts) and its passes, filling `out` as it goes.
class Search {
 public:
  Search(const std::vector<BoundedParameter>& params, const ResidualFunction& residuals, const MinimizeOptions& options,
         const LogFn& log, MinimizeResult& out)
      : params_(params), np_(params.size()), space_{params}, residuals_(residuals), options_(options), log_(log), out_(out),
        x_(static_cast<Eigen::Index>(np_)) {}

  void first_passes(const std::vector<double>& start, double first_k, const std::string& first_name);
  void huber_pass();
  void finish();

 private:
  Eigen::VectorXd evaluate_at(const Eigen::VectorXd& x, Evaluation which);
  void reweight();
  double weighted_cost(const Eigen::VectorXd& res) const { return (w_.array() * res.array().square()).sum(); }
  void jacobian();
  void descend(const std::string& name);
  void hold_active_bounds(Eigen::MatrixXd& A, Eigen::VectorXd& g) const;
  bool try_step(const Eigen::MatrixXd& A, const Eigen::VectorXd& g, double& cost, const std::string& name, int it);
  bool first_pass(int s, int starts, double first_k, const std::string& first_name, StartResult& sr);
  std::string describe(const std::vector<double>& values) const;

  const std::vector<BoundedParameter>& params_;
  const std::size_t np_;
  const Space space_;
  const ResidualFunction& residuals_;
  const MinimizeOptions& options_;
  const LogFn& log_;
  MinimizeResult& out_;
  Eigen::VectorXd x_;
  Eigen::VectorXd r_;
  Eigen::VectorXd w_;
  double huber_k_ = 0;
  double lambda_ = 1e-2;
  int steps_ = 0, iterations_ = 0;
  bool converged_ = false;
  Eigen::MatrixXd J_;
  std::size_t rows_ = 0;   // residuals at the caller's start: every other start must give as many
};

Eigen::VectorXd Search::evaluate_at(const Eigen::VectorXd& x, Evaluation which) {
  const std::vector<double> r = residuals_(space_.values(x), which);
  ++out_.evaluations;
  return Eigen::VectorXd(Eigen::Map<const Eigen::VectorXd>(r.data(), static_cast<Eigen::Index>(r.size())));
}

// IRLS weights, frozen within an iteration: all 1 for least squares, Huber's
// w = min(1, k / |r|) for a Huber fit (k 0 until its first pass sets it).
void Search::reweight() {
  w_ = Eigen::VectorXd::Ones(r_.size());
  if (huber_k_ > 0)
    for (Eigen::Index i = 0; i < r_.size(); ++i) w_[i] = std::min(1.0, huber_k_ / std::max(std::fabs(r_[i]), 1e-300));
}

void Search::jacobian() {
  J_.resize(r_.size(), static_cast<Eigen::Index>(np_));
  for (std::size_t j = 0; j < np_; ++j) {
    Eigen::VectorXd xh = x_;
    const double h = space_.step(j, x_[static_cast<Eigen::Index>(j)]);
    xh[static_cast<Eigen::Index>(j)] += h;
    // The step actually evaluated (values are clamped into the range): in a range narrower
    // than a step, h would overstate it; no step at all leaves a zero column.
    const auto jj = static_cast<Eigen::Index>(j);
    const double dx = space_.to_x(j, space_.to_value(j, xh[jj])) - x_[jj];
    if (dx == 0) {
      J_.col(jj).setZero();
      continue;
    }
    const Eigen::VectorXd rh = evaluate_at(xh, Evaluation::trial);
    if (rh.size() != r_.size())
      throw InvalidArgument("fit: a finite-difference step of '" + params_[j].name +
                            "' lost a residual (a measured scenario failed); narrow its bounds");
    J_.col(jj) = (rh - r_) / dx;
  }
}

// Levenberg-Marquardt on the weighted problem of the current stage. Each iteration freezes
// the weights at the current residuals; a trial point is taken only if it lowers the
// weighted cost, which for Huber's loss at the pass's own k also lowers that loss (the
// weighted square majorises it at the current residuals: Holland & Welsch 1977 [S144]).
void Search::descend(const std::string& name) {
  converged_ = false;
  for (int it = 0; it < options_.max_iterations; ++it) {
    reweight();
    double cost = weighted_cost(r_);
    jacobian();
    const Eigen::MatrixXd Jw = w_.array().sqrt().matrix().asDiagonal() * J_;
    Eigen::MatrixXd A = Jw.transpose() * Jw;
    Eigen::VectorXd g = Jw.transpose() * (w_.array().sqrt() * r_.array()).matrix();
    hold_active_bounds(A, g);
    bool improved = false;
    for (int tries = 0; tries < 6 && !improved; ++tries) improved = try_step(A, g, cost, name, it);
    ++iterations_;
    if (!improved) {
      converged_ = true;
      break;
    }
    if (converged_) break;   // the step gained too little to go on
  }
}

// A parameter on a bound whose descent direction (-g) points out of the range is held
// there for this step (the active set of a bound-constrained least-squares problem):
// solving for it too and then clamping it back would also distort every other
// parameter's step, and a step that changes nothing but the clamped parameter is never
// an improvement, so the fit would stall.
void Search::hold_active_bounds(Eigen::MatrixXd& A, Eigen::VectorXd& g) const {
  for (std::size_t j = 0; j < np_; ++j) {
    const auto jj = static_cast<Eigen::Index>(j);
    const BoundedParameter& p = params_[j];
    const double v = space_.to_value(j, x_[jj]);
    const double tol = 1e-9 * std::max(std::fabs(p.max), std::fabs(p.min));
    if ((v >= p.max - tol && g[jj] < 0) || (v <= p.min + tol && g[jj] > 0)) {
      A.row(jj).setZero();
      A.col(jj).setZero();
      A(jj, jj) = 1;
      g[jj] = 0;
    }
  }
}

// One damped trial step of iteration `it`: taken if it lowers the weighted `cost` (which
// becomes the new cost; lambda shrinks, and a negligible gain ends the pass as converged),
// else lambda grows. Returns whether the step was taken.
bool Search::try_step(const Eigen::MatrixXd& A, const Eigen::VectorXd& g, double& cost, const std::string& name, int it) {
  Eigen::MatrixXd damped = A;
  for (Eigen::Index j = 0; j < A.rows(); ++j) damped(j, j) += lambda_ * std::max(A(j, j), 1e-9);
  const Eigen::VectorXd delta = damped.ldlt().solve(-g);
  Eigen::VectorXd xn = x_ + delta;
  for (std::size_t j = 0; j < np_; ++j)
    xn[static_cast<Eigen::Index>(j)] = space_.to_x(j, space_.to_value(j, xn[static_cast<Eigen::Index>(j)]));
  Eigen::VectorXd rn;
  try {
    rn = evaluate_at(xn, Evaluation::trial);
  } catch (const InvalidArgument&) {
    rn.resize(0);   // the residuals cannot be evaluated at this trial point: reject it
  }
  // A trial point where a residual drops out (its scenario failed) is not comparable: reject it.
  const double cn = rn.size() == r_.size() ? weighted_cost(rn) : std::numeric_limits<double>::infinity();
  if (!(cn < cost)) {
    lambda_ *= 4;
    return false;
  }
  x_ = xn;
  r_ = rn;
  lambda_ = std::max(lambda_ / 3, 1e-7);
  const double gain = cost - cn;
  cost = cn;
  ++steps_;
  if (log_) {
    char buf[200];
    std::snprintf(buf, sizeof buf, "%s iteration %d: rms log error %.4f, weighted cost %.4f (lambda %.2g)", name.c_str(),
                  it + 1, rms_of(r_), cost, lambda_);
    log_(buf);
  }
  if (gain < 1e-6 * cost) converged_ = true;
  return true;
}

std::string Search::describe(const std::vector<double>& values) const {
  std::string s;
  char buf[96];
  for (std::size_t j = 0; j < np_; ++j) {
    std::snprintf(buf, sizeof buf, "%s%s %.4g", j ? ", " : "", params_[j].name.c_str(), values[j]);
    s += buf;
  }
  return s;
}

// Start `s`'s first pass from sr.start, at threshold first_k. The caller's start must
// evaluate (its failure is the caller's error); another start whose evaluation, or a
// finite-difference step of its pass, loses a residual is skipped: false, marked failed.
bool Search::first_pass(int s, int starts, double first_k, const std::string& first_name, StartResult& sr) {
  for (std::size_t j = 0; j < np_; ++j) {
    sr.start[j] = std::clamp(sr.start[j], params_[j].min, params_[j].max);
    x_[static_cast<Eigen::Index>(j)] = space_.to_x(j, sr.start[j]);
  }
  const std::string tag = starts > 1 ? "start " + std::to_string(s + 1) + ": " : "";
  if (s > 0 && log_) log_("start " + std::to_string(s + 1) + " of " + std::to_string(starts) + ": " + describe(sr.start));
  try {
    r_ = evaluate_at(x_, s == 0 ? Evaluation::start : Evaluation::trial);
    if (s == 0) {
      rows_ = static_cast<std::size_t>(r_.size());
      if (r_.size() <= static_cast<Eigen::Index>(np_))
        throw InvalidArgument("fit: " + std::to_string(r_.size()) + " residuals (fitted rows) for " + std::to_string(np_) +
                              " parameters; need more residuals than parameters");
      out_.rms_before = rms_of(r_);
    } else if (static_cast<std::size_t>(r_.size()) != rows_) {
      throw InvalidArgument("a residual is missing there (a measured scenario failed)");
    }
    huber_k_ = first_k;
    lambda_ = 1e-2;
    steps_ = 0;
    iterations_ = 0;
    descend(tag + first_name);
  } catch (const InvalidArgument& e) {
    if (s == 0) throw;
    sr.failed = true;
    if (log_) log_(tag + e.what() + "; skipped");
    return false;
  }
  sr.end = space_.values(x_);
  sr.loss = loss_of(r_, first_k);
  sr.rms = rms_of(r_);
  sr.steps = steps_;
  sr.iterations = iterations_;
  sr.converged = converged_;
  if (starts > 1 && log_) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "ends at loss %.5f (rms log error %.4f, %d steps%s): ", sr.loss, sr.rms, sr.steps,
                  sr.converged ? "" : ", stopped at the iteration limit");
    log_(tag + buf + describe(sr.end));
  }
  return true;
}

// The first (or only) pass from every start; the search goes on from the start whose pass
// ends at the lowest loss.
void Search::first_passes(const std::vector<double>& start, double first_k, const std::string& first_name) {
  // With no iterations no start moves: only the caller's is evaluated.
  const int starts = options_.max_iterations == 0 ? 1 : options_.starts;
  const std::vector<std::vector<double>> spread = spread_starts(params_, starts - 1);
  Eigen::VectorXd best_x, best_r;
  double best_loss = std::numeric_limits<double>::infinity();
  int best_steps = 0, best_iterations = 0;
  for (int s = 0; s < starts; ++s) {
    StartResult sr;
    sr.start = s == 0 ? start : spread[static_cast<std::size_t>(s - 1)];
    if (!first_pass(s, starts, first_k, first_name, sr)) {
      out_.starts.push_back(sr);
      continue;
    }
    // The lowest loss; the earlier start on a tie. A loss that is not a number never wins,
    // except as the caller's start when no other start ends with a number.
    const double loss = std::isnan(sr.loss) ? std::numeric_limits<double>::infinity() : sr.loss;
    if (s == 0 || loss < best_loss) {
      if (s > 0) out_.best_start = out_.starts.size();
      best_loss = loss;
      best_x = x_;
      best_r = r_;
      best_steps = steps_;
      best_iterations = iterations_;
    }
    out_.starts.push_back(sr);
  }
  x_ = best_x;
  r_ = best_r;
  steps_ = best_steps;
  iterations_ = best_iterations;
  if (starts > 1 && log_)
    log_("going on from start " + std::to_string(out_.best_start + 1) + ", the lowest first-pass loss");
}

// Huber's threshold is taken from the residuals of the first pass and then held.
void Search::huber_pass() {
  huber_k_ = huber_scale(r_);
  out_.huber_k = huber_k_;
  if (log_) {
    char buf[120];
    std::snprintf(buf, sizeof buf, "Huber threshold k = %.4f (log error), from the first pass's residuals", huber_k_);
    log_(buf);
  }
  lambda_ = 1e-2;
  descend("Huber");
}

// Final state, Jacobian at the optimum and the covariance (for Huber: of the last weighted
// least-squares problem, the usual IRLS approximation).
void Search::finish() {
  r_ = evaluate_at(x_, Evaluation::optimum);
  reweight();
  jacobian();
  const Eigen::MatrixXd Jw = w_.array().sqrt().matrix().asDiagonal() * J_;
  const double dof = std::max(1.0, static_cast<double>(r_.size()) - static_cast<double>(np_));
  const double s2 = weighted_cost(r_) / dof;
  const Eigen::MatrixXd cov = s2 * (Jw.transpose() * Jw).completeOrthogonalDecomposition().pseudoInverse();
  out_.values = space_.values(x_);
  out_.residuals.assign(r_.data(), r_.data() + r_.size());
  for (std::size_t j = 0; j < np_; ++j) {
    const auto jj = static_cast<Eigen::Index>(j);
    for (std::size_t k = 0; k < np_; ++k) out_.covariance.push_back(cov(jj, static_cast<Eigen::Index>(k)));
    out_.unresponsive.push_back(J_.col(jj).isZero(0.0));
  }
  out_.rms_after = rms_of(r_);
  out_.steps = steps_;
  out_.iterations = iterations_;
}

}  // namespace

MinimizeResult minimize(const std::vector<BoundedParameter>& params, const std::vector<double>& start,
                        const ResidualFunction& residuals, const MinimizeOptions& options,
                        const std::function<void(const std::string&)>& log) {
  if (start.size() != params.size()) check::fail("minimize: start values", start.size(), "one per parameter");
  check::in_range(options.starts, 1, 1000, "minimize: starts");
  MinimizeResult out;
  Search search(params, residuals, options, log, out);
  const bool huber = options.loss == FitLoss::huber;
  std::string first_name = "least squares";
  if (huber) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "Huber first pass (k %.2g)", kFirstPassK);
    first_name = buf;
  }
  search.first_passes(start, huber ? kFirstPassK : 0, first_name);
  if (huber) search.huber_pass();
  search.finish();
  return out;
}

}  // namespace hcisim
