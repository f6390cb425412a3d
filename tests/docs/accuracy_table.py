#!/usr/bin/env python3
"""README's "How far to trust it" table and the committed accuracy table (data/accuracy.csv).

accuracy_table.py HCISIM README_MD         checks the README's table is `hcisim accuracy --markdown`
accuracy_table.py HCISIM README_MD --write rewrites it from there
"""
import subprocess
import sys

BEGIN = "<!-- accuracy:begin (tests/docs/accuracy_table.py --write; from data/accuracy.csv) -->"
END = "<!-- accuracy:end -->"


def main():
    hcisim, readme = sys.argv[1], sys.argv[2]
    table = subprocess.run([hcisim, "accuracy", "--markdown"], check=True, capture_output=True, text=True).stdout
    block = BEGIN + "\n\n" + table.rstrip("\n") + "\n\n" + END
    text = open(readme, encoding="utf-8").read()
    if BEGIN not in text or END not in text:
        print(f"{readme}: no accuracy table markers ({BEGIN} ... {END})")
        return 1
    start, end = text.index(BEGIN), text.index(END) + len(END)
    if "--write" in sys.argv[3:]:
        open(readme, "w", encoding="utf-8").write(text[:start] + block + text[end:])
        return 0
    if text[start:end] != block:
        print(f"{readme}'s accuracy table is not data/accuracy.csv's classes; run "
              f"python3 tests/docs/accuracy_table.py {hcisim} {readme} --write")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
