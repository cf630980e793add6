#!/usr/bin/env python3
"""How often a file's path words alone would inject a decision (docs/resolver.md, "File-context recall").

  path-words-noise.py MEMORY_ROOT PATH_LIST N   (PATH_LIST: one path a line, e.g. `git ls-files`; N: paths drawn)

Replicates ide::scope::path_words and asks `memory-index-lsp search --json --limit 1` (the binary: $BIN, default
target/debug/memory-index-lsp) for each; prints how many reach 0.5 and the first ones."""
import json, os, re, subprocess, sys, random

COMMON = {"src","lib","libs","app","apps","pkg","packages","internal","cmd","index","main","mod","init","server","core","common","utils","util","dist","build","out","tmp","vendor"}
def words(path):
    d, _, name = path.rpartition("/")
    stem = (d + "/" if d else "") + name.split(".")[0]
    out = []
    for part in re.split(r"[^0-9A-Za-z]+", stem):
        w = ""; prev = False
        for c in part:
            if c.isupper() and prev: out.append(w); w = ""
            prev = c.islower() or c.isdigit(); w += c.lower()
        out.append(w)
    res = []
    for w in out:
        if len(w) > 1 and w not in COMMON and not w.isdigit() and (not res or res[-1] != w): res.append(w)
    return " ".join(res)
root, listing = sys.argv[1], sys.argv[2]
paths = [l.strip() for l in open(listing) if l.strip()]
random.seed(1); random.shuffle(paths); paths = paths[:int(sys.argv[3])]
hits = []
for p in paths:
    q = words(p)
    if not q: continue
    r = subprocess.run([os.environ.get("BIN", "target/debug/memory-index-lsp"), "search", "--root", root, "--json", "--limit", "1", "--", q], capture_output=True, text=True)
    try: res = json.loads(r.stdout)
    except Exception: continue
    items = res if isinstance(res, list) else res.get("results", [])
    if items and items[0].get("confidence", 0) >= 0.5: hits.append((p, q, items[0].get("title") or items[0].get("heading"), items[0]["confidence"]))
print(len(paths), "paths,", len(hits), "bodies at 0.5")
for h in hits[:15]: print("  ", h)
