#!/usr/bin/env bash
# Recall on other projects' ADR folders: clones each public repository at a
# pinned commit (into $MI_ADR_CACHE, default ~/.cache/memory-index-lsp/adr-corpora),
# copies its ADR folder into a fresh project, runs `init` and `import` as a
# new user would, checks the result, and prints `eval` for its prompt sets in
# server/tests/data/adr-corpora/. Nothing of those projects is kept in this
# repository. Needs the network the first time (or MI_ADR_MIRRORS, a folder
# of bare mirrors named <owner>+<name>/repo); prints SKIP without either.
#
# Usage: tests/tools/adr-corpora.sh [BINARY]   (default: target/release/memory-index-lsp)
set -u
here="$(cd "$(dirname "$0")/../.." && pwd)"
bin="${1:-$here/target/release/memory-index-lsp}"
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
sets="$here/server/tests/data/adr-corpora"
cache="${MI_ADR_CACHE:-$HOME/.cache/memory-index-lsp/adr-corpora}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$cache"

# name  repository  commit  ADR folder
corpora="
moj       ministryofjustice/cloud-platform  7f879f3af6cd39f8711ec99ee3b4d2163ff54024  architecture-decision-record
l4b       thomvaill/log4brains              37187fc8e0cd615c155eb27d6116e1e05681a918  docs/adr
adrtools  npryce/adr-tools                  b3279baf9be2207d1a4f4bbd608fd0b591c72aee  doc/adr
hass      home-assistant/architecture       be288928486f8539345b5be804778a4f24e55ca7  adr
kordis    kordis-leitstelle/kordis          f83d3650db0429128d7d3ce6fc962f32b0c9b187  docs/architecture-decisions
adyen     Adyen/adyen-commercetools         66a78f091b235152e9276eb5114d984c552206e6  docs/adr
"
echo "$corpora" | while read -r name repo commit folder; do
  [ -n "$name" ] || continue
  p="$work/$name"
  mkdir -p "$p/docs"
  # A local mirror (a bare repository at $MI_ADR_MIRRORS/<owner>+<name>/repo), else a clone.
  mirror="${MI_ADR_MIRRORS:-/nonexistent}/${repo/\//+}/repo"
  if [ -d "$mirror" ]; then
    git -C "$mirror" archive "$commit" "$folder" | tar -x -C "$p/docs" --strip-components="$(echo "$folder" | awk -F/ '{print NF-1}')" \
      || { echo "SKIP $name: $commit not in $mirror"; continue; }
  else
    src="$cache/$name"
    if [ ! -d "$src/.git" ]; then
      git clone -q --filter=blob:none "https://github.com/$repo" "$src" 2>/dev/null || { echo "SKIP $name: cannot clone $repo (set MI_ADR_MIRRORS to a folder of mirrors)"; rm -rf "$src"; continue; }
    fi
    git -C "$src" checkout -q "$commit" 2>/dev/null || { echo "SKIP $name: commit $commit not in $repo"; continue; }
    cp -r "$src/$folder" "$p/docs/"
  fi
  git -C "$p" init -q
  (cd "$p" && "$bin" init . >/dev/null 2>&1) || { echo "FAIL $name: init"; continue; }
  adr="docs/$(basename "$folder")"
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
  sections="$(cat "$p"/agents/decisions/*.md | grep -c '^#\{2,6\} ')"; sources="$(cat "$p"/agents/decisions/*.md | grep -c '^Source: ')"
  [ "$bad" = 0 ] && echo "   every entry resolves to its own heading; $sources Source lines for $sections decisions" || echo "FAIL $name: $bad entries resolve elsewhere"
  before="$(cd "$p" && find agents -type f -exec md5sum {} + | sort)"
  (cd "$p" && "$bin" import "$adr" >/dev/null 2>&1)
  [ "$before" = "$(cd "$p" && find agents -type f -exec md5sum {} + | sort)" ] && echo "   second import: no byte changed" || echo "FAIL $name: second import changed files"
  for s in "$sets/$name"-*.tsv; do
    echo "   $(basename "$s"):"
    "$bin" eval "$s" --root "$p" | sed -n '/^| kind/,/^$/p' | sed 's/^/     /'
  done
done
