"""hcisim: predict the IOPS, throughput and latency of a vSAN cluster.

The Python face of the C++ library. A scenario is a file path, a YAML
string or a dict (the scenario file's keys); ``set`` overrides keys like the CLI's --set,
as a dict ``{"workload.duration_s": 5}`` or a list of ``"key=value"`` strings.

    import hcisim
    r = hcisim.run("examples/scenarios/seed000-nuc11-osa-optane-fio-4k-70r.yaml")
    r["iops"], r["iops_ci95"], r["inputs"], r["warnings"]
    df = hcisim.sweep(None, vary={"workload.outstanding_per_vmdk": [1, 2, 4, 8]})

Grids and replications run on this machine's cores by default, or as tasks on a Dask
distributed cluster with ``client=``: a ``distributed.Client``, a scheduler address
("tcp://scheduler:8786") or "local" (a LocalCluster on this machine). Every point is the
same computation either way, so the results are identical.

Bad input raises ValueError (hcisim.InvalidInput) naming the file, key and what is allowed.
The simulation releases the GIL: runs in several Python threads proceed in parallel; Ctrl-C
stops run, sweep, replicate, accuracy and knee (KeyboardInterrupt) at the runs' next batch.
"""

import io
import json
import numbers
import os

from . import _hcisim

__version__ = _hcisim.version
InvalidInput = _hcisim.InvalidInput


def _pandas(who):
    """pandas, which the functions that return a DataFrame need (run, compare, capacity, knee,
    size and curve return dicts and do not); its absence is said with the install step."""
    try:
        import pandas
    except ImportError as e:
        raise ImportError(f"pandas is required for {who} (it returns a pandas DataFrame): install python3-pandas "
                          f"(Debian, Ubuntu) or 'pip install pandas'; run(), knee(), size() and the other "
                          f"functions that return a dict work without it") from e
    return pandas

__all__ = ["run", "compare", "sweep", "replicate", "timeline", "accuracy", "capacity", "knee", "size", "curve",
           "tornado", "keys", "data_dir", "InvalidInput", "__version__"]


def _plain(v):
    # numpy's scalars and arrays (an int64 from a DataFrame) as Python's own numbers and lists.
    if isinstance(v, bool) or v is None or isinstance(v, (str, int, float)):
        return v
    if isinstance(v, numbers.Integral):
        return int(v)
    if isinstance(v, numbers.Real):
        return float(v)
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)) or hasattr(v, "tolist"):
        return [_plain(x) for x in (v.tolist() if hasattr(v, "tolist") else v)]
    return v


def _value(v):
    # A YAML scalar or flow value for --set: strings as given, everything else as JSON
    # (YAML's flow style is a superset of JSON: lists, dicts, numbers, booleans).
    if isinstance(v, str):
        return v
    try:
        return json.dumps(_plain(v))
    except TypeError:
        raise TypeError(f"set: a value of type {type(v).__name__} ({v!r}); expected a number, string, list or dict")


def _sets(set_):
    if set_ is None:
        return []
    if isinstance(set_, dict):
        return [f"{k}={_value(v)}" for k, v in set_.items()]
    if isinstance(set_, (list, tuple)):
        return [str(s) for s in set_]
    raise TypeError("set: expected a dict {key: value} or a list of 'key=value' strings")


def _scenario(scenario):
    if scenario is None:
        return "default", "", ""
    if isinstance(scenario, dict):
        # JSON is YAML's flow style: one key per line (errors name the line), any character.
        return "yaml", json.dumps(_plain(scenario), ensure_ascii=False, indent=1), "<dict>"
    if isinstance(scenario, os.PathLike):
        path = os.fspath(scenario)
        if not os.path.isfile(path):
            raise InvalidInput(f"scenario file '{path}' does not exist or is not a file")
        return "file", path, path
    if isinstance(scenario, str):
        text = scenario
        if "\n" not in text and os.path.isfile(text):
            return "file", text, text
        if "\n" not in text and os.path.isdir(text):
            raise InvalidInput(f"scenario file '{text}' is a directory")
        if "\n" not in text and (text.endswith((".yaml", ".yml")) or (os.sep in text and ":" not in text)):
            raise InvalidInput(f"scenario file '{text}' does not exist")
        return "yaml", text, "<yaml string>"
    raise TypeError("scenario: expected a file path, a YAML string, a dict or None (the built-in default)")


