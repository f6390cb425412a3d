// The analytic fast path (analytic.hpp).
#include "hcisim/plan/analytic.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>

#include <boost/math/tools/toms748_solve.hpp>

#include "hcisim/core/check.hpp"
#include "hcisim/model/core/parallel.hpp"
#include "hcisim/model/report/text_escape.hpp"
#include "hcisim/plan/knee.hpp"
#include "hcisim/report/run_report.hpp"

namespace hcisim {

namespace {

// A latency or count as the notes print it: three significant figures.
std::string fmt_ms(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

// The pilot, its window checked as the knee's closed loop is (report/run_report.hpp,
// window_problem: 400 completions and Little's law within 10 %): lengthened, window and
// warm-up doubled, up to kMaxWindowScale times; still short, the model says so.
RunResult pilot_that_holds(const Scenario& pilot, const ProgressFn& progress, AnalyticModel& m) {
  for (double scale = 1;; scale *= 2) {
    Scenario s = pilot;
    if (scale > 1 && !s.workload.auto_duration) {
      s.workload.duration_s *= scale;
      s.workload.warmup_s *= scale;
    }
    RunResult r = simulate(s, progress);
    const std::string problem = window_problem(r.result, "the pilot", true, kRunCompletionsForP95, "demand estimate");
    m.pilot_window_scale = scale;
    if (problem.empty() || r.result.simulated_ios == 0) return r;
    if (scale * 2 > kMaxWindowScale) {
      m.window_note = problem + " even " + std::to_string(static_cast<int>(scale)) +
                      " times longer; its demands rest on it (lengthen workload.duration_s)";
      return r;
    }
  }
}

// The network's mean response (seconds) at `population`, one recursion step per job; no
// allocation (the fit calls it about a dozen times, each a population's worth of steps).
double response_at(const std::vector<MvaStation>& stations, double z, double f, int population) {
  MvaSolver solver(stations, z, f);
  MvaPoint p;
  while (solver.population() < population) p = solver.step();
  return p.response_s;
}

// The root of the increasing `g` in [lo, hi] (g(lo) < 0 < g(hi)), to (hi - lo) 2^-40 as the
// bisection it replaces, by Alefeld, Potra and Shi's TOMS 748 (interpolation steps kept
// bracketed; Boost.Math): about 10 evaluations instead of 40. The lower end, as bisection's.
template <class G>
double root_below(const G& g, double lo, double hi, double g_lo, double g_hi) {
  const double width = (hi - lo) * std::ldexp(1.0, -40);
  std::uintmax_t iterations = 100;
  const auto close = [width](double a, double b) { return b - a <= width; };
  return boost::math::tools::toms748_solve(g, lo, hi, g_lo, g_hi, close, iterations).first;
}

constexpr double kFitTolerance = 0.1;   // the fitted model against its pilot, relative

// Z, or the fork-join share f, so the network at the pilot's population gives the pilot's
// latency (and so, by Little's law, its IOPS): the response grows with both. What the fit
// cannot do (f pinned at its bound, the pilot's latency missed) or what the pilot does not
// hold (Little's law) is said in fit_notes.
void fit_delay_or_overlap(AnalyticModel& m, int population) {
  const double target = m.pilot_latency_ms / 1e3;
  const auto solve = [&](double z, double f) {
    ++m.fit_solutions;
    return response_at(m.stations, z, f, population);
  };
  const double serial = solve(0, 1);
  double fitted_ms = m.pilot_latency_ms;   // the fitted network's latency at the pilot's population
  if (serial < target) {
    const auto g = [&](double z) { return solve(z, 1) - target; };
    m.delay_s = root_below(g, 0, target, serial - target, g(target));
  } else {
    constexpr double kLeast = 1e-6;   // f in (0, 1]
    const double least = solve(0, kLeast);
    if (least >= target) {
      m.overlap = kLeast;
      fitted_ms = least * 1e3;
      m.fit_notes.push_back("the fork-join share is pinned at its lower bound (1e-06): the stations alone hold " +
                            fmt_ms(least * 1e3) + " ms at the pilot's " + std::to_string(population) +
                            " outstanding I/Os even if their residences overlap entirely, against the pilot's " +
                            fmt_ms(m.pilot_latency_ms) + " ms");
    } else {
      const auto g = [&](double f) { return solve(0, f) - target; };
      m.overlap = root_below(g, kLeast, 1, least - target, serial - target);
    }
  }
  if (std::abs(fitted_ms - m.pilot_latency_ms) > kFitTolerance * m.pilot_latency_ms)
    m.fit_notes.push_back("the fitted model gives " + fmt_ms(fitted_ms) + " ms at the pilot's population against the pilot's " +
                          fmt_ms(m.pilot_latency_ms) + " ms (10 % allowed): the curve and its knee do not rest on the "
                          "pilot (lengthen workload.duration_s)");
  const double in_flight = m.pilot_iops * target;
  if (std::abs(in_flight - population) > kFitTolerance * population && m.window_note.find("Little") == std::string::npos)
    m.fit_notes.push_back("the pilot's IOPS x mean latency holds " + std::to_string(std::lround(in_flight)) + " of its " +
                          std::to_string(population) + " I/Os in flight (Little's law, 10 % allowed): its window is "
                          "short against its latency (lengthen workload.duration_s)");
}

}  // namespace

AnalyticModel analytic_model(const Scenario& scenario, const ProgressFn& progress) {
  const WorkloadSpec& w = scenario.workload;
  if (!scenario.groups.empty())
    throw InvalidArgument("analytic: the scenario runs " + std::to_string(scenario.groups.size()) +
                          " workload groups; the analytic curve is one workload's (give one workload; run, sweep and "
                          "compare take groups)");
  if (w.iops_limit_per_vm > 0)
    throw InvalidArgument("analytic: the scenario is an open loop (workload.iops_limit_per_vm); the network is closed, "
                          "give the closed loop");
  if (w.latency_target_ms > 0)
    throw InvalidArgument("analytic: the scenario runs HCIBench's latency-target mode; give a closed-loop workload");
  AnalyticModel m;
  m.slots = w.vm_count(static_cast<int>(scenario.cluster.hosts.size())) * w.vmdks_per_vm;
  m.configured_outstanding_per_vmdk = w.outstanding_per_vmdk;
  Scenario pilot = scenario;
  // One outstanding I/O per VMDK (per thread for DiskSpd's threads, which each keep one).
  m.pilot_outstanding_per_vmdk = std::max(1, scenario.threads_per_vmdk);
  pilot.workload.outstanding_per_vmdk = m.pilot_outstanding_per_vmdk;
  pilot.workload.validate();
  const auto t0 = std::chrono::steady_clock::now();
  const RunResult r = pilot_that_holds(pilot, progress, m);
  m.pilot_wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  m.pilot_iops = r.result.iops;
  m.pilot_latency_ms = r.result.pooled_latency_ms;
  if (!(m.pilot_iops > 0)) throw InvalidArgument("analytic: the pilot run completed no I/O; lengthen workload.duration_s");
  for (const StationUse& s : r.stations) {
    const double demand = s.busy / m.pilot_iops;
    if (!(demand > 0)) continue;
    m.names.push_back(s.name);
    m.stations.push_back({demand, s.servers});
  }
  fit_delay_or_overlap(m, m.slots * m.pilot_outstanding_per_vmdk);
  return m;
}

std::vector<CurvePoint> analytic_curve(const AnalyticModel& m, const std::vector<int>& outstanding_per_vmdk) {
  std::vector<int> at;
  for (int o : outstanding_per_vmdk) {
    if (o < 1 || o > 4096 || static_cast<long>(o) * m.slots > 1'000'000)
      check::fail("analytic outstanding I/O per VMDK", o, "1..4096, and at most 1e6 I/Os in all");
    at.push_back(o * m.slots);
  }
  const std::vector<MvaPoint> pts = mva(m.stations, m.delay_s, at, m.overlap);
  std::vector<CurvePoint> out;
  for (std::size_t i = 0; i < pts.size(); ++i)
    out.push_back({outstanding_per_vmdk[i], pts[i].population, pts[i].throughput, pts[i].response_s * 1e3});
  return out;
}

AnalyticKnee analytic_knee(const AnalyticModel& m, double limit_ms) {
  if (!std::isfinite(limit_ms) || !(limit_ms > 0)) check::fail("analytic knee latency target (ms)", limit_ms, "a finite number > 0");
  // Latency grows with the population: step until it passes the target, up to the workload's
  // own outstanding I/O (as find_knee's closed-loop ceiling).
  const int top = std::min(1'000'000, m.slots * m.configured_outstanding_per_vmdk);
  MvaSolver solver(m.stations, m.delay_s, m.overlap);
  AnalyticKnee k;
  bool above = false;
  while (solver.population() < top) {
    const MvaPoint p = solver.step();
    above = p.response_s * 1e3 > limit_ms;
    if (above) break;
    k = {p.throughput, p.response_s * 1e3, p.population};
  }
  k.ceiling = k.population > 0 && !above;
  return k;
}

double analytic_ceiling(const AnalyticModel& m, std::string* station) {
  // The bottleneck law (Denning and Buzen 1978 [S121]): a station of c servers and demand D per I/O
  // passes at most c / D I/Os per second, whatever the population.
  double ceiling = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < m.stations.size(); ++i) {
    const double x = m.stations[i].servers / m.stations[i].demand_s;
    if (x < ceiling) {
      ceiling = x;
      if (station) *station = m.names[i];
    }
  }
  return ceiling;
}

std::vector<int> default_curve_points(const AnalyticModel& m) {
  const double from = m.pilot_outstanding_per_vmdk;
  // Twice the configured outstanding I/O, within the solver's 1e6 population and 4096 per VMDK.
  const double cap = std::min(4096.0, std::floor(1e6 / std::max(1, m.slots)));
  const double top = std::max(from, std::min(cap, std::max(2.0 * from, 2.0 * m.configured_outstanding_per_vmdk)));
  std::vector<int> out;
  for (int i = 0; i < 20; ++i) {
    const int o = static_cast<int>(std::lround(from * std::pow(top / from, i / 19.0)));
    if (out.empty() || o > out.back()) out.push_back(o);
  }
  return out;
}

CurveReport curve_report(const Scenario& scenario, bool check, double limit_ms, int jobs, const ProgressFn& progress) {
  CurveReport r;
  r.scenario = scenario.name;
  r.model = analytic_model(scenario, progress);
  const auto t0 = std::chrono::steady_clock::now();
  r.curve = analytic_curve(r.model, default_curve_points(r.model));
  r.mva_ms = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() * 1e3;
  r.limit_ms = limit_ms;
  if (limit_ms > 0) r.knee = analytic_knee(r.model, limit_ms);
  if (!check) return r;
  r.checked = true;
  std::vector<Scenario> runs;
  for (const CurvePoint& p : r.curve) {
    Scenario point = scenario;
    point.workload.outstanding_per_vmdk = p.outstanding_per_vmdk;
    runs.push_back(std::move(point));
  }
  std::vector<RunResult> sims(runs.size());
  parallel_for(runs.size(), jobs, [&](std::size_t i) { sims[i] = simulate(runs[i], progress); });
  for (const RunResult& s : sims) {
    r.sim_iops.push_back(s.result.iops);
    r.sim_latency_ms.push_back(s.result.pooled_latency_ms);
  }
  if (limit_ms > 0) {
    KneeOptions o;
    o.jobs = jobs;
    o.run_progress = progress;
    const KneeResult k = find_knee(scenario, {LatencyStat::mean, limit_ms}, o);
    r.sim_knee_iops = k.found ? k.iops : std::numeric_limits<double>::quiet_NaN();
    r.sim_knee_ceiling = k.found && k.ceiling;
  }
  return r;
}

namespace {

// knee's note (format_knee) when the configured outstanding I/O, not the cluster, caps the
// knee: the analytic one, the simulator's, or both.
std::string knee_ceiling_note(const CurveReport& r) {
  const bool analytic = r.knee.ceiling, sim = r.checked && r.sim_knee_ceiling;
  if (!analytic && !sim) return "";
  const char* which = analytic && sim ? "both knees" : analytic ? "the analytic knee" : "the simulator's knee";
  return std::string("Note: ") + which + " at the configured " + std::to_string(r.model.configured_outstanding_per_vmdk) +
         " outstanding I/O per VMDK: the closed loop itself meets the target, so the workload's outstanding I/O, not "
         "the cluster, sets the limit (raise it to look further)\n";
}

}  // namespace

std::string format_curve(const CurveReport& r) {
  const AnalyticModel& m = r.model;
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "Analytic model: %zu stations, demands from a pilot at %d outstanding I/O per VMDK (%.0f IOPS, %.3f ms, "
                "%.2f s); delay outside the stations %.1f us, fork-join share %.3f; the curve took %.3f ms\n",
                m.stations.size(), m.pilot_outstanding_per_vmdk, m.pilot_iops, m.pilot_latency_ms, m.pilot_wall_s,
                m.delay_s * 1e6, m.overlap, r.mva_ms);
  std::string out = "Scenario: " + r.scenario + "\n" + buf;
  if (!m.window_note.empty()) out += "Warning: " + m.window_note + "\n";
  for (const std::string& note : m.fit_notes) out += "Warning: " + note + "\n";
  std::snprintf(buf, sizeof buf, "%16s %12s %12s%s\n", "outstanding/VMDK", "IOPS", "mean ms",
                r.checked ? "   sim IOPS  sim mean ms  IOPS diff" : "");
  out += buf;
  for (std::size_t i = 0; i < r.curve.size(); ++i) {
    const CurvePoint& p = r.curve[i];
    std::snprintf(buf, sizeof buf, "%16d %12.0f %12.3f", p.outstanding_per_vmdk, p.iops, p.latency_ms);
    out += buf;
    if (r.checked) {
      std::snprintf(buf, sizeof buf, " %12.0f %12.3f %+9.1f %%", r.sim_iops[i], r.sim_latency_ms[i],
                    100 * (p.iops / r.sim_iops[i] - 1));
      out += buf;
    }
    out += "\n";
  }
  if (r.limit_ms > 0) {
    if (r.knee.population > 0)
      std::snprintf(buf, sizeof buf, "Knee at mean <= %g ms: analytic %.0f IOPS (%.3f ms)", r.limit_ms, r.knee.iops,
                    r.knee.latency_ms);
    else   // even one outstanding I/O in all is above the target
      std::snprintf(buf, sizeof buf, "Knee at mean <= %g ms: analytic: no population meets it (one outstanding I/O "
                    "is already above it)", r.limit_ms);
    out += buf;
    if (r.checked && std::isfinite(r.sim_knee_iops)) {
      std::snprintf(buf, sizeof buf, "; simulator %.0f IOPS (%+.1f %%)", r.sim_knee_iops,
                    100 * (r.knee.iops / r.sim_knee_iops - 1));
      out += buf;
    } else if (r.checked) {
      out += "; the simulator finds no load that meets it";
    }
    out += "\n" + knee_ceiling_note(r);
  }
  return out;
}

