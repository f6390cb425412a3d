"""The Python module: scenarios as files, YAML strings and dicts; results
as dicts with inputs and warnings; grids as DataFrames equal to single runs; bad input as
ValueError; the GIL released while simulating."""

import json
import os
import pathlib
import re
import subprocess
import threading

import pytest

import hcisim

ROOT = pathlib.Path(__file__).resolve().parents[2]
SEED000 = ROOT / "examples" / "scenarios" / "seed000-nuc11-osa-optane-fio-4k-70r.yaml"
SHORT = {"workload.duration_s": 0.1, "workload.warmup_s": 0.05}


def test_default_scenario_result_carries_inputs_and_intervals():
    r = hcisim.run(set=SHORT)
    assert r["iops"] > 50_000
    assert r["inputs"]["architecture"] == "OSA" and r["inputs"]["vsan_release"] == "8.0u3"
    assert r["inputs"]["hosts"] == 4
    assert r["warnings"] == []
    assert r["iops_ci95"]["batches"] >= 8
    assert r["version"] == hcisim.__version__


def test_file_yaml_string_and_dict_give_the_same_result():
    from_file = hcisim.run(SEED000, set=SHORT)
    text = SEED000.read_text()
    from_text = hcisim.run(text, set=SHORT)
    assert from_text["iops"] == from_file["iops"]
    # The same scenario as a dict: the cluster, policy and workload of the file, spelled out.
    as_dict = {
        "name": from_file["scenario"],
        "seed": 1,
        "cluster": {
            "hosts": 4,
            "architecture": "osa",
            "host": {
                "cpu": {"model": "intel-core-i7-11700b"},
                "network": {"nic": "intel-x520-da1", "switch": "ubiquiti-usw-aggregation"},
                "disk_groups": [{"cache": "optane-p4800x-750gb", "capacity": ["lexar-nm620-2tb"]}],
            },
        },
        "policy": {"raid": "raid1", "ftt": 1},
        "data_services": {"dedupe": True, "compression": True},
        "workload": {"hcibench": from_file["job_name"], "vms": 8},
    }
    d = hcisim.run(as_dict, set=SHORT)
    assert d["inputs"]["source"] == "<dict>"
    assert d["inputs"]["layout"] == from_file["inputs"]["layout"]
    assert d["iops"] > 0


def test_the_cli_gives_the_same_json_bit_for_bit():
    cli = ROOT / "build-dev" / "hcisim"
    exe = os.environ.get("HCISIM_CLI", str(cli))
    out = subprocess.run([exe, "run", str(SEED000), "--json", "--quiet", "--set", "workload.duration_s=0.1",
                          "--set", "workload.warmup_s=0.05"], check=True, capture_output=True, text=True).stdout
    a, b = json.loads(out), hcisim.run(SEED000, set=SHORT)
    a.pop("wall_seconds"), b.pop("wall_seconds")
    # The CLI's answers end with the nearest measured rows of data/accuracy.csv; the module's do not.
    assert a.pop("nearest_measured")["text"].startswith("nearest measured: ")
    assert a == b


def test_compare_gives_each_side_as_run_gives_it():
    c = hcisim.compare(None, SEED000, set=SHORT)
    a, b = hcisim.run(set=SHORT), hcisim.run(SEED000, set=SHORT)
    for side, alone in (("a", a), ("b", b)):
        c[side].pop("wall_seconds"), alone.pop("wall_seconds")
        assert c[side] == alone


def test_sweep_is_a_grid_dataframe_equal_to_single_runs():
    df = hcisim.sweep(SEED000, vary={"workload.read_pct": [0, 100], "workload.outstanding_per_vmdk": [1, 2]},
                      set=SHORT, jobs=2)
    assert len(df) == 4
    assert list(df["workload.read_pct"]) == [0, 0, 100, 100]
    assert list(df["workload.outstanding_per_vmdk"]) == [1, 2, 1, 2]
    one = hcisim.run(SEED000, set={**SHORT, "workload.read_pct": 100, "workload.outstanding_per_vmdk": 2})
    assert df["iops"][3] == pytest.approx(one["iops"], rel=1e-9)
    assert "bottleneck" in df.columns and "warnings" in df.columns
    # The p95 over all I/Os (knee --p95-ms's statistic): with one operation, that operation's own.
    for i in range(4):
        own = "pooled_write_p95_ms" if df["workload.read_pct"][i] == 0 else "pooled_read_p95_ms"
        assert df["pooled_p95_ms"][i] == pytest.approx(df[own][i], rel=1e-9)
    assert (df["cpu_busy_cores_mean"] > 0).all() and (df["cpu_cores_mean"] == 8).all()


