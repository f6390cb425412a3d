// hcisim accuracy and calibrate: the model against data/measurements.csv (cli.hpp).
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "hcisim/calib/accuracy.hpp"
#include "cli.hpp"

namespace hcisim::cli {

namespace {

// Options of the runs `accuracy` and `calibrate` make: the scenarios of data/measurements.csv,
// `first` overrides and then the user's --set ones (later ones win), --jobs and --seeds.
AccuracyOptions measurement_runs(const Args& a, const std::vector<std::string>& first = {}) {
  AccuracyOptions o;
  o.repo_dir = default_data_dir() + "/..";
  o.overrides = first;
  o.overrides.insert(o.overrides.end(), a.sets.begin(), a.sets.end());
  o.jobs = a.jobs;
  o.only_seeds = a.seeds;
  return o;
}

// The command that wrote a table, for its header.
std::string accuracy_command(const Args& a) {
  std::string c = "hcisim accuracy --write";
  if (a.cv) c += " --cv";
  if (a.loss == FitLoss::huber) c += " --loss huber";
  if (a.starts != 1) c += " --starts " + std::to_string(a.starts);
  if (a.replications != 1) c += " --replications " + std::to_string(a.replications);
  for (const auto& s : a.sets) c += " --set " + s;
  return c;
}

// accuracy --check and --markdown: the committed table; --check also runs the model's
// fingerprint (about a second).
int cmd_accuracy_table(const Args& a, const HardwareCatalog& cat) {
  const std::string data = default_data_dir();
  const std::string path = data + "/accuracy.csv";
  if (a.markdown) {
    std::fputs(format_class_markdown(class_summary(read_accuracy_table(path).rows)).c_str(), stdout);
    return 0;
  }
  const std::string fingerprint = model_fingerprint(data, data + "/..", cat);
  const std::string stale = accuracy_table_stale(path, data, data + "/..", fingerprint);
  if (stale.empty()) {
    std::printf("%s is current (inputs hash %s, model %s, model fingerprint %s)\n", path.c_str(),
                accuracy_inputs_hash(data, data + "/..").c_str(), model_version().c_str(), fingerprint.c_str());
    return 0;
  }
  std::fprintf(stderr, "hcisim: %s\n", stale.c_str());
  return 1;
}

// --write: the table's rows. Without --cv, leave-one-seed-out rows of a table written from the
// same inputs are kept; otherwise one row marks them not measured with this model version.
void write_accuracy_table(const Args& a, const HardwareCatalog& cat, std::vector<AccuracyTableRow> rows, bool cv_rows) {
  const std::string data = default_data_dir();
  const std::string path = a.out_given ? a.out : data + "/accuracy.csv";
  AccuracyTable t;
  t.model_version = model_version();
  t.inputs_hash = accuracy_inputs_hash(data, data + "/..");
  t.fingerprint = model_fingerprint(data, data + "/..", cat);
  t.command = accuracy_command(a);
  if (!cv_rows)
    for (AccuracyTableRow& r : cv_rows_to_keep(path, t.inputs_hash)) rows.push_back(std::move(r)), cv_rows = true;
  if (!cv_rows) rows.push_back(cv_not_measured_row());
  t.rows = std::move(rows);
  write_file(path, accuracy_table_text(t), "--out");
  std::printf("\nwrote %s (inputs hash %s, model %s)\n", path.c_str(), t.inputs_hash.c_str(), t.model_version.c_str());
}

}  // namespace

int cmd_accuracy(const Args& a, const HardwareCatalog& cat) {
  if (!a.files.empty()) usage_error("accuracy takes no file (it reads data/measurements.csv)");
  if (a.check || a.markdown) {
    const char* which = a.check ? "accuracy --check" : "accuracy --markdown";
    if (!a.sets.empty() || a.replications_given || a.cv || !a.seeds.empty() || a.all)
      usage_error(std::string(which) + " reads the committed table and runs nothing: drop --set, --replications, --cv, "
                  "--seeds and --all (they are for accuracy and accuracy --write)");
    return cmd_accuracy_table(a, cat);
  }
  if (a.write && !a.seeds.empty()) usage_error("accuracy --write scores every seed: drop --seeds");
  // The inputs hash covers the files, not a --set: a committed table scored with one would read as current.
  if (a.write && !a.sets.empty() && !a.out_given)
    usage_error("accuracy --write --set: data/accuracy.csv scores the inputs as committed and --check cannot see a "
                "--set; drop --set, or give --out FILE for a table of your own");
  const auto measurements = load_measurements(default_data_dir() + "/measurements.csv");
  AccuracyOptions o = measurement_runs(a);
  o.replications = a.replications;
  Progress p(!a.quiet);
  const AccuracyReport report = evaluate(measurements, cat, o, p.fraction_fn());
  p.done();
  std::vector<AccuracyTableRow> rows = table_rows(report, cat, o.repo_dir);
  AccuracyReport cv;
  if (a.cv) {
    FitOptions f;
    f.loss = a.loss;
    f.starts = a.starts;
    f.accuracy = measurement_runs(a, kFitRunOverrides);
    if (a.seeds.empty()) f.accuracy.only_seeds = kInSampleSeeds;   // seeds 001 and 002 stay out of sample
    cv = cross_validate(measurements, cat, f, a.sets, [&](const std::string& line) {
      if (!a.quiet) std::fprintf(stderr, "%s\n", line.c_str());
    });
    for (AccuracyTableRow& r : table_rows(cv, cat, o.repo_dir, kSampleCv)) rows.push_back(std::move(r));
  }
  std::vector<AccuracyTableRow> shown = rows;
  if (!a.cv) shown.push_back(cv_not_measured_row());
  std::printf("by class:\n%s\n", format_class_table(class_summary(shown)).c_str());
  std::fputs(format_accuracy(report, a.all).c_str(), stdout);
  std::printf("\n%s", cat.calibration().format_table().c_str());
  if (a.cv)
    std::printf("\nleave-one-seed-out (each seed predicted by a calibration fitted on the others):\n%s",
                format_accuracy(cv, a.all).c_str());
  if (a.write) write_accuracy_table(a, cat, std::move(rows), a.cv);
  return 0;
}

int cmd_calibrate(const Args& a, const HardwareCatalog& cat) {
  if (!a.files.empty()) usage_error("calibrate takes no file (it reads data/measurements.csv)");
  const std::string data = default_data_dir();
  const auto measurements = load_measurements(data + "/measurements.csv");
  FitOptions o;
  if (!a.params.empty()) o.parameters = a.params;
  o.max_iterations = a.iterations;
  o.loss = a.loss;
  o.starts = a.starts;
  o.accuracy = measurement_runs(a, kFitRunOverrides);
  // --replications N fits the mean over placement seeds 1..N, the prediction `accuracy
  // --replications N` scores (one placement can put a run on or off a congestion cliff).
  o.accuracy.replications = a.replications;
  // Seeds 001 (the only ESA cluster) and 002 (the only USB bridge) each alone inform one
  // parameter, which is set from its source instead; they stay out of sample.
  if (a.seeds.empty()) o.accuracy.only_seeds = kInSampleSeeds;
  const FitResult f = fit(measurements, cat, o, [&](const std::string& line) {
    if (!a.quiet) std::fprintf(stderr, "%s\n", line.c_str());
  });
  std::printf("before:\n%s\nafter:\n%s\n", format_accuracy(f.before, false).c_str(), format_accuracy(f.after, false).c_str());
  if (o.max_iterations == 0)
    std::printf("evaluated %d rows with %zu parameters at their starting values (--iterations 0: no step tried): "
                "rms log error %.4f (%d runs of all scenarios)\n\n",
                f.rows, o.parameters.size(), f.rms_after, f.evaluations);
  else if (f.steps == 0 && f.best_start == 0)
    std::printf("fitted %d rows with %zu parameters: rms log error %.4f; no trial step lowered it, so the starting "
                "values stay (a local optimum within the ranges; %d runs of all scenarios)\n\n",
                f.rows, o.parameters.size(), f.rms_after, f.evaluations);
  else
    std::printf("fitted %d rows with %zu parameters: rms log error %.4f -> %.4f (%d steps, %d runs of all scenarios)\n\n",
                f.rows, o.parameters.size(), f.rms_before, f.rms_after, f.steps, f.evaluations);
  if (f.starts.size() > 1) {
    // Each start's first pass: where it began and ended, and its loss (the one all share).
    std::printf("starts (first pass; the fit went on from start %zu):\n%-6s %10s %8s %6s", f.best_start + 1, "start",
                "loss", "rms", "steps");
    for (const auto& name : o.parameters) std::printf(" %24s", name.c_str());
    std::printf("\n");
    for (std::size_t s = 0; s < f.starts.size(); ++s) {
      const StartResult& st = f.starts[s];
      if (st.failed) {
        std::printf("%-6zu %10s %8s %6s  skipped: a run failed from this start\n", s + 1, "-", "-", "-");
        continue;
      }
      // "+": the pass stopped at --iterations, not because no step lowered the cost.
      std::printf("%-6zu %10.5f %8.4f %5d%s", s + 1, st.loss, st.rms, st.steps, st.converged ? " " : "+");
      for (std::size_t j = 0; j < st.end.size(); ++j) {
        char cell[64];
        std::snprintf(cell, sizeof cell, "%.4g -> %.4g", st.start[j], st.end[j]);
        std::printf(" %24s", cell);
      }
      std::printf("\n");
    }
    std::printf("(steps+: the pass stopped at --iterations %d, not converged)\n\n", o.max_iterations);
  }
  std::printf("%-24s %12s %12s %12s %21s\n", "parameter", "default", "fitted", "stderr", "range");
  Calibration out = f.calibration;
  for (auto& p : out.parameters()) {
    const bool fitted = std::find(o.parameters.begin(), o.parameters.end(), p.name) != o.parameters.end();
    std::printf("%-24s %12.5g %12.5g %12.5g %10.4g..%-10.4g%s\n", p.name.c_str(), p.default_value, p.fitted,
                p.stderr_value, p.min, p.max,
                fitted && p.at_bound() ? "  AT ITS BOUND: a mechanism the data need is missing" : "");
    for (const auto& name : o.parameters)
      if (name == p.name) {
        // The command that made the fit, so the file says how to repeat it.
        std::string command = "hcisim calibrate";
        if (a.loss == FitLoss::huber) command += " --loss huber";
        if (a.starts != 1) command += " --starts " + std::to_string(a.starts);
        if (a.replications != 1) command += " --replications " + std::to_string(a.replications);
        for (const auto& s : a.sets) command += " --set " + s;
        std::string seeds;
        for (const auto& s : a.seeds.empty() ? kInSampleSeeds : a.seeds) seeds += (seeds.empty() ? "" : ", ") + s;
        char buf[160];
        std::snprintf(buf, sizeof buf, "%d rows of seeds ", f.rows);
        char err[64];
        std::snprintf(err, sizeof err, "; rms log error %.3f -> %.3f", f.rms_before, f.rms_after);
        p.provenance = "fitted by " + command + " on " + buf + seeds + " (data/measurements.csv)" + err;
      }
  }
  const std::string path = a.out_given ? a.out : data + "/calibration.yaml";
  write_file(path, out.to_yaml(), "--out");
  std::printf("\nwrote %s\n", path.c_str());
  return 0;
}

}  // namespace hcisim::cli
