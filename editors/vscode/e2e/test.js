// Drives code-server (started by run.sh) in headless Debian Chromium and checks
// that the Memory Index extension shows the server's diagnostics, hover and
// go-to-definition on a copy of fixtures/demo, and that "Memory Index:
// Remember…" writes a decision (the selection as its body) and shows the
// server's refusal of the same title again. Screenshots go to MI_E2E_SHOTS.
// Environment: MI_E2E_URL, MI_E2E_FOLDER, MI_E2E_SHOTS, MI_E2E_PROFILE, MI_E2E_LOGS.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { chromium } = require('playwright-core');

const url = need('MI_E2E_URL');
const folder = need('MI_E2E_FOLDER');
const shots = need('MI_E2E_SHOTS');
const profile = need('MI_E2E_PROFILE');
const logs = need('MI_E2E_LOGS');

// The demo entry we hover and follow, and the finding we expect on the line after it.
const ENTRY = '/when writing mock tests';
const HOVER_WORD = 'mock';
const HEADING = 'When Writing Mock Tests';
const DECISION_FILE = 'testing.md';
const ORPHAN = /When verifying payment webhooks/;
const PROBLEMS_FILTER = 'payment webhooks';

// "Memory Index: Remember…": a paragraph typed into a scratch Markdown file of
// the workspace and selected is the body; the decision goes into DECISION_FILE.
const SCRATCH = 'scratch.md';
const REMEMBER_TITLE = 'Pinning Toolchain Versions';
const REMEMBER_HEADING = `When ${REMEMBER_TITLE}`;
const REMEMBER_ENTRY = '/when pinning toolchain versions';
const REMEMBER_BODY = [
  'Pin the exact toolchain versions the tests run with:',
  'rust-toolchain.toml for Rust, .nvmrc for Node, and the',
  'lockfiles committed, so a local run and CI agree.',
];
// Remembered with auto save off and no selection (the body is the extension's placeholder).
const UNSAVED_TITLE = 'Retrying Flaky Tests';
const UNSAVED_HEADING = `When ${UNSAVED_TITLE}`;
const UNSAVED_ENTRY = '/when retrying flaky tests';
// The server's refusal of a title that is already a heading (server/src/ide/remember.rs).
const EXISTS = /exists already/;

function need(name) {
  const v = process.env[name];
  if (!v) {
    console.error(`test.js: ${name} is not set (run editors/vscode/e2e/run.sh)`);
    process.exit(2);
  }
  return v;
}

class Failure extends Error {}

/** The extension's start line from the "Memory Index" output channel's log file under `dir`. */
function startLine(dir) {
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop();
    let entries = [];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        stack.push(p);
      } else if (e.name.includes('Memory Index')) {
        const hit = fs.readFileSync(p, 'utf8').split('\n').find((l) => / memory-index-lsp \S+ started: /.test(l));
        if (hit) {
          return hit;
        }
      }
    }
  }
  return null;
}

function log(msg) {
  console.log(`   ${msg}`);
}