def _prices(prices):
    # A price file (the CLI's --prices) as (text, name); its text travels, so Dask workers
    # need not have the file.
    if prices is None:
        return "", ""
    if isinstance(prices, (str, os.PathLike)):
        path = os.fspath(prices)
        if not os.path.isfile(path):
            raise InvalidInput(f"price file '{path}' does not exist or is not a file")
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        if not text.strip():
            raise InvalidInput(f"price file '{path}' is empty; expected currency: USD and prices")
        return text, path
    raise TypeError("prices: expected the path of a price file or None")


def _range_seeds(who, range_seeds, prices=None):
    if isinstance(range_seeds, bool) or not isinstance(range_seeds, numbers.Integral) or not 2 <= range_seeds <= 100:
        raise InvalidInput(f"{who}: range_seeds = {range_seeds!r}; expected an integer 2..100 (the seeds of the "
                           "range) or None (one run, no range)")
    if prices is not None:
        raise InvalidInput(f"{who}: range_seeds and prices: a range carries no cost; call without range_seeds for it")
    return int(range_seeds)


def _sensitivity(who, sensitivity, range_seeds=None, with_range=False):
    """Whether to run the assumption sensitivity (the CLI's --sensitivity); with a range only
    where the CLI takes both (``with_range``: run and knee)."""
    if not isinstance(sensitivity, bool):
        raise TypeError(f"{who}: sensitivity = {sensitivity!r}; expected True or False")
    if sensitivity and range_seeds is not None and not with_range:
        raise InvalidInput(f"{who}: range_seeds and sensitivity: give one (together on run and knee only, the "
                           "range with the tornado beside it)")
    return sensitivity


def run(scenario=None, set=None, prices=None, range_seeds=None, jobs=0, sensitivity=False):
    """Runs one scenario; returns its report as a dict (the CLI's --json, inputs and warnings
    included). ``prices``: a price file laid over the catalogs' prices (the report's ``cost``).

    With ``range_seeds`` N (2..100), returns instead the headline answers with their ranges (the
    CLI's ``run --range --json``): ``r["range"]["answers"]["iops"]`` has value (the mean over
    N seeds), low and high (a 95 % interval for one cluster: placement and run-to-run noise
    plus the calibration's standard errors), seed_sd, calibration_sd, each seed's value and
    each fitted parameter's effect; ``r["range"]["covers"]`` and ``["not_covered"]`` list what the
    range covers and what not (``part``: "seeds", "calibration", "assumptions", "mechanisms";
    ``text``). ``jobs``: runs in parallel (0: every core).

    With ``sensitivity=True``, the report gets a ``sensitivity`` block (the CLI's ``run
    --sensitivity --json``): each assumption (calibration parameters, keys the file leaves at an
    assumed default, the file's ``assumed:`` block) at the low and the high end of its range on
    the scenario's own seed, rows sorted by the IOPS swing, the worst pair of the top three;
    ``hcisim.tornado(r)`` makes it a DataFrame.

    Both together (the CLI's ``run --range --sensitivity --json``): the range's document with the
    ``sensitivity`` block and ``with_assumptions``, the headline's range widened by the
    assumptions the range does not already move."""
    _jobs("run", jobs)
    kind, text, name = _scenario(scenario)
    both = _sensitivity("run", sensitivity, range_seeds, with_range=True)
    if range_seeds is not None:
        n = _range_seeds("run", range_seeds, prices)
        return json.loads(_hcisim.ranged(kind, text, name, _sets(set), "run", "", 0.0, n, int(jobs), both))
    if sensitivity:
        return json.loads(_hcisim.sensitivity(kind, text, name, _sets(set), "run", "", 0.0, int(jobs), *_prices(prices)))
    return json.loads(_hcisim.run(kind, text, name, _sets(set), *_prices(prices)))


def _jobs(who, jobs):
    if isinstance(jobs, bool) or not isinstance(jobs, numbers.Integral) or not 0 <= jobs <= 256:
        raise InvalidInput(f"{who}: jobs = {jobs!r}; expected an integer 0..256")