def test_bad_input_is_a_value_error_naming_the_key():
    with pytest.raises(ValueError, match=r"workload\.read_pct = '150' is not allowed"):
        hcisim.run(set={"workload.read_pct": 150})
    with pytest.raises(ValueError, match="does not exist"):
        hcisim.run("no-such-file.yaml")
    with pytest.raises(ValueError, match="unknown key"):
        hcisim.run({"cluster": {"hosts": 4}, "workload": {"vms": 1}, "typo": 1})
    with pytest.raises(TypeError):
        hcisim.run(42)
    with pytest.raises(hcisim.InvalidInput, match="vary is empty"):
        hcisim.sweep(SEED000, vary={})
    with pytest.raises(hcisim.InvalidInput, match="expected a list of values"):
        hcisim.sweep(SEED000, vary={"workload.read_pct": "70"})
    # A bad point fails before any run, named by its value (each point is read again when it
    # runs: scenario/runner.hpp, run_sweep with a loader): the good point first, one at a time,
    # would take minutes if it ran.
    with pytest.raises(hcisim.InvalidInput, match=r"^workload\.read_pct=150: .*read_pct = '150' is not allowed"):
        hcisim.sweep(SEED000, vary={"workload.read_pct": [50, 150]}, set={"workload.duration_s": 3600}, jobs=1)
    with pytest.raises(hcisim.InvalidInput, match="does not exist"):
        hcisim.run(pathlib.Path("no-such-scenario"))
    # Any character in a dict's strings reaches the scenario as it is.
    r = hcisim.run({"name": "cluster \U0001F680", "cluster": {"hosts": 4, "host": {"cpu": {"cores": 8, "ghz": 3}, "network": {"speed_gbe": 10}, "disk_groups": [
        {"cache": "optane-p4800x-750gb", "capacity": ["lexar-nm620-2tb"]}]}}, "workload": {"vms": 4}},
        set={"workload.duration_s": 0.05, "workload.warmup_s": 0.02})
    assert r["scenario"] == "cluster \U0001F680"


def test_runs_in_threads_release_the_gil():
    # While one thread simulates, another Python thread keeps running (it counts); with the
    # GIL held it could not advance until the run finished.
    ticks = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(1)
            done.wait(0.001)

    t = threading.Thread(target=tick)
    t.start()
    hcisim.run(set={"workload.duration_s": 0.5, "workload.warmup_s": 0.1})
    done.set()
    t.join()
    assert len(ticks) > 5


def _same(a, b):
    # Equal frames, empty cells (no warnings) equal to each other.
    assert list(a.columns) == list(b.columns)
    assert ((a == b) | (a.isna() & b.isna())).all().all()


def test_a_sweep_on_a_two_worker_dask_cluster_equals_the_serial_run():
    import distributed   # python3-distributed (.ci/install-deps): a missing package fails, not skips
    grid = {"workload.read_pct": [0, 100], "workload.outstanding_per_vmdk": [1, 2]}
    serial = hcisim.sweep(SEED000, vary=grid, set=SHORT, jobs=1)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as lc, \
            distributed.Client(lc) as client:
        # Input that is bad when read fails in the client, before any task is sent (first, on a
        # fresh cluster, so that no earlier task can show in the stream).
        with distributed.get_task_stream(client) as tasks:
            with pytest.raises(ValueError, match=r"^workload\.read_pct=150: .*read_pct = '150'"):
                hcisim.sweep(SEED000, vary={"workload.read_pct": [50, 150]}, set=SHORT, client=client)
        assert tasks.data == []
        with distributed.get_task_stream(client) as tasks:
            on_dask = hcisim.sweep(SEED000, vary=grid, set=SHORT, client=client)
        # The four points ran as tasks, on both workers.
        assert len(tasks.data) == 4
        assert len({t["worker"] for t in tasks.data}) == 2
        reps = hcisim.replicate(SEED000, 3, set=SHORT, client=client)
        # A scenario file that is not UTF-8 travels as its bytes, as the serial run reads it.
        latin = pathlib.Path(os.environ.get("TMPDIR", "/tmp")) / f"hcisim-latin1-{os.getpid()}.yaml"
        latin.write_bytes(b"# caf\xe9\n" + SEED000.read_bytes())
        try:
            one = {"workload.read_pct": [0]}
            _same(hcisim.sweep(latin, vary=one, set=SHORT, client=client), hcisim.sweep(latin, vary=one, set=SHORT))
        finally:
            latin.unlink()
        with pytest.raises(ValueError, match="scheduler address"):
            hcisim.sweep(SEED000, vary=grid, set=SHORT, client="Local")
        # A run a worker's point refuses comes back named by its file and point.
        with pytest.raises(ValueError, match=RUN_REFUSED):
            hcisim.sweep(SEED000, vary={"cluster.osa.write_buffer_gb": [0.001]}, set=RUN_REFUSES, client=client)
    _same(serial, on_dask)
    _same(reps, hcisim.replicate(SEED000, 3, set=SHORT, jobs=2))
    assert list(reps["replication"]) == [1, 2, 3]
    assert reps["iops"].nunique() == 3   # independent streams


