// What the browser tests (report_test.mjs, history_test.mjs) share: Debian's chromium started
// headless, a page opened from its file with every request, console error and dialog recorded,
// and the checks counted.
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

let passed = 0;
let failed = 0;

// One line per check: "ok    NAME" or "FAIL  NAME: DETAIL".
export function check(name, ok, detail) {
  if (ok) {
    passed++;
    console.log(`ok    ${name}`);
  } else {
    failed++;
    console.log(`FAIL  ${name}${detail !== undefined ? ': ' + detail : ''}`);
  }
}

// Prints "N passed, N failed" and ends the process, with status 1 when a check failed.
export function finish() {
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

// The chromium of $BENCHKIT_CHROMIUM (default Debian's), headless, and a context of a fixed size.
export async function launch() {
  const chromiumPath = process.env.BENCHKIT_CHROMIUM || '/usr/bin/chromium';
  if (!fs.existsSync(chromiumPath)) {
    console.error(`error: ${chromiumPath} not found: run scripts/install-deps (Debian's chromium)`);
    process.exit(1);
  }
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    // CI runs as root, where chromium's sandbox cannot start.
    args: ['--no-sandbox', '--disable-gpu'],
  });
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  return { browser, context };
}

// Opens a report; returns the page with what it requested, logged and alerted.
export async function open(context, file) {
  const page = await context.newPage();
  const seen = { requests: [], errors: [], dialogs: [] };
  const url = pathToFileURL(file).href;
  page.on('request', (r) => {
    if (r.url() !== url) seen.requests.push(r.url());
  });
  page.on('console', (m) => {
    if (m.type() === 'error') seen.errors.push(m.text());
  });
  page.on('pageerror', (e) => seen.errors.push(String(e)));
  page.on('dialog', async (d) => {
    seen.dialogs.push(d.message());
    await d.dismiss();
  });
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector('body[data-ready="1"]', { timeout: 10000 });
  return { page, seen };
}

// The three checks every page passes: no request, no console error, no dialog.
export function clean(name, seen) {
  check(`${name}: no request leaves the page`, seen.requests.length === 0, seen.requests.join(', '));
  check(`${name}: no console error`, seen.errors.length === 0, seen.errors.join(' | '));
  check(`${name}: no dialog`, seen.dialogs.length === 0, seen.dialogs.join(', '));
}
