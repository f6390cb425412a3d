"""The Python module (issue 22, item 3): scenarios as files, YAML strings and dicts; results
as dicts with inputs and warnings; grids as DataFrames equal to single runs; bad input as
ValueError; the GIL released while simulating."""

import json
import os
import pathlib
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
    assert r["inputs"]["architecture"] == "OSA"
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
    assert a == b


def test_sweep_is_a_grid_dataframe_equal_to_single_runs():
    df = hcisim.sweep(SEED000, vary={"workload.read_pct": [0, 100], "workload.outstanding_per_vmdk": [1, 2]},
                      set=SHORT, jobs=2)
    assert len(df) == 4
    assert list(df["workload.read_pct"]) == [0, 0, 100, 100]
    assert list(df["workload.outstanding_per_vmdk"]) == [1, 2, 1, 2]
    one = hcisim.run(SEED000, set={**SHORT, "workload.read_pct": 100, "workload.outstanding_per_vmdk": 2})
    assert df["iops"][3] == pytest.approx(one["iops"], rel=1e-9)
    assert "bottleneck" in df.columns and "warnings" in df.columns


def test_bad_input_is_a_value_error_naming_the_key():
    with pytest.raises(ValueError, match=r"workload\.read_pct = 150 is not allowed"):
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