def test_replications_vary_streams_or_placement():
    streams = hcisim.replicate(None, 2, set=SHORT)
    placement = hcisim.replicate(None, 2, set=SHORT, vary="placement")
    assert list(streams["seed"]) == [1, 1] and list(streams["replication"]) == [1, 2]
    assert list(placement["seed"]) == [1, 2]
    with pytest.raises(ValueError, match="replications"):
        hcisim.replicate(None, 1)
    with pytest.raises(ValueError, match="vary"):
        hcisim.replicate(None, 2, vary="hosts")
    with pytest.raises(ValueError, match="replications"):
        hcisim.replicate(None, 2.5)
    with pytest.raises(ValueError, match="timeline"):
        hcisim.timeline({})


def test_the_latency_split_sums_to_each_ops_latency():
    r = hcisim.run(set=SHORT)
    s = hcisim.latency_split(r)
    assert list(s.index) == ["read", "write"]
    assert list(s.columns) == [
        "guest_queue", "dom_client", "admission", "client_network", "dom_owner", "network", "lsom", "device", "total"]
    assert (s >= 0).all().all()
    assert s.loc["read", "total"] == pytest.approx(r["read_latency_ms"], rel=1e-9)
    assert s.loc["write", "total"] == pytest.approx(r["write_latency_ms"], rel=1e-9)
    with pytest.raises(ValueError, match="latency_split"):
        hcisim.latency_split({})


def test_the_timeline_covers_the_window_and_a_resync_progresses():
    r = hcisim.run(set={**SHORT, "cluster.failed_hosts": "[esx02]", "cluster.resync.active": True})
    t = hcisim.timeline(r)
    assert len(t) == 128
    assert t["end_s"].iloc[-1] == pytest.approx(r["simulated_seconds"])
    assert (t["end_s"].diff().dropna() > 0).all()
    assert t["resync_done_gb"].is_monotonic_increasing and t["resync_done_gb"].iloc[-1] > 0
    assert t["resync_done_gb"].iloc[-1] == pytest.approx(r["resync"]["done_bytes"] / 1e9)
    # The batches count every completion in the window: the HCIBench count (I/Os issued in
    # it) plus the closed loop's slots, all in flight when it began.
    width = t["end_s"].diff().fillna(t["end_s"].iloc[0] - r["run_length"]["warmup_s"])
    completed = (t["iops"] * width).sum()
    assert completed == pytest.approx(r["simulated_ios"] + r["configured_outstanding_io"], abs=1e-6)


def test_ctrl_c_stops_a_long_run_a_sweep_and_an_accuracy_table():
    # SIGINT a quarter second into runs planned for ten simulated minutes: they stop at their
    # next progress report with KeyboardInterrupt, as Ctrl-C in a notebook or shell would.
    import signal
    import time

    long = {"workload.duration_s": 600, "workload.warmup_s": 1}
    calls = [lambda: hcisim.run(set=long),
             lambda: hcisim.sweep(None, vary={"workload.vms": [4, 8, 12]}, set=long, jobs=2),
             lambda: hcisim.accuracy(seeds=["000"], set=long)]
    for call in calls:
        timer = threading.Timer(0.25, lambda: os.kill(os.getpid(), signal.SIGINT))
        timer.start()
        start = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            call()
        timer.join()
        assert time.monotonic() - start < 30
    # The module works on after an interrupted call.
    assert hcisim.run(set=SHORT)["iops"] > 0


def test_paths_numpy_values_and_wrong_types_are_named():
    with pytest.raises(hcisim.InvalidInput, match="scenario file '/nonexistent/scenario' does not exist"):
        hcisim.run("/nonexistent/scenario")
    with pytest.raises(hcisim.InvalidInput, match="is a directory"):
        hcisim.run(str(SEED000.parent))
    import numpy as np
    r = hcisim.run(None, set={**SHORT, "workload.vms": np.int64(2)})
    assert r["vms"] == 2
    with pytest.raises(hcisim.InvalidInput, match="latency_split: expected a result"):
        hcisim.latency_split({"latency_split": 5})
    with pytest.raises(TypeError, match="check = 'no'"):
        hcisim.curve(None, check="no")


def test_keys_lists_every_key_with_its_range_and_assumptions():
    every = hcisim.keys()
    assert set(every["file"]) == {"scenario", "requirements", "prices"}
    net = hcisim.keys("cluster.host.network")
    rx = net[net["path"] == "cluster.host.network.rx_queues"].iloc[0]
    assert (rx["min"], rx["max"], rx["default"]) == (0, 64, "4")
    assert rx["assumed_min"] <= 4 <= rx["assumed_max"] and rx["assumed_why"]
    assert (net["path"].str.startswith("cluster.host.network")).all()
    with pytest.raises(hcisim.InvalidInput, match="no key starts with"):
        hcisim.keys("no.such.key")


