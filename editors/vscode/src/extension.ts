// VS Code client for memory-index-lsp. Everything the user sees (diagnostics,
// completion, hover, navigation, rename, fixes) comes from the server; this
// file only starts it (serverPath.ts finds it), passes settings through and adds three commands.

import * as vscode from 'vscode';
import {
  ConfigurationParams,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
} from 'vscode-languageclient/node';
import { findServer, Found, SERVER_NAME } from './serverPath';

const SECTION = 'memoryIndex';
/** Where a user gets the server without Rust: the release page (platform packages carry it) and its installer. */
const RELEASES_URL = 'https://github.com/memory-index-lsp/memory-index-lsp/releases/latest';
const INSTALL_COMMAND =
  process.platform === 'win32'
    ? `powershell -ExecutionPolicy Bypass -c "irm ${RELEASES_URL}/download/memory-index-lsp-installer.ps1 | iex"`
    : `curl --proto '=https' --tlsv1.2 -LsSf ${RELEASES_URL}/download/memory-index-lsp-installer.sh | sh`;
const SERVER_FIX_ALL = 'memory-index.fixAll';
const SERVER_REMEMBER = 'memory-index.remember';

/** Settings forwarded to the server: VS Code name -> memory-index.toml key. */
const SERVER_KEYS: ReadonlyArray<readonly [string, string]> = [
  ['index', 'index'],
  ['decisions', 'decisions'],
  ['maxLines', 'max-lines'],
  ['rules', 'rules'],
];

let client: LanguageClient | undefined;
/** Where this extension is installed (its bundled server is under server/). */
let extensionPath = '';
let output: vscode.LogOutputChannel | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  extensionPath = context.extensionPath;
  output = vscode.window.createOutputChannel('Memory Index', { log: true });
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('memoryIndex.fixAll', fixAll),
    vscode.commands.registerCommand('memoryIndex.restartServer', restart),
    vscode.commands.registerCommand('memoryIndex.remember', remember),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${SECTION}.server.path`)) {
        void restart();
      }
    }),
  );
  // Fix All and Remember… are offered only where there is a memory (found by review: offered in
  // any Markdown file, they started a server that found nothing and said nothing).
  const memories = await vscode.workspace.findFiles('{**/agents/memory-index.md,**/memory-index.toml}', '**/node_modules/**', 1);
  await vscode.commands.executeCommand('setContext', 'memoryIndex.hasMemory', memories.length > 0);
  await start();
}

export async function deactivate(): Promise<void> {
  await stop();
}

/**
 * The settings the server understands, with the keys of memory-index.toml.
 * Only values the user actually set are sent, so the server's own defaults
 * and the project's memory-index.toml stay in charge of everything else.
 */
function serverSettings(scope?: vscode.Uri): Record<string, unknown> {
  const config = vscode.workspace.getConfiguration(SECTION, scope);
  const settings: Record<string, unknown> = {};
  for (const [name, key] of SERVER_KEYS) {
    const i = config.inspect(name);
    const set = [i?.globalValue, i?.workspaceValue, i?.workspaceFolderValue].some((v) => v !== undefined);
    if (set) {
      settings[key] = config.get(name);
    }
  }
  return settings;
}

/** The server to start (see serverPath.ts), from the setting and the extension's own folder. */
function serverPath(): { configured: string; found: Found } {
  const configured = (vscode.workspace.getConfiguration(SECTION).get<string>('server.path') ?? '').trim();
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath;
  return { configured, found: findServer(configured, extensionPath, folder) };
}

async function reportMissingServer(configured: string, found: Found): Promise<void> {
  const message = configured
    ? `Memory Index: the language server "${configured}" (setting memoryIndex.server.path) was not found or is not executable. ` +
      `Fix the setting, or clear it to use the bundled server.`
    : `Memory Index: no language server. This extension package carries none for ${process.platform}-${process.arch} and ` +
      `"${SERVER_NAME}" is not on PATH. Install the package for your platform from the release page (the server is ` +
      `inside; no Rust needed), or run the release installer, then "Memory Index: Restart Server". ` +
      `Looked at: ${found.tried.join('; ')}.`;
  const releases = 'Open Release Page';
  const copy = 'Copy Installer Command';
  const settings = 'Open Settings';
  const choice = await vscode.window.showErrorMessage(message, releases, copy, settings);
  if (choice === releases) {
    await vscode.env.openExternal(vscode.Uri.parse(RELEASES_URL));
  } else if (choice === copy) {
    await vscode.env.clipboard.writeText(INSTALL_COMMAND);
    void vscode.window.showInformationMessage(
      `Copied the installer command. Run it in a terminal, then run "Memory Index: Restart Server".`,
    );
  } else if (choice === settings) {
    await vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.server.path`);
  }
}

