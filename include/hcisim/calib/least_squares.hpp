// Bounded, robust nonlinear least squares: the optimiser behind `hcisim calibrate` (fit.hpp),
// kept apart from the simulator so it can be checked on residuals with a known answer.
// Levenberg-Marquardt with Marquardt's damping on the diagonal of J^T J (Marquardt 1963;
// Nocedal & Wright, "Numerical Optimization", 2nd ed., section 10.3), a forward
// finite-difference Jacobian (backward where a forward step would leave the range), bounds
// by clamping with an active set, and parameters with a positive lower bound in log space.
// Loss: least squares, or Huber's by iteratively reweighted least squares (Huber 1964;
// Holland & Welsch 1977), its threshold k taken from a first pass at a small fixed k
// (fit.hpp says why).
//
// Several starts: Levenberg-Marquardt is a local search, and a fit can end in either of two
// basins on a change that moves one residual by a fraction of a percent (docs/accuracy.md,
// "Leave-one-seed-out"). With starts = N > 1, starts 2..N are the first N - 1 points of a
// Halton sequence (bases 2, 3, 5, 7, ...; Halton 1960) over the range of every parameter, in
// the coordinates the fit moves in (log for a positive lower bound), so they spread evenly
// and are the same in every run. The first pass (Huber's, at its fixed k, or the only one of
// least squares) runs from every start; the fit goes on from the start whose pass ends at the
// lowest loss, the one objective all starts share. Start 1 is the caller's start (the
// committed calibration), and it wins ties, so starts = N never returns a worse first-pass
// loss than starts = 1.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace hcisim {

enum class FitLoss { least_squares, huber };

/// One fitted parameter: its range, and whether the fit moves it in log space.
struct BoundedParameter {
  std::string name;
  double min = 0;
  double max = 0;
  bool log_scale = false;   // a positive lower bound: steps are relative
};

struct MinimizeOptions {
  int max_iterations = 12;   // per pass (a Huber fit runs two)
  FitLoss loss = FitLoss::least_squares;
  int starts = 1;            // 1 = the caller's start only; N adds N - 1 Halton starts (above)
};

/// Where one start's first pass began and ended.
struct StartResult {
  std::vector<double> start;   // parameter values
  std::vector<double> end;
  double loss = 0;             // the first pass's loss at its end (Huber's at its fixed k, or half the sum of squares)
  double rms = 0;              // root mean square of the residuals at its end
  int steps = 0;
  bool failed = false;         // the residuals could not be evaluated at the start: skipped
};

struct MinimizeResult {
  std::vector<double> values;       // at the optimum
  std::vector<double> residuals;    // at the optimum
  // At the optimum, in the fit's coordinates (log for log_scale): the covariance
  // s^2 (Jw^T Jw)^+ (s^2 = weighted SSR / (n - p), Jw the weighted Jacobian), row-major, and
  // whether a parameter's Jacobian column is zero (no residual responds to it).
  std::vector<double> covariance;
  std::vector<bool> unresponsive;
  double cov(std::size_t j, std::size_t k) const { return covariance[j * values.size() + k]; }
  double rms_before = 0;            // at the caller's start
  double rms_after = 0;
  double huber_k = 0;               // Huber's held threshold (FitLoss::huber)
  int iterations = 0;               // of the winning start's passes
  int steps = 0;                    // iterations of the winning start whose step lowered the cost
  int evaluations = 0;              // over every start
  std::size_t best_start = 0;       // index into starts
  std::vector<StartResult> starts;
};

/// Residuals at the given parameter values (each within its range). `keep` is true for the
/// evaluations whose details the caller may keep: the caller's start and the optimum. An
/// evaluation that cannot be made throws InvalidArgument; a trial point there is rejected.
using ResidualFunction = std::function<std::vector<double>(const std::vector<double>& values, bool keep)>;

/// Minimises the loss of `residuals` over the box from `start` (clamped into it). Throws
/// InvalidArgument if there are no more residuals than parameters.
MinimizeResult minimize(const std::vector<BoundedParameter>& params, const std::vector<double>& start,
                        const ResidualFunction& residuals, const MinimizeOptions& options,
                        const std::function<void(const std::string&)>& log = {});

/// The Halton point of index i >= 1 in dimension d (radical inverse of i in the d-th prime), in (0, 1).
double halton(unsigned i, std::size_t d);

}  // namespace hcisim
