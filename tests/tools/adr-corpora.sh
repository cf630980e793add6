#!/usr/bin/env bash
# Recall on other projects' decisions: clones each public repository at a
# pinned commit (into $MI_ADR_CACHE, default ~/.cache/memory-index-lsp/adr-corpora),
# copies its ADR folder, or its agent rules file (CLAUDE.md, AGENTS.md), into
# a fresh project, runs `init` and `import` as a new user would, checks the
# result, and prints `eval` for its sets in server/tests/data/adr-corpora/
# (NAME-*.tsv). Nothing of those projects is kept in this repository. Needs
# the network the first time (or MI_ADR_MIRRORS, a folder of bare mirrors
# named <owner>+<name>/repo); prints SKIP without either.
#
# Usage: tests/tools/adr-corpora.sh [BINARY] [NAME...]   (default: target/release/memory-index-lsp, every corpus)
# MI_EVAL_FLAGS is passed to `eval` (`--semantic`: rank by meaning too, with MEMORY_INDEX_LSP_MODEL).
set -u
here="$(cd "$(dirname "$0")/../.." && pwd)"
bin="${1:-$here/target/release/memory-index-lsp}"
shift $(( $# > 0 ? 1 : 0 ))
only=" $* "
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
sets="$here/server/tests/data/adr-corpora"
cache="${MI_ADR_CACHE:-$HOME/.cache/memory-index-lsp/adr-corpora}"
# MI_ADR_WORK keeps the projects made (for tests/tools/pointer-grid.py); else a folder removed at the end.
if [ -n "${MI_ADR_WORK:-}" ]; then
  work="$MI_ADR_WORK"; rm -rf "$work"; mkdir -p "$work"
else
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$cache"

# name  repository  commit  ADR folder
corpora="
moj       ministryofjustice/cloud-platform  7f879f3af6cd39f8711ec99ee3b4d2163ff54024  architecture-decision-record
l4b       thomvaill/log4brains              37187fc8e0cd615c155eb27d6116e1e05681a918  docs/adr
adrtools  npryce/adr-tools                  b3279baf9be2207d1a4f4bbd608fd0b591c72aee  doc/adr
hass      home-assistant/architecture       be288928486f8539345b5be804778a4f24e55ca7  adr
kordis    kordis-leitstelle/kordis          f83d3650db0429128d7d3ce6fc962f32b0c9b187  docs/architecture-decisions
adyen     Adyen/adyen-commercetools         66a78f091b235152e9276eb5114d984c552206e6  docs/adr
ruff      astral-sh/ruff                    fca5c7cf2cd2f8338f18b9485f936b8e9f07bd0b  AGENTS.md
mcp       modelcontextprotocol/python-sdk   57394b0548d1e2dc2dce8d67d84985769df3b8bb  AGENTS.md
playwright microsoft/playwright             d4e1023f6c03a8dced50eb3db88c2217e7c1a86a  CLAUDE.md
reactrouter remix-run/react-router          cab1a69054aa7dfba08a81b6e4b4d13957c82a38  AGENTS.md
thunderbird thunderbird/thunderbird-android a59bd679859d369c9a39be147e536b825ffd0a6b  AGENTS.md
k6        grafana/k6                        87883075ccd5e3d3fb961a860b3d6e422bbc353b  AGENTS.md
"
echo "$corpora" | while read -r name repo commit folder; do
  [ -n "$name" ] || continue
  [ "$only" = "  " ] || [[ "$only" == *" $name "* ]] || continue
  p="$work/$name"
  mkdir -p "$p/docs"
  # A rules file (`*.md` at a path) is placed where it was; an ADR folder goes under docs/.
  case "$folder" in *.md | *.mdc) rules=1 ;; *) rules=0 ;; esac
  # A local mirror (a bare repository at $MI_ADR_MIRRORS/<owner>+<name>/repo), else a clone.
  mirror="${MI_ADR_MIRRORS:-/nonexistent}/${repo/\//+}/repo"
  if [ -d "$mirror" ] && [ "$rules" = 1 ]; then
    mkdir -p "$p/$(dirname "$folder")"
    git -C "$mirror" show "$commit:$folder" > "$p/$folder" 2>/dev/null || { echo "SKIP $name: $commit not in $mirror"; continue; }
  elif [ -d "$mirror" ]; then
    git -C "$mirror" archive "$commit" "$folder" | tar -x -C "$p/docs" --strip-components="$(echo "$folder" | awk -F/ '{print NF-1}')" \
      || { echo "SKIP $name: $commit not in $mirror"; continue; }
  else
    src="$cache/$name"
    if [ ! -d "$src/.git" ]; then
      git clone -q --filter=blob:none "https://github.com/$repo" "$src" 2>/dev/null || { echo "SKIP $name: cannot clone $repo (set MI_ADR_MIRRORS to a folder of mirrors)"; rm -rf "$src"; continue; }
    fi
    git -C "$src" checkout -q "$commit" 2>/dev/null || { echo "SKIP $name: commit $commit not in $repo"; continue; }
    if [ "$rules" = 1 ]; then
      mkdir -p "$p/$(dirname "$folder")" && cp "$src/$folder" "$p/$folder"
    else
      cp -r "$src/$folder" "$p/docs/"
    fi
  fi
  git -C "$p" init -q
  (cd "$p" && "$bin" init . >/dev/null 2>&1) || { echo "FAIL $name: init"; continue; }
  if [ "$rules" = 1 ]; then adr="$folder"; else adr="docs/$(basename "$folder")"; fi
  out="$(cd "$p" && "$bin" import "$adr" 2>&1)"; rc=$?
  echo "== $name ($repo): import exit $rc: $(echo "$out" | tail -1)"
  (cd "$p" && "$bin" check . >/dev/null 2>&1) && echo "   check: no error" || echo "FAIL $name: check finds errors"
  # Every entry resolves to its own heading; every imported decision names its source.
  bad=0
  while IFS= read -r entry; do
    trigger="${entry%% |*}"
    got="$(cd "$p" && "$bin" resolve --no-nav "$trigger" </dev/null 2>/dev/null | sed -n 's/^#\{1,6\} //p' | head -1)"
    want="$(echo "$trigger" | sed 's|^/how |how to |; s|^/when |when |' | tr '[:upper:]' '[:lower:]')"
    [ "$(echo "$got" | tr '[:upper:]' '[:lower:]')" = "$want" ] || { bad=$((bad + 1)); echo "   entry $trigger resolves to '$got'"; }
  done < <(grep '^/' "$p/agents/memory-index.md")
  sections="$(grep -c '^/' "$p/agents/memory-index.md")"; sources="$(cat "$p"/agents/decisions/*.md | grep -c '^Source: ')"
  [ "$bad" = 0 ] && echo "   every entry resolves to its own heading; $sources Source lines for $sections decisions" || echo "FAIL $name: $bad entries resolve elsewhere"
  before="$(cd "$p" && find agents -type f -exec md5sum {} + | sort)"
  (cd "$p" && "$bin" import "$adr" >/dev/null 2>&1)
  [ "$before" = "$(cd "$p" && find agents -type f -exec md5sum {} + | sort)" ] && echo "   second import: no byte changed" || echo "FAIL $name: second import changed files"
  for s in "$sets/$name"-*.tsv; do
    echo "   $(basename "$s"):"
    "$bin" eval "$s" --root "$p" ${MI_EVAL_FLAGS:-} | sed -n '/^| kind/,/^$/p' | sed 's/^/     /'
  done
done
