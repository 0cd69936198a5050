// Every hostile name of tests/reliability/hostile_names.json (HTML, attribute break-outs, SVG,
// Markdown, CSV formulas, backticks, JSON and terminal escapes) in the HTML pages, opened in
// Debian's chromium: no script of a name runs (window.pwned stays unset, no dialog), no element
// or attribute of a name is made (no img, iframe, injected SVG, style, b, on* attribute; every
// script and style is the page's own), no request leaves the page, and each name is shown as
// text in the summary table.
// Pages: a run's results (benchkit report), a comparison (benchkit compare), a real benchkit run
// of commands with those names (--html), and the history trend of the two results.
// Usage: node hostile_test.mjs BENCHKIT_TOOL WORK_FOLDER
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { check, clean, finish, launch, open as openPage } from './browser_checks.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const [tool, work] = process.argv.slice(2);
if (!tool || !work) {
  console.error('usage: node hostile_test.mjs BENCHKIT_TOOL WORK_FOLDER');
  process.exit(2);
}
fs.rmSync(work, { recursive: true, force: true });
fs.mkdirSync(work, { recursive: true });
const names = JSON.parse(fs.readFileSync(path.join(here, '..', 'reliability', 'hostile_names.json'), 'utf8'));
const at = (name) => path.join(work, name);
const env = { ...process.env, BENCHKIT_DIR: at('.benchkit') };
const benchkit = (...args) => execFileSync(tool, args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: work, env });

// A result of one benchmark per name; `factor` slows every other one (a comparison with verdicts).
function result(commit, date, factor) {
  let seed = 7;
  const noise = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648 - 0.5;
  };
  const benchmarks = names.map((name, i) => ({
    name,
    kind: 'micro',
    samples: Array.from({ length: 30 }, () => ({ ns: (100 + i) * (i % 2 ? factor : 1) * (1 + 0.01 * noise()), iters: 1000 })),
  }));
  return {
    schema: 'benchkit/result',
    version: 1,
    context: {
      date, tool_version: '0.1.0', hostname: 'hostile-host', os: 'Linux', kernel: 'Linux', cpu_model: 'cpu',
      logical_cpus: 2, build_type: 'Release', compiler: 'gcc', git: { commit, branch: 'main', dirty: false }, notes: [],
    },
    benchmarks,
  };
}
fs.writeFileSync(at('base.json'), JSON.stringify(result('a'.repeat(40), '2026-12-01T10:00:00Z', 1)));
fs.writeFileSync(at('new.json'), JSON.stringify(result('b'.repeat(40), '2026-12-01T11:00:00Z', 1.5)));
benchkit('report', at('base.json'), '--format', 'html', '--out', at('results.html'));
benchkit('compare', at('base.json'), at('new.json'), '--format', 'html', '--out', at('comparison.html'));
const commands = names.flatMap((name, i) => ['--cmd', `true ${i}`, '--name', name]);
benchkit('run', '--runs', '2', '--warmup', '0', '--quiet', ...commands, '--html', at('run.html'));
const store = at('history.db');
benchkit('history', 'add', '--store', store, at('base.json'), at('new.json'));
benchkit('history', 'trend', '.', '--store', store, '--format', 'html', '--out', at('trend.html'));

// Control characters are not text a page can show: compared without them and spaces.
const visible = (text) => text.replace(/[\x00-\x20\x7f?\ufffd]/g, '');

const { browser, context } = await launch();
for (const [page_name, file, named] of [
  ['results', 'results.html', '#summary-table td.name'],
  ['comparison', 'comparison.html', '#summary-table td.name'],
  ['run', 'run.html', '#summary-table td.name'],
  ['trend', 'trend.html', '#history svg[data-chart="line"] text.title'],
]) {
  const { page, seen } = await openPage(context, at(file));
  await page.evaluate(() => window.benchkitReport && window.benchkitReport.drawAll());
  // Give an onerror or onload of an injected element the time to fire.
  await page.waitForTimeout(200);
  const pwned = await page.evaluate(() => window.pwned);
  check(`${page_name}: no script of a name ran (window.pwned unset)`, pwned === undefined, pwned);
  const injected = await page.evaluate(() => ({
    elements: document.querySelectorAll('img, iframe, b, circle[r="9"], body style').length,
    handlers: [...document.querySelectorAll('*')].filter((e) => [...e.attributes].some((a) => /^on/i.test(a.name))).length,
    scripts: [...document.querySelectorAll('script')].filter((s) => !s.nonce && s.type !== 'application/json').length,
    styles: [...document.querySelectorAll('style')].filter((s) => !s.nonce && s.parentElement !== document.head).length,
    javascriptLinks: [...document.querySelectorAll('[href], [src]')].filter((e) => /javascript:/i.test(e.getAttribute('href') || e.getAttribute('src') || '')).length,
  }));
  check(`${page_name}: no element of a name (img, iframe, b, svg, style)`, injected.elements === 0, injected.elements);
  check(`${page_name}: no on* attribute anywhere`, injected.handlers === 0, injected.handlers);
  check(`${page_name}: every script is the page's own (nonce or data)`, injected.scripts === 0, injected.scripts);
  check(`${page_name}: no style of a name`, injected.styles === 0, injected.styles);
  check(`${page_name}: no javascript: link`, injected.javascriptLinks === 0, injected.javascriptLinks);
  const shown = await page.$$eval(named, (cells) => cells.map((c) => c.textContent));
  const texts = new Set(shown.map(visible));
  const missing = names.filter((name) => !texts.has(visible(name)) && ![...texts].some((t) => t.includes(visible(name))));
  check(`${page_name}: each of the ${names.length} names shown as text`, missing.length === 0, JSON.stringify(missing.slice(0, 3)));
  clean(page_name, seen);
  await page.close();
}
await browser.close();
fs.rmSync(work, { recursive: true, force: true });
finish();
