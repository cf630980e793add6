#!/usr/bin/env bash
# Opt-in, slow end-to-end test of the extension in real VS Code (code-server
# 4.100.3) driven by headless Debian Chromium through playwright-core. Not
# part of tests/run-all.sh or .ci/run. From any directory:
#   bash editors/vscode/e2e/run.sh
# It installs what it lacks (Debian packages, this directory's npm packages
# from package-lock.json), builds the server (cargo, honours CARGO_TARGET_DIR;
# MI_E2E_SERVER=PATH uses that binary instead, e.g. the one `dist build` made)
# and the platform .vsix, starts code-server on a free 127.0.0.1 port on a copy of
# fixtures/demo, then test.js checks diagnostics, hover, go to definition and
# "Memory Index: Remember…" and saves screenshots in target/e2e/. The extension
# is the platform package for this machine with the server inside, and no
# memory-index-lsp is on PATH: it must start the server it carries. Exits 1 on
# any failure.
# MI_E2E_KEEP=1 keeps the temporary directory (logs, profiles) for debugging.
set -euo pipefail
e2e="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$e2e/../../.." && pwd)"
shots="$repo/target/e2e"
start_time=$SECONDS

say() { printf '== %s\n' "$*"; }
fail() { printf 'FAIL vscode e2e: %s\n' "$*" >&2; exit 1; }

export npm_config_loglevel=error npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