def _grid(vary):
    if not vary or not isinstance(vary, dict):
        raise InvalidInput("sweep: vary is empty; expected {key: [values, ...]}")
    axes = []
    for k, values in vary.items():
        if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
            raise InvalidInput(f"sweep: vary['{k}'] = {values!r}; expected a list of values")
        values = [_value(v) for v in values]
        if not values:
            raise InvalidInput(f"sweep: vary['{k}'] is an empty list; expected at least one value")
        axes.append((str(k), values))
    return axes


def _points(axes):
    # Every combination, the last key fastest: the order of the C++ runner (sweep_points).
    points = [[]]
    for key, values in axes:
        points = [p + [(key, v)] for p in points for v in values]
    return points


def _sweep_point(kind, text, name, sets, point, prices=("", "")):
    # One grid point as a task: the native sweep over single-valued axes gives the same
    # header and row as the same point of the whole grid.
    from . import _hcisim as native
    header, rows = native.sweep(kind, text, name, sets, [(k, [v]) for k, v in point], 1, *prices)
    return header, rows[0]


def _dask_client(client, points):
    from distributed import Client, LocalCluster

    if isinstance(client, Client):
        return client, False
    if client == "local":
        # One single-threaded worker process per core (no more than there are points): a run
        # holds its core for its length.
        workers = max(1, min(os.cpu_count() or 1, points))
        return Client(LocalCluster(n_workers=workers, threads_per_worker=1, dashboard_address=":0")), True
    if isinstance(client, str):
        if "://" not in client and ":" not in client:
            raise InvalidInput(f"client = {client!r}; expected 'local' or a scheduler address such as "
                               "'tcp://scheduler:8786'")
        return Client(client), True
    raise TypeError("client: expected a distributed.Client, a scheduler address or 'local'")


def _rows(kind, text, name, sets, axes, jobs, client, prices=("", "")):
    if client is None:
        return _hcisim.sweep(kind, text, name, sets, axes, int(jobs), *prices)
    if kind == "file":
        # Workers on other machines need not have the file: send its bytes as they are, named
        # by its path (what load_scenario does with it).
        with open(text, "rb") as f:
            kind, text = "yaml", f.read()
    # Every point is read here first (one catalog load), so input that is bad when read fails
    # before any task is sent; what only a run finds comes back from its worker.
    points = _points(axes)
    _hcisim.check(kind, text, name, sets, [[f"{k}={v}" for k, v in p] for p in points], *prices)
    c, owned = _dask_client(client, len(points))
    try:
        futures = [c.submit(_sweep_point, kind, text, name, sets, p, prices, pure=False) for p in points]
        results = c.gather(futures)
    finally:
        if owned:
            cluster = getattr(c, "cluster", None)
            c.close()
            if cluster is not None:
                cluster.close()
    headers = {h for h, _ in results}
    if len(headers) != 1:
        raise RuntimeError("the workers run another hcisim version: their CSV headers differ")
    return headers.pop(), [row for _, row in results]


def compare(a, b, set=None, prices=None, sensitivity=False, jobs=0):
    """Two scenarios side by side (the CLI's ``hcisim compare A B --json``): simulates both and
    returns ``{"a": <A's report>, "b": <B's report>}``, each as ``run`` returns it. ``a`` and
    ``b`` are scenarios as ``run`` takes them (None: the built-in default); ``set`` and
    ``prices`` apply to both. With ``sensitivity=True``, a ``sensitivity`` block too (the CLI's
    ``compare --sensitivity --json``): the tornado of B - A's IOPS (``iops_b_minus_a``) over the
    assumptions of both files, each moved on the sides it applies to (not where a file states
    the key), ``jobs`` runs at once (0: every core)."""
    kind_a, text_a, name_a = _scenario(a)
    kind_b, text_b, name_b = _scenario(b)
    if _sensitivity("compare", sensitivity):
        _jobs("compare", jobs)
        return json.loads(_hcisim.compare_sensitivity(kind_a, text_a, name_a, kind_b, text_b, name_b, _sets(set),
                                                      int(jobs), *_prices(prices)))
    return json.loads(_hcisim.compare(kind_a, text_a, name_a, kind_b, text_b, name_b, _sets(set), *_prices(prices)))


