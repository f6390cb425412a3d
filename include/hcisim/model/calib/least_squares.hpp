// Bounded, robust nonlinear least squares: the optimiser behind `hcisim calibrate` (fit.hpp),
// kept apart from the simulator so it can be checked on residuals with a known answer.
// Levenberg-Marquardt with Marquardt's damping on the diagonal of J^T J (Marquardt 1963 [S141];
// Nocedal & Wright, "Numerical Optimization", 2nd ed. [S142], section 10.3), a forward
// finite-difference Jacobian (backward where a forward step would leave the range), bounds
// by clamping with an active set, and parameters with a positive lower bound in log space.
// Loss: least squares, or Huber's by iteratively reweighted least squares (Huber 1964 [S143];
// Holland & Welsch 1977 [S144]), its threshold k taken from a first pass at a small fixed k
// (fit.hpp says why).
//
// Several starts: Levenberg-Marquardt is a local search, and a fit can end in either of two
// basins on a change that moves one residual by a fraction of a percent
// (docs/journal/accuracy-history.md, "Leave-one-seed-out from several starts"). With starts =
// N > 1, starts 2..N form a centred Latin hypercube (McKay, Beckman & Conover, Technometrics
// 1979) over the parameters' ranges, in the
// coordinates the fit moves in (log for a positive lower bound): each parameter's range is cut
// into N - 1 equal strata and every stratum's middle is used by exactly one start, the strata
// paired across parameters by a fixed permutation per parameter name, so every parameter's
// starts spread over its whole range however many parameters there are, and every run uses the
// same points. (A plain Halton sequence puts all of few points at the low end of every
// dimension whose prime exceeds their number.) The first pass (Huber's, at its fixed k, or the
// only one of least squares) runs from every start, and the fit goes on from the start whose
// pass ends at the lowest loss, the one objective all starts share. Start 1 is the caller's
// start (the committed calibration), and it wins ties, so starts = N never returns a worse
// first-pass loss than starts = 1. A start whose loss cannot be evaluated (a scenario fails,
// or a residual is not a number) is skipped. With max_iterations 0 no start takes a step, and
// only the caller's is evaluated.
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
  int starts = 1;            // 1 = the caller's start only; N adds N - 1 spread starts (above)
};

/// Where one start's first pass began and ended.
struct StartResult {
  std::vector<double> start;   // parameter values
  std::vector<double> end;
  double loss = 0;             // the first pass's loss at its end (Huber's at its fixed k, or half the sum of squares)
  double rms = 0;              // root mean square of the residuals at its end
  int steps = 0;               // iterations whose step lowered the cost
  int iterations = 0;
  bool converged = false;      // the pass stopped on its own (no step lowered the cost, or too little), not at max_iterations
  bool failed = false;         // the residuals could not be evaluated from this start: skipped
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

/// Which evaluation a call of the residual function is: the caller's start and the optimum are
/// evaluated once each, so the caller may keep their details (fit.cpp keeps the reports).
enum class Evaluation { start, trial, optimum };

/// Residuals at the given parameter values (each within its range). An evaluation that
/// cannot be made throws InvalidArgument; a trial point there is rejected.
using ResidualFunction = std::function<std::vector<double>(const std::vector<double>& values, Evaluation which)>;

/// Minimises the loss of `residuals` over the box from `start` (clamped into it). Throws
/// InvalidArgument if there are no more residuals than parameters.
MinimizeResult minimize(const std::vector<BoundedParameter>& params, const std::vector<double>& start,
                        const ResidualFunction& residuals, const MinimizeOptions& options,
                        const std::function<void(const std::string&)>& log = {});

/// The spread starts (above): `count` points, each a value per parameter; point i puts
/// parameter j in the middle of stratum perm_j(i) of count equal strata of its range.
std::vector<std::vector<double>> spread_starts(const std::vector<BoundedParameter>& params, int count);

}  // namespace hcisim