/** Polls `probe` until it returns a truthy value; throws `message` after `ms`. */
async function until(probe, message, ms = 30000) {
  const deadline = Date.now() + ms;
  let last;
  for (;;) {
    try {
      last = await probe();
      if (last) {
        return last;
      }
    } catch (err) {
      if (err instanceof Failure) {
        throw err;
      }
      last = err;
    }
    if (Date.now() > deadline) {
      throw new Failure(`${message} (after ${ms / 1000} s${last instanceof Error ? `: ${last.message}` : ''})`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Fails at once if VS Code shows the extension's "server not found / failed" notification. */
async function checkNoServerError(page) {
  const toasts = await page.locator('.notifications-toasts .notification-list-item-message').allInnerTexts();
  const bad = toasts.find((t) => /Memory Index: the language server/.test(t));
  if (bad) {
    throw new Failure(`the extension reported: ${bad.trim()}`);
  }
}

async function runCommand(page, title) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${title}`);
  const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first();
  await row.waitFor({ state: 'visible' });
  await page.keyboard.press('Enter');
}

/** Waits until the element and its ancestors up to the editor are fully opaque (hovers fade in). */
async function opaque(locator) {
  await until(
    () =>
      locator.evaluate(async (el) => {
        const chain = [];
        for (let e = el; e && !e.classList.contains('monaco-editor'); e = e.parentElement) {
          chain.push(e);
        }
        const running = chain.flatMap((e) => e.getAnimations());
        await Promise.all(running.map((a) => a.finished.catch(() => {})));
        return chain.every((e) => getComputedStyle(e).opacity === '1');
      }),
    'the hover did not finish fading in',
    5000,
  );
}

/** Moves the cursor to `line` (1-based) with Quick Open's ":line", which also scrolls it into view. */
// Opens `path` with Quick Open (Ctrl+P, the workspace file search: code-server's ripgrep)
// and waits for its tab (`tab`: the name it shows).
async function quickOpen(page, path, tab, ms) {
  await until(
    async () => {
      await page.keyboard.press('Escape');
      await page.keyboard.press('Control+P');
      const input = page.locator('.quick-input-widget .quick-input-box input');
      await input.waitFor({ state: 'visible', timeout: 5000 });
      await input.fill(path);
      const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: tab }).first();
      await row.waitFor({ state: 'visible', timeout: 5000 });
      await page.keyboard.press('Enter');
      await page.locator('.editor-group-container.active .tab.active', { hasText: tab }).waitFor({ timeout: 5000 });
      return true;
    },
    `Quick Open could not open ${path}`,
    ms,
  );
}

async function goToLine(page, line) {
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`:${line}`);
  await page.keyboard.press('Enter');
  await input.waitFor({ state: 'hidden' });
}

/** The screen rectangle of `word` inside the editor line whose text contains `lineText`. */
async function wordRect(page, lineText, word) {
  return page.evaluate(
    ([lineText, word]) => {
      const norm = (s) => s.replace(/\u00a0/g, ' ');
      const editor = document.querySelector('.editor-group-container.active .monaco-editor .view-lines');
      const line = [...(editor ? editor.querySelectorAll('.view-line') : [])].find((l) =>
        norm(l.textContent).includes(lineText),
      );
      if (!line) {
        return null;
      }
      const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const at = norm(n.data).indexOf(word);
        if (at >= 0) {
          const range = document.createRange();
          range.setStart(n, at);
          range.setEnd(n, at + word.length);
          const r = range.getBoundingClientRect();
          return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
        }
      }
      return null;
    },
    [lineText, word],
  );
}

/** The lines the active editor shows (the visible part), top to bottom, with their 1-based numbers. */
async function editorLines(page) {
  return page.evaluate(() => {
    const norm = (s) => s.replace(/\u00a0/g, ' ');
    const editor = document.querySelector('.editor-group-container.active .monaco-editor');
    if (!editor) {
      return [];
    }
    const numbers = new Map();
    for (const n of editor.querySelectorAll('.margin-view-overlays > div')) {
      const num = n.querySelector('.line-numbers');
      if (num && num.textContent.trim()) {
        numbers.set(n.style.top, Number(num.textContent.trim()));
      }
    }
    return [...editor.querySelectorAll('.view-lines > .view-line')]
      .map((l) => ({ top: parseFloat(l.style.top), line: numbers.get(l.style.top) ?? null, text: norm(l.textContent) }))
      .sort((a, b) => a.top - b.top)
      .map(({ line, text }) => ({ line, text }));
  });
}

/** Waits for the quick input whose title contains `title` (the widget is shared with the command palette). */
async function quickInput(page, title) {
  const widget = page.locator('.quick-input-widget');
  await until(
    async () => (await widget.isVisible()) && (await widget.locator('.quick-input-title').innerText()).includes(title),
    `no quick input titled "${title}"`,
    10000,
  );
  return widget.locator('.quick-input-box input');
}

/**
 * Runs "Memory Index: Remember…" as a user does: the command palette, `kind`
 * picked in the quick pick (typed, then Enter), the title and the file typed
 * into the two input boxes, each confirmed with Enter.
 */
async function remember(page, kind, title, file) {
  await runCommand(page, 'Memory Index: Remember');
  const pick = await quickInput(page, 'Memory Index: Remember (1/3)');
  await pick.fill(kind);
  await until(
    async () => (await page.locator('.quick-input-widget .monaco-list-row.focused').first().innerText()).trim().startsWith(kind),
    `the quick pick does not offer "${kind}"`,
    10000,
  );
  await page.keyboard.press('Enter');
  const titleBox = await quickInput(page, 'Memory Index: Remember (2/3)');
  await titleBox.fill(title);
  await page.keyboard.press('Enter');
  const fileBox = await quickInput(page, 'Memory Index: Remember (3/3)');
  await fileBox.fill(file);
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10000 });
}

/** The entry lines of the index section `## path` in `text`. */
function sectionLines(text, path) {
  const lines = text.split(/\r?\n/);
  const start = lines.indexOf(`## ${path}`);
  if (start < 0) {
    return null;
  }
  const end = lines.findIndex((l, i) => i > start && /^#{1,2} /.test(l));
  return lines.slice(start + 1, end < 0 ? lines.length : end);
}

async function notifications(page) {
  return (await page.locator('.notifications-toasts .notification-list-item').allInnerTexts()).map((t) =>
    t.replace(/\s+/g, ' ').trim(),
  );
}

async function activeTab(page) {
  return (await page.locator('.editor-group-container.active .tab.active .label-name').first().innerText()).trim();
}

async function cursorStatus(page) {
  const text = await page.locator('.statusbar-item', { hasText: /^Ln \d+, Col \d+/ }).first().innerText();
  const m = /Ln (\d+), Col (\d+)/.exec(text);
  return m ? { line: Number(m[1]), col: Number(m[2]) } : null;
}

async function main() {
  const headingLine =
    fs
      .readFileSync(path.join(folder, 'agents/decisions', DECISION_FILE), 'utf8')
      .split(/\r?\n/)
      .findIndex((l) => l.replace(/^#+\s*/, '') === HEADING) + 1;
  if (headingLine === 0) {
    throw new Failure(`the demo has no heading "${HEADING}" in ${DECISION_FILE}`);
  }

  const entryLine =
    fs
      .readFileSync(path.join(folder, 'agents/memory-index.md'), 'utf8')
      .split(/\r?\n/)
      .findIndex((l) => l.startsWith(`${ENTRY} `) || l === ENTRY) + 1;
  if (entryLine === 0) {
    throw new Failure(`the demo index has no entry "${ENTRY}"`);
  }
  const indexFile = path.join(folder, 'agents/memory-index.md');
  const decisionFile = path.join(folder, 'agents/decisions', DECISION_FILE);
  const headingLevel = /^#+/.exec(
    fs
      .readFileSync(decisionFile, 'utf8')
      .split(/\r?\n/)
      .find((l) => l.replace(/^#+\s*/, '') === HEADING),
  )[0];
  // The scratch file the user types the body into (not a decision file: outside agents/).
  fs.writeFileSync(path.join(folder, SCRATCH), '# Scratch\n\n');

  fs.mkdirSync(shots, { recursive: true });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    chromiumSandbox: false,
    viewport: { width: 1280, height: 800 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(30000);
  const step = async (name, fn) => {
    const t = Date.now();
    console.log(`-- ${name}`);
    try {
      await fn();
    } catch (err) {
      await page.screenshot({ path: path.join(shots, 'failure.png') }).catch(() => {});
      throw err instanceof Failure ? new Failure(`${name}: ${err.message}`) : err;
    }
    log(`ok (${((Date.now() - t) / 1000).toFixed(1)} s)`);
  };

  try {
    await step('open the demo folder in code-server', async () => {
      await page.goto(`${url}/?folder=${encodeURIComponent(folder)}`);
      await until(() => page.locator('.monaco-workbench .part.statusbar').isVisible(), 'the workbench did not load', 60000);
    });

    await step('open agents/memory-index.md', async () => {
      await quickOpen(page, 'agents/memory-index.md', 'memory-index.md', 60000);
      await until(() => wordRect(page, ENTRY, HOVER_WORD), `the editor does not show "${ENTRY}"`);
    });

    await step('hide the side bar (room for the screenshots)', async () => {
      await runCommand(page, 'View: Toggle Primary Side Bar Visibility');
      await until(async () => !(await page.locator('.part.sidebar').isVisible()), 'the side bar stayed open', 10000);
    });

    await step('diagnostics from memory-index-lsp (orphan-entry in Problems, squiggles)', async () => {
      await runCommand(page, 'View: Focus Problems');
      // Filter the list: the orphan entry and the heading it resembles.
      await page.locator('.markers-panel-container, .pane-body').first().waitFor();
      await page.getByPlaceholder(/^Filter \(e\.g\./).first().fill(PROBLEMS_FILTER);
      const row = page.locator('.markers-panel .monaco-list-row', { hasText: ORPHAN }).first();
      await until(
        async () => {
          await checkNoServerError(page);
          return row.isVisible();
        },
        'no orphan-entry finding for "/when verifying payment webhooks" in the Problems panel',
        90000,
      );
      const text = (await row.innerText()).replace(/\s+/g, ' ');
      if (!/orphan-entry/.test(text)) {
        throw new Failure(`the Problems row lacks the rule code orphan-entry: ${text}`);
      }
      log(`Problems: ${text}`);
      const squiggles = await until(
        () => page.locator('.editor-group-container.active .monaco-editor .squiggly-error').count(),
        'no error squiggles in the index editor',
      );
      log(`${squiggles} error squiggles in the editor`);
      await page.screenshot({ path: path.join(shots, 'diagnostics.png') });
    });

    await step(`hover "${ENTRY}" shows the resolver output`, async () => {
      await goToLine(page, entryLine);
      const hover = page.locator('.monaco-hover:not(.hidden) .monaco-hover-content');
      const text = await until(
        async () => {
          const at = await wordRect(page, ENTRY, HOVER_WORD);
          if (!at) {
            return null;
          }
          // Move off and back on so every attempt starts a new hover.
          await page.mouse.move(at.x, at.y + 300);
          await page.mouse.move(at.x, at.y);
          await hover.first().waitFor({ state: 'visible', timeout: 5000 });
          const t = await hover.first().innerText();
          return t.includes(HEADING) && /Source:/.test(t) ? t : null;
        },
        `the hover never showed "${HEADING}" and a "Source:" line`,
      );
      const h1 = await hover.first().locator('h1').count();
      if (h1 > 0) {
        throw new Failure('the hover renders the title as a large H1 heading');
      }
      const source = text.split('\n').find((l) => l.includes('Source:'));
      if (!source.includes(`agents/decisions/${DECISION_FILE}`)) {
        throw new Failure(`the hover's Source line names another file: ${source}`);
      }
      log(`hover: ${HEADING} / ${source.trim()}`);
      await opaque(hover.first());
      await page.screenshot({ path: path.join(shots, 'hover.png') });
    });

    await step('the "Memory Index" output channel has the start line (version, settings)', async () => {
      const line = await until(() => startLine(logs), 'no "memory-index-lsp <version> started" line in the Memory Index log', 15000);
      log(line.trim());
      if (!/\/server\/memory-index-lsp(\.exe)?;/.test(line) || !line.includes('/extensions/')) {
        throw new Failure(`the server is not the one the extension carries: ${line.trim()}`);
      }
    });

    await step(`go to definition (F12) from "${ENTRY}"`, async () => {
      await page.mouse.move(5, 5);
      await page.keyboard.press('Escape');
      const at = await wordRect(page, ENTRY, HOVER_WORD);
      await page.mouse.click(at.x, at.y);
      await page.keyboard.press('F12');
      await until(
        async () => (await activeTab(page)) === DECISION_FILE,
        `the active editor did not change to ${DECISION_FILE}`,
        15000,
      );
      const pos = await until(async () => {
        const p = await cursorStatus(page);
        return p && p.line === headingLine ? p : null;
      }, `the cursor is not on line ${headingLine} ("${HEADING}") of ${DECISION_FILE}`);
      log(`now in ${DECISION_FILE} at Ln ${pos.line}, Col ${pos.col}`);
      await page.screenshot({ path: path.join(shots, 'definition.png') });
    });

    await step(`Remember… writes "${REMEMBER_HEADING}" (the selection as its body) into ${DECISION_FILE} and the index`, async () => {
      const indexBefore = fs.readFileSync(indexFile, 'utf8');
      if (indexBefore.includes(REMEMBER_ENTRY)) {
        throw new Failure(`the demo index has "${REMEMBER_ENTRY}" already`);
      }
      // The body: a paragraph typed at the end of a Markdown file, then selected.
      await quickOpen(page, SCRATCH, SCRATCH, 30000);
      await page.locator('.editor-group-container.active .monaco-editor textarea').first().focus();
      await page.keyboard.press('Control+End');
      for (const [i, l] of REMEMBER_BODY.entries()) {
        if (i > 0) {
          await page.keyboard.press('Escape'); // no suggestion takes the Enter
          await page.keyboard.press('Enter');
        }
        await page.keyboard.type(l);
      }
      await page.keyboard.press('Escape');
      for (let i = 1; i < REMEMBER_BODY.length; i++) {
        await page.keyboard.press('Shift+ArrowUp');
      }
      await page.keyboard.press('Shift+Home');
      const selected = REMEMBER_BODY.join('\n').length;
      await until(
        async () =>
          (await page.locator('.statusbar-item', { hasText: /^Ln \d+, Col \d+/ }).first().innerText()).includes(
            `(${selected} selected)`,
          ),
        `the status bar does not show the ${selected} characters of the typed paragraph as selected`,
        10000,
      );

      await remember(page, 'when', REMEMBER_TITLE, DECISION_FILE);

      // What the user sees: the decision file, the cursor on the new heading, the body under it.
      const heading = `${headingLevel} ${REMEMBER_HEADING}`;
      await until(
        async () => {
          await checkNoServerError(page);
          const bad = (await notifications(page)).find((t) => /Memory Index/.test(t));
          if (bad) {
            throw new Failure(`the extension reported: ${bad}`);
          }
          return (await activeTab(page)) === DECISION_FILE;
        },
        `the active editor did not change to ${DECISION_FILE}`,
        15000,
      );
      const at = await until(async () => {
        const lines = await editorLines(page);
        const i = lines.findIndex((l) => l.text === heading);
        return i >= 0 && lines[i + 2] && lines[i + 2].text === REMEMBER_BODY[0] ? lines[i] : null;
      }, `the editor does not show "${heading}" followed by the selected paragraph`);
      const pos = await until(async () => {
        const p = await cursorStatus(page);
        return p && p.line === at.line ? p : null;
      }, `the cursor is not on line ${at.line} ("${heading}") of ${DECISION_FILE}`);
      log(`editor: ${DECISION_FILE} shows "${heading}" at Ln ${pos.line}, the cursor on it`);

      // What is on disk: the section in the decision file, the entry in its index section.
      const disk = await until(
        () => {
          const index = fs.readFileSync(indexFile, 'utf8');
          const decision = fs.readFileSync(decisionFile, 'utf8');
          return index.includes(REMEMBER_ENTRY) && decision.includes(heading) ? { index, decision } : null;
        },
        `agents/memory-index.md and agents/decisions/${DECISION_FILE} on disk do not have the new entry and heading`,
        15000,
      ).catch(async (err) => {
        const dirty = await page.locator('.tab.dirty .label-name').allInnerTexts();
        throw new Failure(`${err.message}; unsaved (dirty) editors: ${dirty.join(', ') || 'none'}`);
      });
      const section = sectionLines(disk.index, `agents/decisions/${DECISION_FILE}`);
      if (!section || !section.includes(REMEMBER_ENTRY)) {
        throw new Failure(
          `"${REMEMBER_ENTRY}" is not in the index section "## agents/decisions/${DECISION_FILE}": ${JSON.stringify(section)}`,
        );
      }
      const written = disk.decision.split(/\r?\n/);
      const h = written.indexOf(heading);
      if (h + 1 !== at.line || written.slice(h + 2, h + 2 + REMEMBER_BODY.length).join('\n') !== REMEMBER_BODY.join('\n')) {
        throw new Failure(
          `${DECISION_FILE} on disk does not have "${heading}" at line ${at.line} followed by the selected paragraph:\n` +
            written.slice(Math.max(h, 0)).join('\n'),
        );
      }
      log(`disk: "${REMEMBER_ENTRY}" under "## agents/decisions/${DECISION_FILE}", "${heading}" at line ${h + 1}`);
      await page.screenshot({ path: path.join(shots, 'remember.png') });
    });

    await step(`Remember… again with the same title: the refusal is shown, nothing changes`, async () => {
      const index = fs.readFileSync(indexFile, 'utf8');
      const decision = fs.readFileSync(decisionFile, 'utf8');
      const heading = `${headingLevel} ${REMEMBER_HEADING}`;
      await remember(page, 'when', REMEMBER_TITLE, DECISION_FILE);
      const toast = page.locator('.notifications-toasts .notification-list-item', { hasText: EXISTS }).first();
      await until(() => toast.isVisible(), `no notification saying "${EXISTS.source}"`, 15000);
      const text = (await toast.locator('.notification-list-item-message').innerText()).replace(/\s+/g, ' ').trim();
      if (!(await toast.locator('.codicon-error').count())) {
        throw new Failure(`the refusal is not shown as an error: ${text}`);
      }
      if (!text.includes(REMEMBER_HEADING)) {
        throw new Failure(`the refusal does not name "${REMEMBER_HEADING}": ${text}`);
      }
      log(`error notification: ${text}`);
      // A toast shows one line: is the reason in the part the user sees before expanding it?
      const message = toast.locator('.notification-list-item-message');
      const hidden = await message.evaluate((el, reason) => {
        const box = el.getBoundingClientRect();
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const at = n.data.indexOf(reason);
          if (at >= 0) {
            const range = document.createRange();
            range.setStart(n, at);
            range.setEnd(n, at + reason.length);
            return range.getBoundingClientRect().right > box.right + 1;
          }
        }
        return el.scrollWidth > el.clientWidth + 1;
      }, 'exists already');
      if (hidden) {
        log('the toast cuts the message before "exists already" (the user expands it to read why): expanded for the screenshot');
        await toast.hover();
        const expand = toast.locator('.codicon-notifications-expand');
        if (await expand.count()) {
          await expand.first().click();
        }
      }
      // Give a late edit the time to arrive, then compare.
      await new Promise((r) => setTimeout(r, 1500));
      if (fs.readFileSync(indexFile, 'utf8') !== index || fs.readFileSync(decisionFile, 'utf8') !== decision) {
        throw new Failure('the refused Remember changed agents/memory-index.md or the decision file on disk');
      }
      const dirty = await page.locator('.tab.dirty .label-name').allInnerTexts();
      if (dirty.some((d) => d === DECISION_FILE || d === 'memory-index.md')) {
        throw new Failure(`the refused Remember left unsaved changes in: ${dirty.join(', ')}`);
      }
      const shown = (await editorLines(page)).filter((l) => l.text === heading).length;
      if (shown !== 1) {
        throw new Failure(`the editor shows "${heading}" ${shown} times`);
      }
      log('agents/memory-index.md and the decision file are unchanged on disk and in the editor');
      await page.screenshot({ path: path.join(shots, 'remember-refused.png') });
    });

    await step(`Remember… with auto save off (desktop VS Code's default): "${UNSAVED_HEADING}" reaches the disk`, async () => {
      // code-server (VS Code for the web) saves after a delay by default; desktop VS Code does not.
      const settingsFile = path.join(logs, '..', 'User', 'settings.json');
      await runCommand(page, 'File: Toggle Auto Save');
      await until(
        () => /"files\.autoSave"\s*:\s*"off"/.test(fs.readFileSync(settingsFile, 'utf8')),
        `"File: Toggle Auto Save" did not set files.autoSave to "off" in ${settingsFile}`,
        10000,
      );
      const heading = `${headingLevel} ${UNSAVED_HEADING}`;
      // Usually the index is not open in an editor: close all but the decision file.
      await page.keyboard.press('Escape');
      await runCommand(page, 'View: Close Other Editors in Group');
      await until(
        async () => (await page.locator('.editor-group-container.active .tab .label-name').allInnerTexts()).join() === DECISION_FILE,
        `editors other than ${DECISION_FILE} stayed open`,
        10000,
      );
      // No selection: the body is the extension's placeholder.
      await remember(page, 'when', UNSAVED_TITLE, DECISION_FILE);
      await until(async () => {
        await checkNoServerError(page);
        const bad = (await notifications(page)).find((t) => /Memory Index/.test(t) && !EXISTS.test(t));
        if (bad) {
          throw new Failure(`the extension reported: ${bad}`);
        }
        return (await editorLines(page)).some((l) => l.text === heading);
      }, `the editor does not show "${heading}"`);
      log(`editor: ${DECISION_FILE} shows "${heading}"`);
      await until(
        () =>
          fs.readFileSync(indexFile, 'utf8').includes(UNSAVED_ENTRY) &&
          fs.readFileSync(decisionFile, 'utf8').includes(heading),
        `agents/memory-index.md and agents/decisions/${DECISION_FILE} on disk do not have "${UNSAVED_ENTRY}" and "${heading}"`,
        10000,
      ).catch(async (err) => {
        const dirty = await page.locator('.tab.dirty .label-name').allInnerTexts();
        const badge = (await page.locator('.activitybar .action-item .badge-content').allInnerTexts()).filter((b) => b.trim());
        await page.screenshot({ path: path.join(shots, 'remember-unsaved.png') });
        throw new Failure(
          `${err.message}; unsaved (dirty) editors: ${dirty.join(', ') || 'none'}; ` +
            `activity bar badges (Explorer: unsaved files): ${badge.join(', ') || 'none'}; see remember-unsaved.png`,
        );
      });
      log(`disk: "${UNSAVED_ENTRY}" and "${heading}" written`);
    });
  } finally {
    await context.close();
  }
}

main().then(
  () => console.log('vscode e2e: all checks passed'),
  (err) => {
    console.error(`FAIL ${err instanceof Failure ? err.message : err.stack || err}`);
    process.exit(1);
  },
);