def capacity(scenario=None, set=None, prices=None):
    """The scenario's capacity line at once, without simulating (the CLI's ``hcisim capacity
    --json``): raw, metadata, the reserve under the scenario's rule (``cluster.capacity_reserve``:
    "slack" or "reserved") and its parts, the policy and reduction factors, usable GB, and
    ``usable_gb_<other rule>`` beside it. Failed hosts' devices are left out. ``cost``: the
    cluster's cost and cost per usable TB, from the catalogs' prices and ``prices`` (a price file)."""
    kind, text, name = _scenario(scenario)
    return json.loads(_hcisim.capacity(kind, text, name, _sets(set), *_prices(prices)))


def knee(scenario=None, mean_ms=None, p95_ms=None, p99_ms=None, set=None, jobs=0, prices=None, range_seeds=None,
         sensitivity=False):
    """The highest IOPS whose mean, p95 or p99 latency (all I/Os; give exactly one target, in
    ms) stays at or under the target (the CLI's ``hcisim knee --json``): offered load is
    bisected to 1 % with the workload's outstanding I/O as the cap. Returns a dict: knee_iops,
    latency_ms, bottleneck, found, ceiling (the closed loop itself meets the target), the
    closed loop's IOPS and latency, every probe, and ``cost`` (per IOPS at the knee; ``prices``
    as for run()). With ``range_seeds`` N, the knee on N seeds with its range instead (the CLI's
    ``knee --range --json``; ``r["range"]["answers"]["knee_iops"]``, as for run()). With
    ``sensitivity=True``, the knee's ``sensitivity`` block (``knee --sensitivity --json``; each
    assumption at both ends, as for run()); with both, the range with them (``knee --range
    --sensitivity --json``, as for run())."""
    targets = [(k, v) for k, v in (("mean", mean_ms), ("p95", p95_ms), ("p99", p99_ms)) if v is not None]
    if len(targets) != 1:
        raise InvalidInput("knee: give exactly one of mean_ms, p95_ms, p99_ms")
    stat, limit = targets[0]
    if isinstance(limit, bool) or not isinstance(limit, numbers.Real) or not 0 < limit <= 1e6:
        raise InvalidInput(f"knee: {stat}_ms = {limit!r}; expected a latency in ms, > 0 and at most 1e6")
    _jobs("knee", jobs)
    kind, text, name = _scenario(scenario)
    both = _sensitivity("knee", sensitivity, range_seeds, with_range=True)
    if range_seeds is not None:
        n = _range_seeds("knee", range_seeds, prices)
        return json.loads(_hcisim.ranged(kind, text, name, _sets(set), "knee", stat, float(limit), n, int(jobs),
                                         both))
    if sensitivity:
        return json.loads(_hcisim.sensitivity(kind, text, name, _sets(set), "knee", stat, float(limit), int(jobs),
                                              *_prices(prices)))
    return json.loads(_hcisim.knee(kind, text, name, _sets(set), stat, float(limit), int(jobs), *_prices(prices)))


