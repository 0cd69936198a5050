// The history pages in a real browser: Debian's chromium, headless, driven by playwright-core (as
// report_test.mjs). A history of 40 commits (make_history.py) is recorded with `benchkit history
// add`, then:
//   - `history trend . --format html` and `--html FILE` write the same page;
//   - it opens from a file with no request, no console error and no dialog;
//   - one chart per benchmark, a point per commit with its CI bar, the step of "parse" marked as
//     a change point at its commit, and no point marked on the series without a step;
//   - each point's hover text names its commit and date;
//   - the benchmark named </script><img src=x onerror=alert(1)> runs nothing and shows as text;
//   - `history report --since DATE --format html` adds the comparison of the period (summary
//     table, forest plot) above the same charts.
// Usage: node history_test.mjs BENCHKIT_TOOL WORK_FOLDER [SCREENSHOT_FOLDER]
// Prints one line per check and "N passed, N failed"; exit status 1 when a check failed.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { check, clean, finish, launch, open as openPage } from './browser_checks.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const [tool, work, shots] = process.argv.slice(2);
if (!tool || !work) {
  console.error('usage: node history_test.mjs BENCHKIT_TOOL WORK_FOLDER [SCREENSHOT_FOLDER]');
  process.exit(2);
}
fs.rmSync(work, { recursive: true, force: true });
fs.mkdirSync(work, { recursive: true });
execFileSync('python3', [path.join(here, 'make_history.py'), work]);
const expected = JSON.parse(fs.readFileSync(path.join(work, 'expected.json'), 'utf8'));
const at = (name) => path.join(work, name);
const store = at('history.db');
const benchkit = (...args) => execFileSync(tool, args, { stdio: ['ignore', 'pipe', 'pipe'] });
benchkit('history', 'add', ...expected.files, '--store', store);
benchkit('history', 'trend', '.', '--store', store, '--format', 'html', '--out', at('trend.html'));
benchkit('history', 'trend', '.', '--store', store, '--format', 'json', '--out', at('trend.json'), '--html', at('trend-2.html'));
benchkit('history', 'report', '--since', '2026-11-01', '--store', store, '--format', 'html', '--out', at('report.html'));

const { browser, context } = await launch();
const open = (file) => openPage(context, file);

// Each chart of the history section: its title, points (marked or not, with their hover text)
// and CI bars.
const charts = (page) =>
  page.$$eval('#history svg[data-chart="line"]', (svgs) =>
    svgs.map((svg) => ({
      title: svg.querySelector('text.title').textContent,
      points: [...svg.querySelectorAll('circle.point')].map((c) => ({
        marked: c.classList.contains('marked'),
        hover: c.querySelector('title').textContent,
      })),
      bars: svg.querySelectorAll('line.ci').length,
    }))
  );

function checkCharts(name, drawn) {
  check(`${name}: a chart per benchmark`, drawn.length === expected.benchmarks, drawn.map((c) => c.title).join(' | '));
  const runs = expected.commits.length;
  check(`${name}: a point and a CI bar per commit`, drawn.every((c) => c.points.length === runs && c.bars === runs), drawn.map((c) => `${c.points.length}/${c.bars}`).join(','));
  const parse = drawn.find((c) => c.title === 'parse');
  const marked = parse ? parse.points.flatMap((p, i) => (p.marked ? [i] : [])) : [];
  check(`${name}: the step of parse is marked at its commit`, marked.length === 1 && marked[0] === expected.step_at, marked.join(','));
  const hash = drawn.find((c) => c.title === 'hash');
  check(`${name}: no change point on a series without a step`, hash && hash.points.every((p) => !p.marked));
  const hovers = parse ? parse.points.map((p) => p.hover) : [];
  const named = hovers.every((h, i) => h.includes(expected.commits[i].slice(0, 12)) && h.includes(expected.dates[i]));
  check(`${name}: each point's hover names its commit and date`, named && hovers.length === runs, hovers[0]);
  check(`${name}: the change point's hover says so`, hovers[expected.step_at] && hovers[expected.step_at].includes('change point'), hovers[expected.step_at]);
  check(`${name}: the hostile name is a chart title, as text`, drawn.some((c) => c.title === expected.hostile));
}

// ---- history trend ---------------------------------------------------------------------------
{
  const a = fs.readFileSync(at('trend.html'), 'utf8');
  const b = fs.readFileSync(at('trend-2.html'), 'utf8');
  check('trend: --html writes the page --format html prints', a === b);
  const { page, seen } = await open(at('trend.html'));
  checkCharts('trend', await charts(page));
  // A real hover over the change point: the pointer finds it, and its tooltip is its title.
  const point = await page.$('#history svg[data-chart="line"] circle.point.marked');
  if (point) await point.hover();
  const hovered = await page.evaluate(() => {
    const c = document.querySelector('#history circle.point.marked:hover');
    return c ? c.querySelector('title').textContent : '';
  });
  check('trend: hovering the change point reaches it', hovered.includes(expected.commits[expected.step_at].slice(0, 12)), hovered);
  const images = await page.$$eval('img', (imgs) => imgs.length);
  check('trend: the hostile name made no element', images === 0, images);
  clean('trend', seen);
  if (shots) {
    const section = await page.$('#history');
    await page.setViewportSize({ width: 1100, height: 1300 });
    if (section) await page.screenshot({ path: path.join(shots, 'report-history.png'), fullPage: false });
  }
  await page.close();
}

// ---- history report --------------------------------------------------------------------------
{
  const { page, seen } = await open(at('report.html'));
  const rows = await page.$$eval('#summary-table tbody tr', (r) => r.map((x) => x.querySelector('td.verdict').textContent));
  check('report: the comparison of the period in the summary table', rows.length === expected.benchmarks, rows.join(','));
  check('report: parse regressed from the first run to the newest, first in the table', rows[0] === 'regressed', rows.join(','));
  const forest = await page.$$eval('svg[data-chart="forest"] circle.point', (c) => c.length);
  check('report: a forest-plot point per benchmark', forest === expected.benchmarks, forest);
  checkCharts('report', await charts(page));
  const intro = await page.$eval('#history p', (p) => p.textContent);
  check('report: the intro names the runs compared', intro.includes(expected.commits[0].slice(0, 12)) && intro.includes(expected.commits[expected.commits.length - 1].slice(0, 12)), intro);
  const images = await page.$$eval('img', (imgs) => imgs.length);
  check('report: the hostile name made no element', images === 0, images);
  clean('report', seen);
  await page.close();
}

await browser.close();
fs.rmSync(work, { recursive: true, force: true });
finish();