def test_capacity_answers_at_once_under_both_rules():
    c = hcisim.capacity()
    assert c["capacity_reserve"] == "slack" and c["hosts_up"] == 4
    r = hcisim.capacity(set={"cluster.capacity_reserve": "reserved", "data_services.reduction_ratio": 1.5})
    assert r["reduction_ratio"] == 1.5 and r["reduction_from"] == "planner"
    assert r["reserve_gb"] == pytest.approx(r["operations_reserve_gb"] + r["host_rebuild_reserve_gb"])
    assert r["usable_gb_slack"] == pytest.approx(
        (c["raw_gb"] - c["metadata_gb"] - c["reserve_gb"]) * 1.5 / c["policy_factor"])
    down = hcisim.capacity(set={"cluster.failed_hosts": ["esx02"]})
    assert down["hosts_up"] == 3 and down["raw_gb"] == pytest.approx(c["raw_gb"] * 3 / 4)
    # The same line as a run's report, which simulates.
    run = hcisim.run(set=SHORT)
    assert run["capacity"]["usable_gb"] == pytest.approx(c["usable_gb"])
    with pytest.raises(ValueError, match="reduction_ratio"):
        hcisim.capacity(set={"data_services.reduction_ratio": 0.5})


def test_knee_finds_the_highest_iops_under_a_latency_target():
    k = hcisim.knee(p95_ms=5, set=SHORT)
    assert k["found"] and not k["ceiling"] and k["latency_ms"] <= 5
    assert 0 < k["knee_iops"] < k["closed_loop_iops"]
    assert any(p["pass"] for p in k["probes"]) and any(not p["pass"] for p in k["probes"])
    for bad in ({}, {"p95_ms": 2, "mean_ms": 1}, {"p99_ms": -1}, {"p95_ms": "2"}):
        with pytest.raises(ValueError, match="knee"):
            hcisim.knee(**bad)


def test_cost_from_catalog_prices_and_a_price_file():
    prices = os.path.join(ROOT, "examples", "prices", "illustrative-2023.yaml")
    seed001 = os.path.join(ROOT, "examples", "scenarios", "seed001-vxrail-esa-raid6-100gbe-oltp32k.yaml")
    partial = hcisim.capacity(seed001)["cost"]
    # Seed 001's write-up prices its network only: 12 ports at about $3,554.
    assert partial["total_usd"] is None and partial["network_usd"] == pytest.approx(12 * 3554, abs=12)
    assert "cpu intel-xeon-gold-6338" in partial["missing"]
    full = hcisim.capacity(seed001, prices=prices)["cost"]
    assert full["missing"] == [] and full["total_usd"] == pytest.approx(
        full["hosts_usd"] + full["network_usd"] + full["licences_usd"])
    run = hcisim.run(set=SHORT, prices=prices)
    assert run["cost"]["per_iops_usd"] == pytest.approx(run["cost"]["total_usd"] / run["iops"])
    df = hcisim.sweep(vary={"workload.vms": [4, 8]}, set=SHORT, prices=prices, jobs=2)
    assert list(df.cost_usd) == [run["cost"]["total_usd"]] * 2
    with pytest.raises(ValueError, match="currency"):
        bad = os.path.join(ROOT, "examples", "scenarios", "seed001-vxrail-esa-raid6-100gbe-oltp32k.yaml")
        hcisim.capacity(prices=bad)
    with pytest.raises(ValueError, match="does not exist"):
        hcisim.run(set=SHORT, prices="/nonexistent-prices.yaml")


def test_size_answers_with_simulated_designs():
    r = hcisim.size(ROOT / "examples" / "sizing" / "oltp-300k-p95-2ms.yaml", jobs=2)
    assert r["demand_iops"] == 300000 and r["answers"]
    best = r["answers"][0]
    assert best["pass"] and best["simulated"] and best["achieved_iops"] >= 0.97 * 300000
    assert best["knee_iops"] > 300000 and best["cost_usd"] > 0
    assert all(f["cost_usd"] <= r["answers"][-1]["cost_usd"] and not f["pass"] for f in r["cheaper_failures"])
    with pytest.raises(ValueError, match="does not exist"):
        hcisim.size("/nonexistent-requirements.yaml")
    # Pruning by the analytic path, or every candidate simulated: the same answer.
    small = ROOT / "tests" / "cli" / "size-small.yaml"
    pruned, plain = hcisim.size(small, jobs=2), hcisim.size(small, jobs=2, prune=False)
    assert pruned["piloted"] >= 1 and plain["piloted"] == 0
    assert [a["hosts"] for a in pruned["answers"]] == [a["hosts"] for a in plain["answers"]]
    with pytest.raises(ValueError, match="prune"):
        hcisim.size(small, prune="no")