def curve(scenario=None, set=None, mean_ms=None, check=False, jobs=0, range_seeds=None, sensitivity=False):
    """The analytic fast path (the CLI's ``hcisim curve --json``): the IOPS-latency curve by
    mean-value analysis over the simulator's resources, demands from one pilot run. Returns a
    dict: ``points`` (outstanding_per_vmdk, iops, latency_ms, and with ``check`` the simulator's
    sim_iops and sim_latency_ms at the same points), the model's stations, delay and pilot, and
    with ``mean_ms`` the analytic knee (``knee_iops``; checked: ``sim_knee_iops``). With
    ``range_seeds`` N, every point ("iops@<outstanding per VMDK>", "latency_ms@...") and the knee
    with their ranges over N pilots instead (the CLI's ``curve --range --json``). With
    ``sensitivity=True`` (and ``mean_ms``), the analytic knee's ``sensitivity`` block (``curve
    --mean-ms X --sensitivity --json``: one pilot per end)."""
    if not isinstance(check, bool):
        raise TypeError(f"curve: check = {check!r}; expected True or False")
    limit = 0.0
    if mean_ms is not None:
        if isinstance(mean_ms, bool) or not isinstance(mean_ms, numbers.Real) or not 0 < mean_ms <= 1e6:
            raise InvalidInput(f"curve: mean_ms = {mean_ms!r}; expected a latency in ms, > 0 and at most 1e6")
        limit = float(mean_ms)
    if isinstance(jobs, bool) or not isinstance(jobs, numbers.Integral) or not 0 <= jobs <= 256:
        raise InvalidInput(f"curve: jobs = {jobs!r}; expected an integer 0..256")
    if _sensitivity("curve", sensitivity, range_seeds):
        if mean_ms is None:
            raise InvalidInput("curve: sensitivity studies the curve's knee: give mean_ms")
        if check:
            raise InvalidInput("curve: check and sensitivity: give one (check simulates one scenario's points)")
        kind, text, name = _scenario(scenario)
        return json.loads(_hcisim.sensitivity(kind, text, name, _sets(set), "curve", "", limit, int(jobs)))
    n = 0
    if range_seeds is not None:
        n = _range_seeds("curve", range_seeds)
        if check:
            raise InvalidInput("curve: check and range_seeds: give one (check simulates one seed's points)")
    kind, text, name = _scenario(scenario)
    return json.loads(_hcisim.curve(kind, text, name, _sets(set), bool(check), limit, int(jobs), n))


def size(requirements, jobs=0, prices=None, range_seeds=None, prune=True, sensitivity=False):
    """Inverse sizing (the CLI's ``hcisim size FILE --json``): the cheapest designs of the
    requirements file's candidates that meet its demand, each simulated at the demand with its
    hosts down, with cost, capacity and knee, and every cheaper candidate with why it fails.
    Returns a dict (answers, cheaper_failures, ...); ``prices`` is laid over the file's. With
    ``range_seeds`` N, each answer carries ``range``: achieved_iops and latency_ms at the demand
    and knee_iops over N seeds with the calibration's errors (the CLI's ``size --range``).
    With ``prune`` (the default) the analytic path fails a design whose ceiling is far short
    of the demand without its run (``pruned`` in its entry); False simulates every one in
    turn (the CLI's ``--no-prune``). With ``sensitivity=True``, a ``sensitivity`` block: the
    tornado of the cheapest design's latency margin at the demand (``size --sensitivity
    --json``; None when no design meets it)."""
    if not isinstance(requirements, (str, os.PathLike)):
        raise TypeError("requirements: expected the path of a requirements file")
    path = os.fspath(requirements)
    if not os.path.isfile(path):
        raise InvalidInput(f"requirements file '{path}' does not exist or is not a file")
    if isinstance(jobs, bool) or not isinstance(jobs, numbers.Integral) or not 0 <= jobs <= 256:
        raise InvalidInput(f"size: jobs = {jobs!r}; expected an integer 0..256")
    if not isinstance(prune, bool):
        raise InvalidInput(f"size: prune = {prune!r}; expected True or False")
    studied = _sensitivity("size", sensitivity, range_seeds)
    n = 0 if range_seeds is None else _range_seeds("size", range_seeds)   # the answers keep their cost
    return json.loads(_hcisim.size(path, int(jobs), *_prices(prices), n, prune, studied))


def _range_row(r):
    # A point's columns of sweep --range: the range's answers with their parts.
    row = {"scenario": r["scenario"], "range_seeds": r["range"]["seeds"], "range_first_seed": r["range"]["first_seed"]}
    for answer, a in r["range"]["answers"].items():
        row[answer] = a["value"]
        for part in ("low", "high", "seed_sd", "calibration_sd", "found"):
            row[f"{answer}_{part}"] = a[part]
    row["warnings"] = " | ".join(r["warnings"])
    for part in ("covers", "not_covered"):
        row[f"range_{part}"] = "; ".join(p["text"] for p in r["range"][part])
    return row