# 1. Debian packages: code-server's native modules need the -dev packages,
#    its @vscode/ripgrep gets rg from the seeded cache below, chromium drives it.
apt_packages=(libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev pkg-config ripgrep chromium)
missing=()
for p in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  say "apt-get install ${missing[*]}"
  sudo=(); [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
[ -x /usr/bin/chromium ] || fail "/usr/bin/chromium is missing (apt-get install chromium)"

# 2. npm packages (code-server, playwright-core; never a browser download).
#    @vscode/ripgrep 1.15.11 (inside code-server) downloads rg from GitHub in
#    its postinstall unless its cache already holds the archive: seed it with
#    Debian's rg.
installed() {
  [ -f "$e2e/node_modules/code-server/lib/vscode/node_modules/@vscode/ripgrep/bin/rg" ] &&
    (cd "$e2e" && npm ls --depth=0 >/dev/null 2>&1)
}
if ! installed; then
  rg_cache=/tmp/vscode-ripgrep-cache-1.15.11
  rg_archive="$rg_cache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz"
  if [ ! -s "$rg_archive" ]; then
    rg_dir="$(mktemp -d)"
    cp "$(command -v rg)" "$rg_dir/rg"
    mkdir -p "$rg_cache"
    tar czf "$rg_archive" -C "$rg_dir" rg
    rm -rf "$rg_dir"
  fi
  say "npm ci in editors/vscode/e2e (code-server 4.100.3, playwright-core; about a minute, 300 MB)"
  (cd "$e2e" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm_config_yes=true npm_config_unsafe_perm=true npm ci --prefer-offline)
  installed || fail "npm ci in $e2e left an incomplete install"
fi
code_server="$e2e/node_modules/.bin/code-server"

# 3. The server binary.
if [ -n "${MI_E2E_SERVER:-}" ]; then
  server_bin="$MI_E2E_SERVER"
else
  say "cargo build --release -p memory-index-lsp"
  (cd "$repo" && nice cargo build --release -p memory-index-lsp) || fail "cargo build --release -p memory-index-lsp failed"
  target_dir="${CARGO_TARGET_DIR:-$repo/target}"
  case "$target_dir" in /*) ;; *) target_dir="$repo/$target_dir" ;; esac
  server_bin="$target_dir/release/memory-index-lsp"
fi
[ -x "$server_bin" ] || fail "no server binary at $server_bin"

# 4. The .vsix, into a temporary directory that also holds everything else.
work="$(mktemp -d /tmp/mi-vscode-e2e.XXXXXX)"
cs_pid=""
cleanup() {
  local rc=$?
  if [ -n "$cs_pid" ]; then
    # code-server was started with setsid: end its whole process group.
    kill -TERM -- "-$cs_pid" 2>/dev/null || true
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 -- "-$cs_pid" 2>/dev/null || break; sleep 0.5; done
    kill -KILL -- "-$cs_pid" 2>/dev/null && echo "code-server did not stop on SIGTERM: killed" >&2
  fi
  if [ "$rc" -ne 0 ] && [ -f "$work/code-server.log" ]; then
    echo "-- last lines of $work/code-server.log:" >&2
    tail -n 20 "$work/code-server.log" >&2
  fi
  if [ "${MI_E2E_KEEP:-0}" = 1 ] || [ "$rc" -ne 0 ]; then
    echo "kept $work" >&2
  else
    rm -rf "$work"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Built from a copy, so the checkout's node_modules/ and out/ stay untouched.
say "vsce package (in a copy of editors/vscode)"
mkdir -p "$work/src/editors" "$work/src/grammars"
cp "$repo/LICENSE" "$work/src/"
cp "$repo/grammars/memory-index.tmLanguage.json" "$work/src/grammars/"
tar -C "$repo/editors" --exclude=vscode/node_modules --exclude=vscode/out --exclude=vscode/e2e \
  --exclude='vscode/*.vsix' -cf - vscode | tar -C "$work/src/editors" -xf -
(
  cd "$work/src/editors/vscode"
  npm ci --prefer-offline >/dev/null
  # The platform package, with the server inside (what a user installs).
  node scripts/package-platform.js --binary "$server_bin" --out "$work/memory-index.vsix" >"$work/vsce.log" 2>&1 ||
    { cat "$work/vsce.log" >&2; exit 1; }
)
[ -s "$work/memory-index.vsix" ] || fail "vsce package produced no .vsix"

# 5. code-server with its own profile and extensions, the extension installed.
# No memory-index-lsp on PATH: the extension must start the server it carries.
# The own HOME keeps code-server's config.yaml out of the real one.
mkdir -p "$work/data/User" "$work/extensions" "$work/home"
cp -R "$repo/fixtures/demo" "$work/demo"
clean_path="$(printf '%s' "$PATH" | tr ':' '\n' | while read -r d; do [ -x "$d/memory-index-lsp" ] || printf '%s:' "$d"; done)"
clean_path="${clean_path%:}"
if PATH="$clean_path" command -v memory-index-lsp >/dev/null 2>&1; then fail "memory-index-lsp is still on PATH"; fi
# files.autoSave is code-server's own default, written out: test.js's first
# Remember relies on it, then turns it off (desktop VS Code's default).
cat >"$work/data/User/settings.json" <<'JSON'
{
  "files.autoSave": "afterDelay",
  "security.workspace.trust.enabled": false,
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "extensions.ignoreRecommendations": true,
  "chat.commandCenter.enabled": false,
  "editor.minimap.enabled": false,
  "editor.stickyScroll.enabled": false,
  "editor.hover.delay": 200,
  "window.commandCenter": false,
  "git.enabled": false
}
JSON
cs_args=(--user-data-dir "$work/data" --extensions-dir "$work/extensions")
say "code-server --install-extension"
HOME="$work/home" "$code_server" "${cs_args[@]}" --install-extension "$work/memory-index.vsix" >"$work/install.log" 2>&1 ||
  { cat "$work/install.log" >&2; fail "code-server --install-extension failed"; }

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
say "code-server on 127.0.0.1:$port"
HOME="$work/home" PATH="$clean_path" setsid "$code_server" "${cs_args[@]}" \
  --bind-addr "127.0.0.1:$port" --auth none --disable-telemetry --disable-update-check \
  --disable-workspace-trust --disable-getting-started-override \
  "$work/demo" >"$work/code-server.log" 2>&1 &
cs_pid=$!
for _ in $(seq 1 120); do
  if python3 - "$port" <<'PY' 2>/dev/null; then break; fi
import sys, urllib.request
urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/healthz", timeout=2).read()
PY
  kill -0 "$cs_pid" 2>/dev/null || fail "code-server exited at start"
  sleep 0.5
done
python3 -c 'import sys, urllib.request; urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/healthz", timeout=2)' "$port" 2>/dev/null ||
  fail "code-server does not answer on 127.0.0.1:$port after 60 s"

# 6. The browser test.
mkdir -p "$shots"
rm -f "$shots"/*.png
say "playwright-core + /usr/bin/chromium: diagnostics, hover, go to definition, Remember…"
MI_E2E_URL="http://127.0.0.1:$port" MI_E2E_FOLDER="$work/demo" MI_E2E_SHOTS="$shots" \
  MI_E2E_PROFILE="$work/chromium" MI_E2E_LOGS="$work/data/logs" node "$e2e/test.js" || fail "see the messages above; screenshots in $shots"

echo "PASS vscode e2e ($((SECONDS - start_time)) s); screenshots in $shots"
