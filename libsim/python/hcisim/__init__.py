"""hcisim: predict the IOPS, throughput and latency of a vSAN cluster.

The Python face of the C++ library (issue 22, item 3). A scenario is a file path, a YAML
string or a dict (the scenario file's keys); ``set`` overrides keys like the CLI's --set,
as a dict ``{"workload.duration_s": 5}`` or a list of ``"key=value"`` strings.

    import hcisim
    r = hcisim.run("examples/scenarios/seed000-nuc11-osa-optane-fio-4k-70r.yaml")
    r["iops"], r["iops_ci95"], r["inputs"], r["warnings"]
    df = hcisim.sweep(None, vary={"workload.outstanding_per_vmdk": [1, 2, 4, 8]})

Bad input raises ValueError (hcisim.InvalidInput) naming the file, key and what is allowed.
The simulation releases the GIL: runs in several Python threads proceed in parallel.
"""

import io
import json
import os

from . import _hcisim

__version__ = _hcisim.version
InvalidInput = _hcisim.InvalidInput

__all__ = ["run", "sweep", "data_dir", "InvalidInput", "__version__"]


def _value(v):
    # A YAML scalar or flow value for --set: strings as given, everything else as JSON
    # (YAML's flow style is a superset of JSON: lists, dicts, numbers, booleans).
    return v if isinstance(v, str) else json.dumps(v)


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
        return "yaml", json.dumps(scenario, ensure_ascii=False, indent=1), "<dict>"
    if isinstance(scenario, os.PathLike):
        path = os.fspath(scenario)
        if not os.path.isfile(path):
            raise InvalidInput(f"scenario file '{path}' does not exist or is not a file")
        return "file", path, path
    if isinstance(scenario, str):
        text = scenario
        if "\n" not in text and os.path.isfile(text):
            return "file", text, text
        if "\n" not in text and text.endswith((".yaml", ".yml")):
            raise InvalidInput(f"scenario file '{text}' does not exist")
        return "yaml", text, "<yaml string>"
    raise TypeError("scenario: expected a file path, a YAML string, a dict or None (the built-in default)")


def run(scenario=None, set=None):
    """Runs one scenario; returns its report as a dict (the CLI's --json, inputs and warnings included)."""
    kind, text, name = _scenario(scenario)
    return json.loads(_hcisim.run(kind, text, name, _sets(set)))


def sweep(scenario=None, vary=None, set=None, jobs=0):
    """Runs a grid: ``vary`` maps keys to lists of values (every combination, the last key
    fastest), all points in parallel (``jobs`` threads, 0: every core). Returns a pandas
    DataFrame with one row per point: a column per varied key, then the report's columns."""
    import pandas as pd

    if not vary or not isinstance(vary, dict):
        raise InvalidInput("sweep: vary is empty; expected {key: [values, ...]}")
    for k, values in vary.items():
        if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
            raise InvalidInput(f"sweep: vary['{k}'] = {values!r}; expected a list of values")
    axes = [(str(k), [_value(v) for v in values]) for k, values in vary.items()]
    kind, text, name = _scenario(scenario)
    header, rows = _hcisim.sweep(kind, text, name, _sets(set), axes, int(jobs))
    return pd.read_csv(io.StringIO(header + "\n" + "\n".join(rows) + "\n"))


def data_dir():
    """The data folder (catalogs, calibration) in use."""
    return _hcisim.data_dir()
