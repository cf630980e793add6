// Packages the extension for one platform with the language server inside:
//
//   node scripts/package-platform.js [--binary PATH] [--target TARGET] [--out FILE]
//
// TARGET is a VS Code platform (linux-x64, linux-arm64, darwin-x64,
// darwin-arm64, win32-x64; default: this machine's). PATH is the server
// binary for that platform (default: ../../target/release/memory-index-lsp).
// The binary goes to server/ for the packaging only and is removed after, so
// the generic package (`npm run package`, no binary: the server comes from
// PATH or memoryIndex.server.path) stays as it is.
'use strict';

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
const arch = { x64: 'x64', arm64: 'arm64' }[process.arch];
const target = opt('--target', `${process.platform}-${arch}`);
const windows = target.startsWith('win32');
const binary = path.resolve(opt('--binary', path.join(root, '..', '..', 'target', 'release', 'memory-index-lsp' + (windows ? '.exe' : ''))));
const version = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version;
const out = path.resolve(opt('--out', path.join(root, `memory-index-${target}-${version}.vsix`)));

if (!fs.existsSync(binary)) {
  console.error(`package-platform: no server binary at ${binary}; build it (cargo build --release, or dist build) or pass --binary`);
  process.exit(1);
}
const dir = path.join(root, 'server');
fs.rmSync(dir, { recursive: true, force: true });
fs.mkdirSync(dir);
const inside = path.join(dir, 'memory-index-lsp' + (windows ? '.exe' : ''));
fs.copyFileSync(binary, inside);
fs.chmodSync(inside, 0o755);
try {
  execFileSync('npx', ['--no-install', 'vsce', 'package', '--allow-missing-repository', '--target', target, '--out', out], {
    cwd: root,
    stdio: 'inherit',
  });
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
console.log(`package-platform: ${out} (${target}, server ${binary})`);
