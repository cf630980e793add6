// Drives code-server (started by run.sh) in headless Debian Chromium and checks
// that the Memory Index extension shows the server's diagnostics, hover and
// go-to-definition on a copy of fixtures/demo. Screenshots go to MI_E2E_SHOTS.
// Environment: MI_E2E_URL, MI_E2E_FOLDER, MI_E2E_SHOTS, MI_E2E_PROFILE.
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
      // Quick Open (Ctrl+P) uses the workspace file search (code-server's ripgrep).
      await until(
        async () => {
          await page.keyboard.press('Escape');
          await page.keyboard.press('Control+P');
          const input = page.locator('.quick-input-widget .quick-input-box input');
          await input.waitFor({ state: 'visible', timeout: 5000 });
          await input.fill('agents/memory-index.md');
          const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'memory-index.md' }).first();
          await row.waitFor({ state: 'visible', timeout: 5000 });
          await page.keyboard.press('Enter');
          await page.locator('.editor-group-container.active .tab.active', { hasText: 'memory-index.md' }).waitFor({ timeout: 5000 });
          return true;
        },
        'Quick Open could not open agents/memory-index.md',
        60000,
      );
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