def test_curve_is_the_analytic_path_with_the_simulator_beside_it():
    c = hcisim.curve(set=SHORT, mean_ms=2, check=True, jobs=2)
    assert c["stations"] > 3 and len(c["points"]) >= 5
    first = c["points"][0]
    assert first["outstanding_per_vmdk"] == 1 and first["sim_iops"] > 0
    # Little's law on every analytic point: population = IOPS x latency.
    for p in c["points"]:
        assert p["iops"] * p["latency_ms"] / 1e3 == pytest.approx(p["outstanding_per_vmdk"] * 64, rel=1e-9)
    assert c["knee_iops"] > 0 and c["sim_knee_iops"] > 0
    with pytest.raises(ValueError, match="mean_ms"):
        hcisim.curve(mean_ms=-1)


# A write larger than the whole OSA write buffer is refused when its run starts, not when the
# point is read: such a failure names the scenario file and the point.
RUN_REFUSES = {**SHORT, "workload.block_size": "1m", "workload.vscsi": "lsilogic"}
RUN_REFUSED = rf"^{re.escape(str(SEED000))}: cluster\.osa\.write_buffer_gb=0\.001: workload block_size = 1048576 bytes"


def test_a_sweep_point_its_run_refuses_is_named_by_file_and_point():
    with pytest.raises(hcisim.InvalidInput, match=RUN_REFUSED):
        hcisim.sweep(SEED000, vary={"cluster.osa.write_buffer_gb": [600, 0.001]}, set=RUN_REFUSES, jobs=1)
    with pytest.raises(hcisim.InvalidInput, match=RUN_REFUSED):
        hcisim.sweep(SEED000, vary={"cluster.osa.write_buffer_gb": [0.001, 600]}, set=RUN_REFUSES, range_seeds=2)


def test_a_range_leaves_out_latencies_of_windows_without_io():
    r = hcisim.run(set={"workload.duration_s": 1e-6, "workload.warmup_s": 0}, range_seeds=2)
    read = r["range"]["answers"]["read_latency_ms"]
    assert read["found"] == 0 and read["value"] is None and read["each"] == [None, None]
    assert r["range"]["answers"]["iops"]["each"] == [0, 0]
    assert any("no I/O issued in the measured window completed in it on 2 of 2 seeds" in w for w in r["warnings"])


def test_every_answer_can_carry_its_range():
    # run, knee and sweep with range_seeds: N seeds plus the calibration's standard errors.
    r = hcisim.run(set=SHORT, range_seeds=3, jobs=2)
    iops = r["range"]["answers"]["iops"]
    assert r["range"]["seeds"] == 3 and len(iops["each"]) == 3
    assert iops["low"] <= min(iops["each"]) <= max(iops["each"]) <= iops["high"]
    assert set(iops["effects"]) == set(r["range"]["parameters"]) == {"guest_cpu_us", "vsan_cpu_scale", "cpu_per_kib_scale",
                                                                         "congestion_delay_a_us", "lsom_cost_factor"}
    # What the range covers and what not, named and in words.
    assert [(p["part"], p["text"]) for p in r["range"]["covers"]] == [
        ("seeds", "placement and run noise (3 seeds)"),
        ("calibration", "calibration (5 fitted parameters, +-1 se, correlated)")]
    assert [p["part"] for p in r["range"]["not_covered"]] == ["assumptions", "mechanisms"]
    # The same document as the CLI's run --range --json.
    cli = os.environ.get("HCISIM_CLI")
    if cli:
        sets = [a for k, v in SHORT.items() for a in ("--set", f"{k}={v}")]
        out = subprocess.run([cli, "run", "--range", "--replications", "3", "--json", "--quiet", *sets],
                             check=True, capture_output=True, text=True).stdout
        cli_r = json.loads(out)
        assert cli_r.pop("nearest_measured")["verdict"] in ("close", "a guide", "direction only", "unvalidated")
        assert cli_r == r
    k = hcisim.knee(set=SHORT, mean_ms=2, range_seeds=2)
    assert k["target"] == {"stat": "mean", "limit_ms": 2}
    assert k["range"]["answers"]["knee_iops"]["value"] > 0
    df = hcisim.sweep(SEED000, vary={"workload.outstanding_per_vmdk": [1, 2]}, set=SHORT, range_seeds=2)
    assert list(df["workload.outstanding_per_vmdk"]) == [1, 2]   # as the plain sweep reads them
    assert list(df["range_seeds"]) == [2, 2] and list(df["iops_found"]) == [2, 2]
    assert (df["iops_low"] <= df["iops"]).all() and (df["iops"] <= df["iops_high"]).all()
    assert "pooled_p99_ms_calibration_sd" in df.columns
    assert list(df.columns[-3:]) == ["warnings", "range_covers", "range_not_covered"]
    assert list(df["range_not_covered"]) == ["assumed values (see --sensitivity); mechanisms the model lacks "
                                             "(see hcisim accuracy)"] * 2
    with pytest.raises(hcisim.InvalidInput, match=r"^workload\.read_pct=150: .*read_pct = '150'"):
        hcisim.sweep(SEED000, vary={"workload.read_pct": [50, 150]}, set=SHORT, range_seeds=2)
    for bad in (1, 101, 2.5, True):
        with pytest.raises(hcisim.InvalidInput, match="range_seeds"):
            hcisim.run(set=SHORT, range_seeds=bad)
    with pytest.raises(hcisim.InvalidInput, match="jobs"):
        hcisim.run(set=SHORT, jobs="lots")
    prices = os.path.join(ROOT, "examples", "prices", "illustrative-2023.yaml")
    with pytest.raises(hcisim.InvalidInput, match="range_seeds and prices"):
        hcisim.knee(set=SHORT, mean_ms=2, range_seeds=2, prices=prices)
    with pytest.raises(hcisim.InvalidInput, match="vary\\['seed'\\] and range_seeds"):
        hcisim.sweep(SEED000, vary={"seed": [1, 2]}, set=SHORT, range_seeds=2)
    with pytest.raises(hcisim.InvalidInput, match="client=None"):
        hcisim.sweep(SEED000, vary={"seed": [1, 2]}, set=SHORT, range_seeds=2, client="local")


