// Where the language server binary is: the `memoryIndex.server.path` setting
// when set, else the binary bundled in a platform-specific package
// (server/memory-index-lsp inside the extension), else `memory-index-lsp` on
// PATH. Each place tried is remembered, so a missing server is reported with
// what was looked at and what to do.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const SERVER_NAME = 'memory-index-lsp';

/** What was found, and every place tried in order. */
export interface Found {
  path: string | undefined;
  tried: string[];
}

const exe = (name: string): string => (process.platform === 'win32' ? `${name}.exe` : name);

/** The bundled binary's path inside an extension installed at `extensionPath`. */
export function bundledPath(extensionPath: string): string {
  return path.join(extensionPath, 'server', exe(SERVER_NAME));
}

function isExecutableFile(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) {
      return false;
    }
    if (process.platform !== 'win32') {
      fs.accessSync(file, fs.constants.X_OK);
    }
    return true;
  } catch {
    return false;
  }
}

/** Makes the bundled binary executable when an unzip lost its mode bits. */
function ensureExecutable(file: string): void {
  if (process.platform === 'win32') {
    return;
  }
  try {
    const mode = fs.statSync(file).mode;
    if ((mode & 0o111) === 0) {
      fs.chmodSync(file, mode | 0o755);
    }
  } catch {
    // Not there: reported by the caller.
  }
}

function findOnPath(name: string): string | undefined {
  const exts =
    process.platform === 'win32' ? ['', ...(process.env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';')] : [''];
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) {
      continue;
    }
    for (const ext of exts) {
      const candidate = path.join(dir, name + ext);
      if (isExecutableFile(candidate)) {
        return candidate;
      }
    }
  }
  return undefined;
}

/**
 * Finds the server. `configured` is the setting (empty when unset), resolved
 * like a command (`~`, a bare name on PATH, a path relative to `folder`).
 */
export function findServer(configured: string, extensionPath: string, folder: string | undefined): Found {
  const tried: string[] = [];
  if (configured) {
    let file = configured.replace(/^~(?=$|[\\/])/, os.homedir());
    if (!file.includes('/') && !file.includes('\\')) {
      tried.push(`${file} on PATH (setting memoryIndex.server.path)`);
      return { path: findOnPath(file), tried };
    }
    if (!path.isAbsolute(file) && folder) {
      file = path.join(folder, file);
    }
    tried.push(`${file} (setting memoryIndex.server.path)`);
    return { path: isExecutableFile(file) ? file : undefined, tried };
  }
  const bundled = bundledPath(extensionPath);
  ensureExecutable(bundled);
  tried.push(`${bundled} (bundled)`);
  if (isExecutableFile(bundled)) {
    return { path: bundled, tried };
  }
  tried.push(`${SERVER_NAME} on PATH`);
  return { path: findOnPath(SERVER_NAME), tried };
}