async function start(): Promise<void> {
  const { configured, found: where } = serverPath();
  const found = where.path;
  if (!found) {
    output?.error(`memory-index-lsp not found; looked at: ${where.tried.join('; ')}`);
    void reportMissingServer(configured, where);
    return;
  }
  const serverOptions: ServerOptions = { command: found, args: ['serve'] };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ language: 'markdown', scheme: 'file' }],
    initializationOptions: serverSettings(),
    synchronize: { configurationSection: SECTION },
    outputChannel: output,
    traceOutputChannel: output,
    middleware: {
      workspace: {
        // Answer `memoryIndex` with the server's keys only (never server.path or trace).
        configuration: async (params: ConfigurationParams, token, next) => {
          const answer = await next(params, token);
          if (!Array.isArray(answer)) {
            return answer;
          }
          return params.items.map((item, i) =>
            item.section === SECTION
              ? serverSettings(item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined)
              : answer[i],
          );
        },
        // Tell the server that settings changed; it pulls them through workspace/configuration.
        didChangeConfiguration: (_sections, next) => next(undefined),
      },
    },
  };
  const c = new LanguageClient(SECTION, 'Memory Index', serverOptions, clientOptions);
  client = c;
  output?.info(`starting ${found} serve`);
  try {
    await c.start();
    const info = c.initializeResult?.serverInfo;
    const settings = JSON.stringify(serverSettings());
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath).join(', ') || 'none';
    output?.info(
      `${info?.name ?? SERVER_NAME} ${info?.version ?? '(unknown version)'} started: ${found}; ` +
        `workspace folders: ${folders}; settings sent: ${settings === '{}' ? 'none (memory-index.toml and defaults apply)' : settings}`,
    );
  } catch (err) {
    output?.show(true);
    void vscode.window.showErrorMessage(`Memory Index: the language server (${found}) failed to start: ${String(err)}`);
  }
}

async function stop(): Promise<void> {
  const c = client;
  client = undefined;
  if (c) {
    try {
      await c.dispose();
    } catch (err) {
      output?.warn(`stopping the server: ${String(err)}`);
    }
  }
}

let restarting: Promise<void> = Promise.resolve();

/** Stops and starts the server again (re-reading memoryIndex.server.path); restarts run one at a time. */
function restart(): Promise<void> {
  restarting = restarting.then(async () => {
    await stop();
    await start();
    if (client?.isRunning()) {
      vscode.window.setStatusBarMessage('Memory Index: server restarted', 3000);
    }
  });
  return restarting;
}

async function fixAll(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== 'markdown') {
    void vscode.window.showWarningMessage('Memory Index: Fix All works on the active Markdown editor.');
    return;
  }
  if (!client?.isRunning()) {
    void vscode.window.showWarningMessage('Memory Index: the language server is not running. Run "Memory Index: Restart Server".');
    return;
  }
  try {
    await client.sendRequest(ExecuteCommandRequest.type, {
      command: SERVER_FIX_ALL,
      arguments: [client.code2ProtocolConverter.asUri(editor.document.uri)],
    });
  } catch (err) {
    void vscode.window.showErrorMessage(`Memory Index: Fix All failed: ${String(err)}`);
  }
}

/**
 * "Memory Index: Remember…": asks for the kind, the title and the file, takes
 * the selection (if any) as the body, lets the server write the section and
 * its index entry (one workspace edit, verified by the server), then opens
 * the new section.
 */
async function remember(): Promise<void> {
  if (!client?.isRunning()) {
    void vscode.window.showWarningMessage('Memory Index: the language server is not running. Run "Memory Index: Restart Server".');
    return;
  }
  const kind = await vscode.window.showQuickPick(
    [
      { label: 'when', description: 'a behaviour: what to do in a situation ("When Writing Mock Tests")' },
      { label: 'how', description: 'a procedure: how to do a task ("How to Encode File Paths")' },
    ],
    { title: 'Memory Index: Remember (1/3)', placeHolder: 'What kind of decision?' },
  );
  if (!kind) {
    return;
  }
  const title = await vscode.window.showInputBox({
    title: 'Memory Index: Remember (2/3)',
    prompt: kind.label === 'when' ? 'The situation, after "When"' : 'The task, after "How to"',
    placeHolder: kind.label === 'when' ? 'Pinning Toolchain Versions' : 'Encode File Paths',
    validateInput: (v) => (v.trim() ? undefined : 'A title is needed'),
  });
  if (!title) {
    return;
  }
  const file = await vscode.window.showInputBox({
    title: 'Memory Index: Remember (3/3)',
    prompt: 'The decision file in agents/decisions/ (empty: the closest existing one)',
    placeHolder: 'cli.md',
  });
  if (file === undefined) {
    return;
  }
  const editor = vscode.window.activeTextEditor;
  const selected = editor && !editor.selection.isEmpty ? editor.document.getText(editor.selection) : '';
  const body = selected.trim() ? selected : 'What was decided, and why.\n\nAn example.\n';
  const folder = editor ? vscode.workspace.getWorkspaceFolder(editor.document.uri) : vscode.workspace.workspaceFolders?.[0];
  try {
    const result = (await client.sendRequest(ExecuteCommandRequest.type, {
      command: SERVER_REMEMBER,
      arguments: [
        {
          operator: kind.label,
          title: title.trim(),
          file: file.trim() || undefined,
          body,
          uri: folder ? client.code2ProtocolConverter.asUri(vscode.Uri.joinPath(folder.uri, 'agents')) : undefined,
        },
      ],
    })) as {
      applied?: boolean;
      location?: { uri: string; range: { start: { line: number } } };
      changed?: string[];
    } | null;
    // The server's edit lands in the editor's buffers: save the files it changed, so the decision
    // and its index entry reach the disk together (desktop VS Code does not auto save by default).
    for (const uri of result?.applied ? (result.changed ?? []) : []) {
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === vscode.Uri.parse(uri).toString());
      if (doc?.isDirty && !(await doc.save())) {
        void vscode.window.showErrorMessage(`Memory Index: could not save ${doc.uri.fsPath}; save it to keep the decision.`);
      }
    }
    const at = result?.location;
    if (at) {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(at.uri));
      const line = at.range.start.line;
      await vscode.window.showTextDocument(doc, { selection: new vscode.Range(line, 0, line, 0) });
    }
  } catch (err) {
    void vscode.window.showErrorMessage(`Memory Index: ${err instanceof Error ? err.message : String(err)}`);
  }
}
