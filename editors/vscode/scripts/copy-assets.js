// Copies the files the extension ships but the repository keeps elsewhere:
// the TextMate grammar (grammars/) and the licence (repository root).
// Run by `npm run compile` and so by `vsce package` (vscode:prepublish).
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const here = path.resolve(__dirname, '..');
const repo = path.resolve(here, '..', '..');
const copies = [
  [path.join(repo, 'grammars', 'memory-index.tmLanguage.json'), path.join(here, 'syntaxes', 'memory-index.tmLanguage.json')],
  [path.join(repo, 'LICENSE'), path.join(here, 'LICENSE')],
];
for (const [from, to] of copies) {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.copyFileSync(from, to);
  console.log(`copied ${path.relative(repo, from)} -> ${path.relative(repo, to)}`);
}