def test_curve_and_size_ranges():
    c = hcisim.curve(set=SHORT, mean_ms=2, range_seeds=2)
    assert c["range"]["answers"]["knee_iops"]["value"] > 0
    assert "iops@1" in c["range"]["answers"]
    with pytest.raises(hcisim.InvalidInput, match="check and range_seeds"):
        hcisim.curve(set=SHORT, check=True, range_seeds=2)
    with pytest.raises(hcisim.InvalidInput, match="range_seeds"):
        hcisim.size(ROOT / "examples" / "sizing" / "oltp-300k-p95-2ms.yaml", range_seeds=0)


SENS_SHORT = {"workload.duration_s": 0.2, "workload.warmup_s": 0.05}


def test_a_sensitivity_is_the_clis_and_its_tornado_a_frame_and_a_chart(tmp_path):
    # run(sensitivity=True): the report with its sensitivity block, as the CLI's run
    # --sensitivity --json; tornado() its rows by swing; the CLI's --out chart one bar a row.
    r = hcisim.run(set=SENS_SHORT, sensitivity=True, jobs=2)
    sens = r["sensitivity"]
    assert r["iops"] > 0 and sens["headline"] == "iops" and len(sens["rows"]) >= 5
    df = hcisim.tornado(r)
    assert list(df.columns) == ["name", "kind", "low", "high", "unit", "answer_low", "answer_high", "swing",
                                "swing_pct", "within_noise", "bottleneck_low", "bottleneck_high",
                                "appears_or_disappears"]
    assert list(df["name"]) == [row["name"] for row in sens["rows"]]   # the CLI's order
    assert len(df) == len(sens["rows"]) and set(df["name"]) == {row["name"] for row in sens["rows"]}
    swings = df["swing"].dropna().tolist()
    assert swings == sorted(swings, reverse=True) and swings[0] > 0
    top = next(row for row in sens["rows"] if row["name"] == df["name"][0])
    assert (df["answer_low"][0], df["answer_high"][0]) == (top["at_low"]["iops"], top["at_high"]["iops"])
    assert df["swing"][0] == abs(df["answer_high"][0] - df["answer_low"][0])
    assert df.attrs["headline"] == "iops" and df.attrs["base"] == sens["base"]["iops"]
    assert hcisim.tornado(sens).equals(df)   # the block alone works too
    cli = os.environ.get("HCISIM_CLI")
    if not cli:
        return
    svg = tmp_path / "tornado.svg"
    sets = [a for k, v in SENS_SHORT.items() for a in ("--set", f"{k}={v}")]
    out = subprocess.run([cli, "run", "--sensitivity", "--json", "--quiet", "--jobs", "2", "--out", str(svg), *sets],
                         check=True, capture_output=True, text=True).stdout
    from_cli = json.loads(out)
    # The same but for the wall times, which are not deterministic.
    from_cli["sensitivity"]["wall_s"] = sens["wall_s"]
    from_cli["wall_seconds"] = r["wall_seconds"]
    from_cli.pop("nearest_measured", None)   # where the CLI's answers name the nearest measured rows
    assert from_cli == r
    # The chart parses as XML; one bar per assumption, in the tornado's order, then the pair.
    import xml.etree.ElementTree as ET
    rects = [e for e in ET.parse(svg).getroot().iter("{http://www.w3.org/2000/svg}rect")
             if (e.get("class") or "").startswith("bar")]
    assert len(rects) == len(df) + (1 if sens["worst_pair"] else 0)
    assert [e.get("data-label").split(" (")[0] for e in rects[:len(df)]] == list(df["name"])
    assert rects[-1].get("class") == "bar combined"
    drawn = [float(e.get("data-swing")) for e in rects[:len(df)] if e.get("data-swing") != "nan"]
    assert drawn == sorted(drawn, reverse=True)


