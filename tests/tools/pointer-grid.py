#!/usr/bin/env python3
"""The pointer tier's grid: for each corpus and kind of event (prompts,
commands, failures), what a body threshold and a pointer floor reach.

Usage: tests/tools/pointer-grid.py BINARY WORK [--pointers 1,2] [--floors 0.1,0.2,...]
(MI_EVAL_FLAGS is passed to `eval`: `--semantic` ranks by meaning too, with MEMORY_INDEX_LSP_MODEL.)

WORK holds one project per corpus, as `MI_ADR_WORK=WORK tests/tools/adr-corpora.sh`
leaves them, plus `head` (a copy of ../shared/corpus/head) and `govuk` (init and
import of ../shared/corpus/govuk-adr/decisions in docs/adr). Each project's
labelled sets are server/tests/data/adr-corpora/NAME-*.tsv (head: the prompt,
command and failure sets of server/tests/data/; govuk: govuk-prompts*.tsv).
For each max-pointers value it writes `[recall] max-pointers` into the
project's memory-index.toml (WORK's copies only), and prints, per floor, one
row per corpus and event kind: answerable cases, reached by a body or a
pointer, bodies right of bodies given, and everyday (`-`) cases given any line.
docs/resolver.md ("Pointer tier") is the table this printed.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

here = Path(__file__).resolve().parents[2]
data = here / "server/tests/data"


def sets_of(name):
    if name == "head":
        return sorted(p for p in data.glob("*.tsv") if p.name.startswith(("prompts-", "commands-", "errors-")))
    if name == "govuk":
        return sorted(data.glob("govuk-prompts*.tsv"))
    return sorted((data / "adr-corpora").glob(f"{name}-*.tsv"))


def event(kind):
    return "command" if kind.startswith("command") else "failure" if kind.startswith("error") else "prompt"


def run(binary, root, tsv, floor):
    flags = os.environ.get("MI_EVAL_FLAGS", "").split()
    out = subprocess.run([binary, "eval", str(tsv), "--root", str(root), "--json", "--pointer", str(floor), *flags],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)["kinds"]


def main():
    binary, work = sys.argv[1], Path(sys.argv[2])
    args = dict(zip(sys.argv[3::2], sys.argv[4::2]))
    pointers = [int(x) for x in args.get("--pointers", "1,2").split(",")]
    floors = [float(x) for x in args.get("--floors", "0.1,0.15,0.2,0.25,0.3,0.35,0.4,0.5,0.6").split(",")]
    for mp in pointers:
        for project in sorted(p for p in work.iterdir() if p.is_dir()):
            (project / "memory-index.toml").write_text(f"[recall]\nmax-pointers = {mp}\n")
        print(f"\n## max-pointers = {mp}\n")
        print("| floor | corpus | event | set | answerable | reached | bodies right | everyday | any line |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for floor in floors:
            for project in sorted(p for p in work.iterdir() if p.is_dir()):
                for tsv in sets_of(project.name):
                    split = "holdout" if "holdout" in tsv.name or "acceptance" in tsv.name else "dev"
                    acc = {}
                    for k in run(binary, project, tsv, floor):
                        if k["kind"] == "all":
                            continue
                        a = acc.setdefault(event(k["kind"]), [0, 0.0, 0.0, 0.0, 0, 0.0])
                        n, ans = k["cases"], k["answerable"]
                        a[0] += ans
                        a[1] += (k["reachable"] or 0) * ans
                        if k["p_at_1"] is not None:
                            a[2] += k["p_at_1"] * k["answered"] * n
                            a[3] += k["answered"] * n
                        a[4] += n - ans
                        a[5] += (k["noise_lines"] or 0) * (n - ans)
                    for ev, (ans, reached, bright, bodies, quiet, noisy) in sorted(acc.items()):
                        print(f"| {floor:.2f} | {project.name} | {ev} | {split} | {ans} | {round(reached)} | "
                              f"{round(bright)}/{round(bodies)} | {quiet} | {round(noisy)} |")
    for project in work.iterdir():
        (project / "memory-index.toml").unlink(missing_ok=True)


if __name__ == "__main__":
    main()
