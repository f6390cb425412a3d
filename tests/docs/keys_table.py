#!/usr/bin/env python3
"""docs/reference.md's "Every key" tables and `hcisim keys`: one declaration, two views.

keys_table.py HCISIM REFERENCE_MD         checks the tables are exactly the key table's rows
keys_table.py HCISIM REFERENCE_MD --write rewrites the tables from `hcisim keys --csv`
"""
import csv
import io
import re
import subprocess
import sys

BEGIN, END = "<!-- keys:begin (tests/docs/keys_table.py --write) -->", "<!-- keys:end -->"
TITLES = {"scenario": "Scenario files", "requirements": "Requirements files (`hcisim size`)",
          "prices": "Price files (`--prices`)"}


def keys(hcisim):
    out = subprocess.run([hcisim, "keys", "--csv"], check=True, capture_output=True, text=True).stdout
    return list(csv.DictReader(io.StringIO(out)))


def cell(text):
    return text.replace("|", "\\|")


def render(rows):
    lines = [BEGIN]
    for file, title in TITLES.items():
        lines += ["", f"### {title}", "",
                  "| key | type, unit | default | allowed | what it sets |", "|---|---|---|---|---|"]
        for k in (r for r in rows if r["file"] == file):
            if k["replaced_by"]:
                lines.append(f"| `{k['path']}` | retired | | | use {cell(k['replaced_by'])} |")
                continue
            rng = k["allowed"] or (f"{k['min']} .. {k['max']}" if k["min"] and k["max"] else
                                   f"at least {k['min']}" if k["min"] else f"at most {k['max']}" if k["max"] else "")
            what = k["description"]
            if k["assumed_why"]:
                span = f" {k['assumed_min']} .. {k['assumed_max']}" if k["assumed_min"] else ""
                what += f". **Assumed**{span}: {k['assumed_why']}"
            unit = f", {k['unit']}" if k["unit"] else ""
            lines.append(f"| `{k['path']}` | {k['type']}{unit} | {cell(k['default'])} | {cell(rng)} | {cell(what)} |")
    lines += ["", END]
    return "\n".join(lines)


def documented(text):
    """(file, path) of every row between the markers."""
    body = text[text.index(BEGIN):text.index(END)]
    found, file = [], None
    for line in body.splitlines():
        for f, title in TITLES.items():
            if line == f"### {title}":
                file = f
        m = re.match(r"\| `([^`]+)` \|", line)
        if m:
            found.append((file, m.group(1)))
    return found


def main():
    hcisim, reference = sys.argv[1], sys.argv[2]
    rows = keys(hcisim)
    text = open(reference, encoding="utf-8").read()
    if "--write" in sys.argv[3:]:
        start, end = text.index(BEGIN), text.index(END) + len(END)
        open(reference, "w", encoding="utf-8").write(text[:start] + render(rows) + text[end:])
        return 0
    want = [(r["file"], r["path"]) for r in rows]
    have = documented(text)
    missing = [k for k in want if k not in have]
    extra = [k for k in have if k not in want]
    doubled = sorted({k for k in have if have.count(k) > 1})
    for what, ks in (("not in docs/reference.md", missing), ("in docs/reference.md but not a key", extra),
                     ("listed twice", doubled)):
        for f, p in ks:
            print(f"{f} key {p}: {what}")
    start, end = text.index(BEGIN), text.index(END) + len(END)
    stale = [line for line in render(rows).splitlines() if line not in text[start:end].splitlines()]
    for line in stale:
        print(f"differs from `hcisim keys`: {line}")
    if missing or extra or doubled or stale:
        print("regenerate with: python3 tests/docs/keys_table.py <build>/hcisim docs/reference.md --write")
        return 1
    print(f"docs/reference.md lists the {len(want)} keys of `hcisim keys`")
    return 0


if __name__ == "__main__":
    sys.exit(main())