def test_a_range_with_its_assumptions_is_the_clis():
    # run and knee take range_seeds and sensitivity together, as the CLI's --range --sensitivity:
    # the range, the study, and the headline's range widened by the assumptions.
    r = hcisim.run(set=SENS_SHORT, range_seeds=2, sensitivity=True, jobs=2)
    assert {"range", "sensitivity", "with_assumptions"} <= set(r)
    assert r["with_assumptions"]["answer"] == "iops" and r["sensitivity"]["headline"] == "iops"
    assert r["with_assumptions"]["low"] <= r["range"]["answers"]["iops"]["low"]
    assert r["with_assumptions"]["high"] >= r["range"]["answers"]["iops"]["high"]
    k = hcisim.knee(set=SENS_SHORT, mean_ms=2, range_seeds=2, sensitivity=True, jobs=2)
    assert k["with_assumptions"]["answer"] == "knee_iops" and "knee_iops" in k["range"]["answers"]
    cli = os.environ.get("HCISIM_CLI")
    if not cli:
        return
    sets = [a for key, v in SENS_SHORT.items() for a in ("--set", f"{key}={v}")]
    out = subprocess.run([cli, "run", "--range", "--replications", "2", "--sensitivity", "--json", "--quiet",
                          "--jobs", "2", *sets], check=True, capture_output=True, text=True).stdout
    from_cli = json.loads(out)
    from_cli.pop("nearest_measured", None)
    from_cli["sensitivity"]["wall_s"] = r["sensitivity"]["wall_s"]   # wall times are not deterministic
    assert from_cli == r
    out = subprocess.run([cli, "knee", "--mean-ms", "2", "--range", "--replications", "2", "--sensitivity", "--json",
                          "--quiet", "--jobs", "2", *sets], check=True, capture_output=True, text=True).stdout
    from_cli = json.loads(out)
    from_cli.pop("nearest_measured", None)
    from_cli["sensitivity"]["wall_s"] = k["sensitivity"]["wall_s"]
    assert from_cli == k


def test_every_answer_can_carry_its_sensitivity():
    k = hcisim.knee(set=SENS_SHORT, mean_ms=2, sensitivity=True, jobs=2)
    assert k["sensitivity"]["headline"] == "knee_iops" and "knee_iops" in k
    c = hcisim.curve(set=SENS_SHORT, mean_ms=2, sensitivity=True)
    assert c["sensitivity"]["names"] == ["knee_iops", "ceiling_iops"] and c["points"]
    z = hcisim.size(ROOT / "tests" / "cli" / "size-small.yaml", sensitivity=True, jobs=2)
    assert z["sensitivity"]["headline"] == "margin_pct" and z["answers"]
    # compare: B - A's IOPS, each assumption applied to both sides.
    ab = hcisim.compare(SEED000, ROOT / "examples" / "scenarios" / "seed000-nuc11-osa-optane-fio-256k-seqwrite.yaml",
                        set=SENS_SHORT, sensitivity=True, jobs=2)
    assert {"a", "b", "sensitivity"} <= set(ab) and ab["sensitivity"]["names"][0] == "iops_b_minus_a"
    assert hcisim.tornado(ab)["answer_low"].notna().any()
    # sweep: a row per point with its top assumption, the CLI's sweep --sensitivity columns.
    df = hcisim.sweep(SEED000, vary={"workload.outstanding_per_vmdk": [1, 2]}, set=SENS_SHORT, sensitivity=True)
    assert list(df.columns) == ["workload.outstanding_per_vmdk", "scenario", "iops", "pooled_latency_ms", "bottleneck",
                                "sensitivity_runs", "sensitivity_noise_iops", "top_assumption", "top_kind", "top_low",
                                "top_high", "top_iops_at_low", "top_iops_at_high", "top_swing_iops", "top_swing_pct",
                                "top_within_noise"]
    assert (df["top_swing_iops"] > 0).all()
    # Refused: a range with it where the CLI refuses the pair (curve), a knee-less curve, a
    # non-bool, a result without a study.
    with pytest.raises(hcisim.InvalidInput, match="range_seeds and sensitivity: give one"):
        hcisim.curve(set=SENS_SHORT, mean_ms=2, range_seeds=2, sensitivity=True)
    with pytest.raises(hcisim.InvalidInput, match="give mean_ms"):
        hcisim.curve(set=SENS_SHORT, sensitivity=True)
    with pytest.raises(TypeError, match="sensitivity = 'yes'"):
        hcisim.knee(mean_ms=2, sensitivity="yes")
    with pytest.raises(hcisim.InvalidInput, match="sensitivity=True"):
        hcisim.tornado(hcisim.run(set=SHORT))
    with pytest.raises(hcisim.InvalidInput, match="client=None"):
        hcisim.sweep(SEED000, vary={"workload.vms": [1]}, sensitivity=True, client="local")