def _sensitivity_row(r):
    # A point's columns of sweep --sensitivity: the base answers, then the top assumption.
    s = r["sensitivity"]
    row = {"scenario": r["scenario"], "iops": s["base"]["iops"], "pooled_latency_ms": s["base"]["pooled_latency_ms"],
           "bottleneck": s["base_bottleneck"], "sensitivity_runs": s["runs"], "sensitivity_noise_iops": s["noise"]}
    top = s["rows"][0] if s["rows"] else None
    row.update({"top_assumption": top and top["name"], "top_kind": top and top["kind"],
                "top_low": top and top["low"], "top_high": top and top["high"],
                "top_iops_at_low": top and top["at_low"]["iops"], "top_iops_at_high": top and top["at_high"]["iops"],
                "top_swing_iops": top and top["swing"], "top_swing_pct": top and top["swing_pct"],
                "top_within_noise": top and top["within_noise"]})
    return row


def _sweep_studied(pd, kind, text, name, set_, axes, study, columns):
    # sweep with range_seeds or sensitivity: the points one after another on this machine,
    # `study(sets)` each point's JSON, `columns(r)` its row after the varied keys.
    # Every point is read first, so bad input fails before any run.
    points = _points(axes)
    _hcisim.check(kind, text, name, _sets(set_), [[f"{k}={v}" for k, v in p] for p in points])
    rows = []
    source = text if kind == "file" else name if kind == "yaml" else "<built-in default>"
    for point in points:
        settings = [f"{k}={v}" for k, v in point]
        try:
            r = json.loads(study(_sets(set_) + settings))
        except InvalidInput as e:
            # What only a run finds (bad input is read above) is named by the file and the point.
            said = str(e)
            raise InvalidInput(f"{source}: {', '.join(settings)}: "
                               f"{said[len(source) + 2:] if said.startswith(source + ': ') else said}") from None
        row = {k: v for k, v in point}
        row.update(columns(r))
        rows.append(row)
    # The same columns and types as the CLI's CSV (the varied keys as pandas reads them).
    buf = io.StringIO()
    pd.DataFrame(rows).to_csv(buf, index=False)
    return pd.read_csv(io.StringIO(buf.getvalue()))


def sweep(scenario=None, vary=None, set=None, jobs=0, client=None, prices=None, range_seeds=None, sensitivity=False):
    """Runs a grid: ``vary`` maps keys to lists of values (every combination, the last key
    fastest). The points run in parallel on this machine (``jobs`` threads, 0: every core)
    or, given ``client``, as tasks on a Dask cluster (a ``distributed.Client``, a scheduler
    address, or "local" for a LocalCluster); the results are the same. Returns a pandas
    DataFrame with one row per point: a column per varied key, then the report's columns
    (cost_usd, cost_per_iops_usd and cost_per_usable_tb_usd from ``prices``, as for run()).

    With ``range_seeds`` N, each point's headline answers with their ranges instead (the CLI's
    ``sweep --range``): per answer the columns <name>, <name>_low, <name>_high, <name>_seed_sd
    and <name>_calibration_sd, as for run(range_seeds=N), then ``warnings`` (seeds whose window
    completed no I/O, whose latencies are left out of <name>_found), ``range_covers`` and
    ``range_not_covered`` (what the range covers and not, as the JSON's ``covers`` and
    ``not_covered``). With ``sensitivity=True``, each point's sensitivity instead (the CLI's
    ``sweep --sensitivity``): scenario, iops, pooled_latency_ms, bottleneck, sensitivity_runs,
    sensitivity_noise_iops, then the top assumption's top_assumption, top_kind, top_low,
    top_high, top_iops_at_low, top_iops_at_high, top_swing_iops, top_swing_pct and
    top_within_noise (run(sensitivity=True) on one point gives its whole tornado). Either way
    a point whose run fails is named by its file and settings, and the points run one after
    another on this machine, each point's runs in parallel."""
    pd = _pandas("sweep()")

    axes = _grid(vary)
    kind, text, name = _scenario(scenario)
    if _sensitivity("sweep", sensitivity, range_seeds):
        if client is not None:
            raise InvalidInput("sweep: sensitivity runs on this machine's cores; give client=None with it")
        _jobs("sweep", jobs)
        return _sweep_studied(pd, kind, text, name, set, axes,
                              lambda sets: _hcisim.sensitivity(kind, text, name, sets, "run", "", 0.0, int(jobs),
                                                               *_prices(prices)),
                              _sensitivity_row)
    if range_seeds is not None:
        n = _range_seeds("sweep", range_seeds, prices)
        if client is not None:
            raise InvalidInput("sweep: range_seeds runs on this machine's cores; give client=None with it")
        if any(k == "seed" for k, _ in axes):
            raise InvalidInput("sweep: vary['seed'] and range_seeds both set the seed; give one")
        _jobs("sweep", jobs)
        return _sweep_studied(pd, kind, text, name, set, axes,
                              lambda sets: _hcisim.ranged(kind, text, name, sets, "run", "", 0.0, n, int(jobs)),
                              _range_row)
    header, rows = _rows(kind, text, name, _sets(set), axes, jobs, client, _prices(prices))
    return pd.read_csv(io.StringIO(header + "\n" + "\n".join(rows) + "\n"))


