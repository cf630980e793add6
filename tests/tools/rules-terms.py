#!/usr/bin/env python3
"""How often a prompt names a term only the right rules section holds.

Usage: tests/tools/rules-terms.py WORK [NAME...]   (default: the six rules-file corpora)

WORK holds the projects `MI_ADR_WORK=WORK tests/tools/adr-corpora.sh` leaves. For each
corpus, the terms of each imported section are its code spans (`make lint`) and its
names (`InfluxDB`, `BrowserRouter`, hyphenated tools such as `golangci-lint`); a term
is distinctive when one section alone has it. Prints, per corpus, how many answerable
prompts (server/tests/data/adr-corpora/NAME-prompts*.tsv) hold a distinctive term of
their right section, and how many everyday prompts hold any: the most that keys taken
from the bodies could add to recall (docs/resolver.md, "Rules files").
"""
import glob
import re
import sys
from pathlib import Path

here = Path(__file__).resolve().parents[2]
RULES = ["k6", "reactrouter", "thunderbird", "ruff", "mcp", "playwright"]


def sections(project):
    out = {}
    for f in glob.glob(f"{project}/agents/decisions/*.md"):
        parts = re.split(r"^(#{2,3} .*)$", Path(f).read_text(), flags=re.M)
        for i in range(1, len(parts), 2):
            out[parts[i].lstrip("#").strip()] = parts[i + 1]
    return out


def terms(body):
    found = set(re.findall(r"`([^`\s]{3,40})`", body))
    found |= set(re.findall(r"\b[\w.-]*[a-z][A-Z][\w.-]*\b|\b[a-z]+(?:-[a-z0-9]+)+\b|\b[A-Z][a-z]+[A-Z]\w*\b", body))
    return {t.strip(".") for t in found}


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    work, names = sys.argv[1], sys.argv[2:] or RULES
    for name in names:
        secs = sections(f"{work}/{name}")
        if not secs:
            print(f"SKIP {name}: no imported project in {work}/{name}")
            continue
        by_section = {h: terms(b) for h, b in secs.items()}
        df = {}
        for ts in by_section.values():
            for t in ts:
                df[t.lower()] = df.get(t.lower(), 0) + 1
        distinctive = {h: [t for t in ts if df[t.lower()] == 1] for h, ts in by_section.items()}
        right = answerable = noisy = everyday = 0
        for f in glob.glob(f"{here}/server/tests/data/adr-corpora/{name}-prompts*.tsv"):
            for line in open(f):
                if line.startswith("#") or not line.strip():
                    continue
                kind, prompt, want = (line.rstrip("\n").split("\t") + ["", ""])[:3]
                text = prompt.lower()
                hit = [h for h, ts in distinctive.items()
                       if any(re.search(r"(?<![\w-])" + re.escape(t.lower()) + r"(?![\w-])", text) for t in ts)]
                if kind == "applicable":
                    answerable += 1
                    right += any(h in [w.strip() for w in want.split("||")] for h in hit)
                else:
                    everyday += 1
                    noisy += bool(hit)
        print(f"{name}: {right} of {answerable} answerable prompts name a term of their section alone; "
              f"{noisy} of {everyday} everyday prompts name one")


if __name__ == "__main__":
    main()