def test_without_pandas_the_dataframe_functions_say_how_to_install_it():
    # pandas hidden (None in sys.modules makes its import fail): the module imports, a run
    # returns its dict, and each function that returns a DataFrame names pandas and its package.
    import sys
    code = """
import sys
sys.modules["pandas"] = None
import hcisim
assert hcisim.run(None, set={"workload.duration_s": 0.05, "workload.warmup_s": 0.01})["iops"] > 0
# sensitivity=True returns its dict without pandas; only tornado() needs it.
assert hcisim.curve(None, set={"workload.duration_s": 0.05, "workload.warmup_s": 0.01}, mean_ms=2,
                    sensitivity=True)["sensitivity"]["rows"]
for call, who in ((lambda: hcisim.sweep(None, vary={"workload.vms": [1]}), "sweep()"),
                  (lambda: hcisim.replicate(None, 2), "replicate()"),
                  (lambda: hcisim.timeline({"timeline": []}), "timeline()"),
                  (lambda: hcisim.tornado({"sensitivity": {"rows": [], "headline": "iops"}}), "tornado()"),
                  (lambda: hcisim.keys(), "keys()")):
    try:
        call()
    except ImportError as e:
        assert str(e).startswith("pandas is required for " + who), str(e)
        assert "install python3-pandas" in str(e), str(e)
    else:
        raise AssertionError(who + " ran without pandas")
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env=dict(os.environ))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_more_threads_than_the_address_space_holds_do_not_kill_the_interpreter():
    # jobs=256 over 100 seeds in 600 MB of address space: no more threads start than the machine
    # has hardware threads (100 stacks of 8 MB would not fit, and a thread that did start could
    # leave too little room for the libraries' thread-local storage, which glibc answers with
    # abort). Then with room for no thread stack at all (4 MB above what the interpreter holds,
    # with 8 MB stacks): every thread start is refused, and the runs go on, on the calling thread.
    import resource
    import sys
    if len(os.sched_getaffinity(0)) > 32:
        pytest.skip("600 MB holds the stacks of about 70 threads; this machine may start more")
    code = """
import resource, sys, threading
def limit(kib):
    resource.setrlimit(resource.RLIMIT_AS, (kib * 1024, kib * 1024))
def held_kib():
    return next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmSize:"))
short = {"workload.duration_s": 0.001, "workload.warmup_s": 0}
if sys.argv[1] == "capped":
    limit(600000)
    import hcisim
    print("seeds", hcisim.run(None, range_seeds=100, jobs=256, set=short)["range"]["seeds"])
else:
    import hcisim
    limit(held_kib() + 4096)
    try:
        threading.Thread(target=lambda: None).start()
        print("a thread started")
        sys.exit(0)
    except RuntimeError:
        pass
    print("seeds", hcisim.run(None, range_seeds=20, jobs=256, set=short)["range"]["seeds"])
"""
    stack = 8 << 20
    _, hard = resource.getrlimit(resource.RLIMIT_STACK)
    if hard != resource.RLIM_INFINITY and hard < stack:
        pytest.skip("the stack limit cannot be raised to 8 MB")

    def eight_mb_stacks():   # glibc sizes thread stacks by RLIMIT_STACK at start-up
        resource.setrlimit(resource.RLIMIT_STACK, (stack, hard))

    for case, seeds in (("capped", 100), ("refused", 20)):
        done = subprocess.run([sys.executable, "-c", code, case], capture_output=True, text=True, timeout=120,
                              env=dict(os.environ), preexec_fn=eight_mb_stacks)
        assert done.returncode == 0, (case, done.stderr)
        assert done.stdout.strip() == f"seeds {seeds}", (case, done.stdout)


def test_bad_values_refused_before_stay_refused():
    # Bad input that earlier hardening made raise InvalidInput naming the key, kept so:
    # NaN, booleans, huge integers and empty values as --set values, a setting without '=',
    # a knee target that is no latency, and a grid too large to run, all before any run.
    for value, said in ((float("nan"), "'NaN' is not allowed"), (True, "'true' is not allowed"),
                        (10 ** 30, "'1000000000000000000000000000000' is not allowed"), (None, "is empty")):
        with pytest.raises(hcisim.InvalidInput, match=r"workload\.vms[ =].*" + said.replace("(", r"\(")):
            hcisim.run(None, set={"workload.vms": value})
    with pytest.raises(hcisim.InvalidInput, match="expected key.path=value"):
        hcisim.run(None, set=["workload.vms"])
    with pytest.raises(hcisim.InvalidInput, match=r"knee: p95_ms = nan; expected a latency in ms"):
        hcisim.knee(None, p95_ms=float("nan"))
    with pytest.raises(hcisim.InvalidInput, match="more than 100,000 points"):
        hcisim.sweep(None, vary={"workload.vms": list(range(1, 1001)), "workload.read_pct": list(range(0, 101))})