namespace {
// The pilot's window note and the fit's notes, as a JSON array.
std::string warnings_json(const AnalyticModel& m) {
  std::string out = "[";
  if (!m.window_note.empty()) out += json_string(m.window_note);
  for (const std::string& note : m.fit_notes) out += (out.size() > 1 ? ", " : "") + json_string(note);
  return out + "]";
}
}  // namespace

std::string to_json(const CurveReport& r) {
  const AnalyticModel& m = r.model;
  std::string j = "{\"scenario\": " + json_string(r.scenario) + ", \"stations\": " + std::to_string(m.stations.size()) +
                  ", \"delay_ms\": " + json_number(m.delay_s * 1e3) + ", \"overlap\": " + json_number(m.overlap) +
                  ", \"pilot_iops\": " + json_number(m.pilot_iops) +
                  ", \"pilot_latency_ms\": " + json_number(m.pilot_latency_ms) +
                  ", \"pilot_window_scale\": " + json_number(m.pilot_window_scale) +
                  ", \"pilot_window_note\": " + json_string(m.window_note) + ", \"warnings\": " + warnings_json(m) +
                  ", \"mva_ms\": " + json_number(r.mva_ms) +
                  ", \"points\": [";
  for (std::size_t i = 0; i < r.curve.size(); ++i) {
    const CurvePoint& p = r.curve[i];
    j += std::string(i ? ", " : "") + "{\"outstanding_per_vmdk\": " + std::to_string(p.outstanding_per_vmdk) +
         ", \"iops\": " + json_number(p.iops) + ", \"latency_ms\": " + json_number(p.latency_ms);
    if (r.checked) j += ", \"sim_iops\": " + json_number(r.sim_iops[i]) + ", \"sim_latency_ms\": " + json_number(r.sim_latency_ms[i]);
    j += "}";
  }
  j += "]";
  if (r.limit_ms > 0) {
    j += ", \"limit_ms\": " + json_number(r.limit_ms) + ", \"knee_iops\": " +
         (r.knee.population > 0 ? json_number(r.knee.iops) : std::string("null")) +   // none meets it
         ", \"knee_ceiling\": " + (r.knee.ceiling ? "true" : "false");
    if (r.checked)
      j += ", \"sim_knee_iops\": " + json_number(r.sim_knee_iops) + ", \"sim_knee_ceiling\": " +
           (r.sim_knee_ceiling ? "true" : "false");
  }
  return j + "}\n";
}

}  // namespace hcisim