def replicate(scenario=None, replications=10, set=None, vary="streams", jobs=0, client=None, prices=None):
    """Runs ``replications`` independent copies of one scenario: with vary="streams" the
    random streams change and the placement stays (key ``replication`` 1..N: run-to-run
    noise); with vary="placement" the seed changes too (key ``seed`` 1..N). Returns the
    sweep's DataFrame, one row per replication; ``df.iops.mean()`` and its spread are the
    replicated answer. ``jobs`` and ``client`` as for sweep()."""
    if isinstance(replications, bool) or not isinstance(replications, numbers.Integral) \
            or not 2 <= replications <= 1000:
        raise InvalidInput(f"replicate: replications = {replications!r}; expected an integer 2..1000")
    keys = {"streams": "replication", "placement": "seed"}
    if vary not in keys:
        raise InvalidInput(f"replicate: vary = {vary!r}; expected 'streams' or 'placement'")
    _pandas("replicate()")
    return sweep(scenario, {keys[vary]: list(range(1, int(replications) + 1))}, set=set, jobs=jobs, client=client,
                 prices=prices)


def timeline(result):
    """A run's timeline (``run(...)["timeline"]``: one row per batch of the measured window,
    with IOPS, mean latency and resync progress) as a pandas DataFrame."""
    pd = _pandas("timeline()")

    if not isinstance(result, dict) or "timeline" not in result:
        raise InvalidInput("timeline: expected a result of hcisim.run() (a dict with a 'timeline')")
    return pd.DataFrame(result["timeline"])


def tornado(result):
    """The tornado of a result with ``sensitivity=True`` (run, knee, compare, size, curve: the
    dict they return, or its ``sensitivity`` block) as a pandas DataFrame, one row per
    assumption in the CLI's order: those whose answer appears or disappears across the range
    first, by name (a knee found at one end only: the largest effect there is), then the largest
    swing first (rows without a swing last): name, kind, low and high (the ends it was moved
    to) and unit, answer_low and answer_high (the headline answer, ``df.attrs["headline"]``, at
    each end), swing (their difference, absolute) and swing_pct (of the base answer),
    within_noise, bottleneck_low, bottleneck_high and appears_or_disappears.
    ``df.attrs`` also holds ``base`` (the headline's base value), ``noise`` and ``worst_pair``
    (the block's, or None). It covers each assumption moved alone over its range; not
    mechanisms the model lacks (hcisim.accuracy())."""
    pd = _pandas("tornado()")

    block = result.get("sensitivity", result) if isinstance(result, dict) else None
    if not isinstance(block, dict) or "rows" not in block or "headline" not in block:
        raise InvalidInput("tornado: expected a result of run(), knee(), compare(), size() or curve() with "
                           "sensitivity=True (a dict with a 'sensitivity' block), or that block; "
                           f"got {type(result).__name__}{' without a sensitivity block' if isinstance(result, dict) else ''}")
    headline = block["headline"]
    nan = float("nan")

    def number(v):
        return nan if v is None else v

    rows = [{"name": r["name"], "kind": r["kind"], "low": number(r["low"]), "high": number(r["high"]),
             "unit": r["unit"], "answer_low": number(r["at_low"].get(headline)),
             "answer_high": number(r["at_high"].get(headline)), "swing": number(r["swing"]),
             "swing_pct": number(r["swing_pct"]), "within_noise": r["within_noise"],
             "bottleneck_low": r["bottleneck_low"], "bottleneck_high": r["bottleneck_high"],
             "appears_or_disappears": bool(r.get("appears_or_disappears", False))} for r in block["rows"]]
    columns = ["name", "kind", "low", "high", "unit", "answer_low", "answer_high", "swing", "swing_pct", "within_noise",
               "bottleneck_low", "bottleneck_high", "appears_or_disappears"]
    df = pd.DataFrame(rows, columns=columns)   # the block's order: the CLI's tornado's
    df.attrs["headline"] = headline
    df.attrs["base"] = number(block["base"].get(headline))
    df.attrs["noise"] = number(block["noise"])
    df.attrs["worst_pair"] = block["worst_pair"]
    return df


