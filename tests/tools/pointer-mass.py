#!/usr/bin/env python3
"""Would a floor on shared evidence make the pointer tier quieter? For each
floor on `mass` (the informative mass of the words a prompt shares with the
decision, `eval --features`), the first results in the pointer zone (from
`prompt-pointer` up to `prompt`) that still get a line: right and wrong ones
of answerable prompts, and everyday prompts given one; development sets and
held-out sets apart. docs/resolver.md ("Pointer tier") has the table it printed.

Usage: tests/tools/pointer-mass.py BINARY WORK [--floors 0,1.25,1.5,1.75,2]

WORK holds the projects of `MI_ADR_WORK=WORK tests/tools/adr-corpora.sh`, plus
`head` (a copy of ../shared/corpus/head) and `govuk` (init and import of
../shared/corpus/govuk-adr/decisions), as for tests/tools/pointer-grid.py.
A set is held out unless its name says `dev`.
"""
import csv
import subprocess
import sys
import tempfile
from pathlib import Path

here = Path(__file__).resolve().parents[2]
data = here / "server/tests/data"
ZONE = (0.2, 0.5)


def prompt_sets(name):
    if name == "head":
        return [data / "prompts-dev.tsv", data / "prompts-holdout.tsv"]
    if name == "govuk":
        return sorted(data.glob("govuk-prompts*.tsv"))
    return sorted(p for p in (data / "adr-corpora").glob(f"{name}-*.tsv") if "commands" not in p.name)


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    binary, work = Path(args[0]).resolve(), Path(args[1])
    floors = [0.0, 1.25, 1.5, 1.75, 2.0]
    if "--floors" in args:
        floors = [float(x) for x in args[args.index("--floors") + 1].split(",")]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for project in sorted(p for p in work.iterdir() if p.is_dir()):
            for s in prompt_sets(project.name):
                out = Path(tmp) / f"{project.name}-{s.name}"
                subprocess.run([binary, "eval", s, "--features", out], cwd=project, capture_output=True, check=False)
                if not out.exists():
                    continue
                for r in csv.DictReader(open(out), delimiter="\t"):
                    if r["rank"] == "0":
                        r["split"] = "dev" if "dev" in s.name else "held-out"
                        rows.append(r)
    print("| sets | mass floor | right pointers | wrong pointers | everyday given a line |")
    print("| --- | --- | --- | --- | --- |")
    for split in ["dev", "held-out"]:
        mine = [r for r in rows if r["split"] == split]
        answerable = sum(r["kind"] == "applicable" for r in mine)
        everyday = len(mine) - answerable
        for floor in floors:
            lined = [r for r in mine if ZONE[0] <= float(r["confidence"]) < ZONE[1] and float(r["mass"]) >= floor]
            right = sum(r["kind"] == "applicable" and r["right"] == "1" for r in lined)
            wrong = sum(r["kind"] == "applicable" and r["right"] == "0" for r in lined)
            noise = sum(r["kind"] != "applicable" for r in lined)
            print(f"| {split} ({answerable} answerable, {everyday} everyday) | {floor} | {right} | {wrong} | {noise} |")


if __name__ == "__main__":
    main()