def latency_split(result):
    """Where a run's time went (``run(...)["latency_split"]``) as a pandas DataFrame: one row
    per op (read, write), one column per part in ms (guest_queue, dom_client, admission,
    client_network, dom_owner, network, lsom, device: the layers of vSAN's I/O diagnostics,
    ``result["latency_layers"]`` names their counters) and their sum, the op's mean latency by
    HCIBench's rule (the run's read_latency_ms, write_latency_ms)."""
    pd = _pandas("latency_split()")

    if not isinstance(result, dict) or not isinstance(result.get("latency_split"), dict):
        raise InvalidInput("latency_split: expected a result of hcisim.run() (a dict with a 'latency_split')")
    frame = pd.DataFrame(result["latency_split"]).T
    frame.columns = [c[:-3] if c.endswith("_ms") else c for c in frame.columns]
    frame["total"] = frame.sum(axis=1)
    return frame


def accuracy(seeds=None, set=None, replications=1, jobs=0):
    """Measured against predicted for every row of data/measurements.csv (the CLI's
    ``hcisim accuracy``), as a pandas DataFrame: one row per measurement with its class
    ("iops/throughput", "mean latency", "other", "ratio", or "not predicted"), the prediction,
    the error in % (ratios: in points) and, for rows the model cannot predict, the reason (their
    prediction and error are NaN). ``seeds`` keeps seed files by prefix (["000", "003"]; None:
    all); ``set`` overrides keys of every scenario (e.g. shorter runs); ``replications`` N >= 2
    predicts each row as the mean over seeds 1..N."""
    pd = _pandas("accuracy()")

    if seeds is not None and (isinstance(seeds, str) or not hasattr(seeds, "__iter__")):
        raise TypeError("seeds: expected a list of seed-file prefixes, e.g. ['000', '003']")
    if seeds is not None:
        seeds = [str(s) for s in seeds]   # once: an iterator is used up by reading it
        if not seeds:
            raise InvalidInput("accuracy: seeds = []; expected seed-file prefixes such as ['000'], or None for all")
    for name, v, lo, hi in (("replications", replications, 1, 100), ("jobs", jobs, 0, 256)):
        if isinstance(v, bool) or not isinstance(v, numbers.Integral) or not lo <= v <= hi:
            raise InvalidInput(f"accuracy: {name} = {v!r}; expected an integer {lo}..{hi}")
    rows = _hcisim.accuracy(_sets(set), [str(s) for s in (seeds or [])], int(replications), int(jobs))
    df = pd.DataFrame(rows, columns=_hcisim.accuracy_columns)
    unpredicted = df["class"] == "not predicted"
    for col in ("predicted", "error_pct", "predicted_min", "predicted_max"):
        df[col] = df[col].where(~unpredicted)
    return df


def keys(prefix=""):
    """Every key of scenario, requirements and price files (the CLI's ``hcisim keys``), or those
    whose path starts with ``prefix`` (e.g. "cluster.host.network", or "requirements"), as a
    pandas DataFrame: file, path, type, unit, default, min, max (NaN: no bound), allowed,
    description, the assumed range of a value that stands in for unstated hardware
    (assumed_min, assumed_max, assumed_why), replaced_by for a retired key, and the C++ field."""
    pd = _pandas("keys()")

    if not isinstance(prefix, str):
        raise TypeError("keys: prefix is a key path's start, e.g. 'cluster.host.network'")
    rows = _hcisim.keys(prefix)
    if not rows:
        raise InvalidInput(f"keys: no key starts with {prefix!r}; try cluster, workload, policy, requirements or prices")
    return pd.DataFrame(rows)


def data_dir():
    """The data folder (catalogs, calibration) in use."""
    return _hcisim.data_dir()
