// The HTML reports in a real browser: Debian's chromium, headless, driven by playwright-core
// (npm ci in this folder; scripts/install-deps runs it). One browser for every check:
//   - each report kind (a run's results, a comparison, an A/A noise report, a bench binary's
//     run against a baseline) opens from a file with no request and no console error;
//   - every chart is drawn: the marks counted per chart against what the fixtures hold;
//   - the summary table sorts and filters;
//   - a benchmark named </script><img src=x onerror=alert(1)> runs nothing and shows as text.
// Usage: node report_test.mjs BENCHKIT_TOOL WORK_FOLDER [SCREENSHOT_FOLDER]
// Prints one line per check and "N passed, N failed"; exit status 1 when a check failed.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { check, clean, finish, launch, open as openPage } from './browser_checks.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const [tool, work, shots] = process.argv.slice(2);
if (!tool || !work) {
  console.error('usage: node report_test.mjs BENCHKIT_TOOL WORK_FOLDER [SCREENSHOT_FOLDER]');
  process.exit(2);
}
fs.mkdirSync(work, { recursive: true });
execFileSync('python3', [path.join(here, 'make_fixtures.py'), work]);
const expected = JSON.parse(fs.readFileSync(path.join(work, 'expected.json'), 'utf8'));
const at = (name) => path.join(work, name);
const benchkit = (...args) => execFileSync(tool, args, { stdio: ['ignore', 'pipe', 'pipe'] });
benchkit('report', at('results.json'), '--format', 'html', '--out', at('results.html'));
benchkit('compare', at('base.json'), at('new.json'), '--format', 'html', '--out', at('comparison.html'));
// A comparison's JSON alone, as benchkit report renders it: no interval, rate or sample count.
benchkit('compare', at('base.json'), at('new.json'), '--format', 'json', '--out', at('comparison.json'));
benchkit('report', at('comparison.json'), '--format', 'html', '--out', at('comparison-alone.html'));
// Rounds in both orders whose second process runs faster: compared as an AB/BA crossover.
benchkit('compare', at('order_base.json'), at('order_new.json'), '--format', 'html', '--out', at('crossover.html'));
benchkit('noise', at('noise.json'), '--format', 'console', '--html', at('noise.html'));
// benchkit run: two commands in interleaved rounds, compared against the first.
benchkit('run', '--runs', '4', '--quiet', '--html', at('run.html'), '--cmd', 'true', '--cmd', 'true second');
// --html beside another format writes the same page as --format html.
benchkit('report', at('results.json'), '--format', 'json', '--out', at('results-copy.json'), '--html', at('results-2.html'));

const { browser, context } = await launch();
const open = (file) => openPage(context, file);

// Marks in the dots paths of a chart: one "M" per sample drawn.
const dotCount = (svg) =>
  [...svg.querySelectorAll('path.dots')].reduce((n, p) => n + (p.getAttribute('d').match(/M/g) || []).length, 0);

// ---- results ----------------------------------------------------------------------------
{
  const { page, seen } = await open(at('results.html'));
  if (shots) await page.screenshot({ path: path.join(shots, 'report-results.png') });
  const summary = await page.$$eval('#summary-table tbody tr', (rows) => rows.map((r) => r.dataset.name));
  check('results: a summary row per benchmark', summary.length === Object.keys(expected.samples).length, summary.length);
  check('results: the failed benchmark first', summary[0] === 'crashes', summary[0]);
  const context = await page.$$eval('dl.context dt', (dts) => dts.map((d) => d.textContent));
  check('results: the run context is shown', ['machine', 'commit', 'build', 'date', 'tool'].every((k) => context.includes(k)), context.join(','));

  // The hostile name: shown as text, no image element, no script ran.
  const hostileShown = await page.$$eval('#summary-table td.name', (cells, name) => cells.some((c) => c.textContent === name), expected.hostile);
  check('results: the hostile name is shown as text', hostileShown);
  await page.evaluate(() => window.benchkitReport.drawAll());
  const images = await page.$$eval('img', (imgs) => imgs.length);
  check('results: the hostile name made no element', images === 0, images);

  // Sorting: by median ascending, then descending; rows without a median last.
  await page.click('#summary-table th[data-key="median"]');
  const ascending = await page.$$eval('#summary-table tbody tr', (rows) =>
    rows.map((r) => r.querySelector('td.num').textContent));
  const medians = await page.evaluate(() => {
    const data = JSON.parse(document.getElementById('benchkit-data').textContent);
    const byName = new Map(data.summary.map((r) => [r.name, r.median]));
    return [...document.querySelectorAll('#summary-table tbody tr')].map((r) => byName.get(r.dataset.name));
  });
  const known = medians.filter((m) => m !== undefined && m !== null);
  const sortedUp = known.every((m, i) => i === 0 || known[i - 1] <= m);
  check('results: sorted by median, ascending', sortedUp && known.length >= 10, ascending.join(' '));
  await page.click('#summary-table th[data-key="median"]');
  const down = await page.evaluate(() => {
    const data = JSON.parse(document.getElementById('benchkit-data').textContent);
    const byName = new Map(data.summary.map((r) => [r.name, r.median]));
    return [...document.querySelectorAll('#summary-table tbody tr')].map((r) => byName.get(r.dataset.name)).filter((m) => m !== undefined);
  });
  check('results: sorted by median, descending', down.every((m, i) => i === 0 || down[i - 1] >= m));
  const sortState = await page.$eval('#summary-table th[data-key="median"]', (th) => th.getAttribute('aria-sort'));
  check('results: the sorted column says so', sortState === 'descending', sortState);
  await page.click('#summary-table th[data-key="name"]');
  const names = await page.$$eval('#summary-table tbody tr', (rows) => rows.map((r) => r.dataset.name));
  check('results: sorted by name', names.every((n, i) => i === 0 || names[i - 1].localeCompare(n) <= 0), names.join(' | '));

  // Filtering by name.
  await page.fill('#filter', 'kind=text');
  const visible = await page.$$eval('#summary-table tbody tr', (rows) => rows.filter((r) => !r.hidden).map((r) => r.dataset.name));
  check('results: the filter keeps the matching rows', visible.length === 4 && visible.every((n) => n.includes('kind=text')), visible.join(', '));
  const shown = await page.$eval('#shown', (s) => s.textContent);
  check('results: the filter says how many are shown', shown.startsWith('4 of '), shown);
  await page.fill('#filter', '');

  // Charts: the sweep's points, the phases' bars, every sample in each distribution and sequence.
  const sweepPoints = await page.$$eval('#sweeps svg[data-chart="line"]', (svgs) => svgs.map((s) => s.querySelectorAll('circle.point').length));
  check('results: a time and a throughput chart of the sweep', sweepPoints.length === 2, sweepPoints.length);
  check('results: every sweep point drawn', sweepPoints.every((n) => n === expected.sweep_points), sweepPoints.join(','));
  const lines = await page.$$eval('#sweeps svg[data-chart="line"]', (svgs) => svgs[0].querySelectorAll('path.line').length);
  check('results: one line per value of the other parameter', lines === 2, lines);
  const bars = await page.$$eval('svg[data-chart="phases"] rect.bar', (r) => r.length);
  check('results: a bar per scenario phase', bars === expected.phases, bars);
  const facts = await page.$$eval('svg[data-chart="phases"] text.facts', (t) => t.map((x) => x.textContent));
  check('results: phases show throughput, CPU share and peak RSS', facts.every((f) => f.includes('/s') && f.includes('CPU') && f.includes('peak RSS')), facts.join(' | '));
  const perBenchmark = await page.evaluate(() => {
    const out = {};
    for (const s of document.querySelectorAll('section.bench')) {
      const count = (kind) => {
        const svg = s.querySelector(`svg[data-chart="${kind}"]`);
        if (!svg) return 0;
        return [...svg.querySelectorAll('path.dots')].reduce((n, p) => n + (p.getAttribute('d').match(/M/g) || []).length, 0);
      };
      out[s.querySelector('h3').textContent] = {
        distribution: count('distribution'),
        samples: count('samples'),
        violin: s.querySelectorAll('svg[data-chart="distribution"] path.violin').length,
        slow: [...s.querySelectorAll('svg[data-chart="samples"] path.dots.slow')].reduce((n, p) => n + (p.getAttribute('d').match(/M/g) || []).length, 0),
        outliers: [...s.querySelectorAll('svg[data-chart="samples"] path.dots.outlier')].reduce((n, p) => n + (p.getAttribute('d').match(/M/g) || []).length, 0),
      };
    }
    return out;
  });
  let allDrawn = true;
  let detail = '';
  for (const [name, count] of Object.entries(expected.samples)) {
    if (name.startsWith('pipeline/')) continue; // phases: one sample per run, drawn too
    const got = perBenchmark[name];
    const want = count;
    if (!got || got.distribution !== want || got.samples !== want || (want >= 3 && got.violin !== 1)) {
      allDrawn = false;
      detail += `${name}: ${JSON.stringify(got)} want ${want}; `;
    }
  }
  check('results: each benchmark draws every sample twice (distribution and order) and a violin', allDrawn, detail);
  check('results: the slow-machine samples are marked', perBenchmark.parse_json.slow === expected.slow.parse_json, JSON.stringify(perBenchmark.parse_json));
  check('results: the outliers are marked', perBenchmark.parse_json.outliers >= 3, JSON.stringify(perBenchmark.parse_json));
  const failure = await page.$eval('#b-' + (await page.evaluate(() => {
    const data = JSON.parse(document.getElementById('benchkit-data').textContent);
    return data.summary.find((r) => r.name === 'crashes').detail;
  })) + ' p.failure', (p) => p.textContent);
  check('results: the failed benchmark says why', failure.includes('crashed'), failure);
  clean('results', seen);
  if (shots) {
    const section = await page.$('section.bench[data-drawn="1"]:has(path.dots.slow)');
    if (section) await section.screenshot({ path: path.join(shots, 'report-benchmark.png') });
  }
  await page.close();
}

// ---- the same page from --html ------------------------------------------------------------
{
  const a = fs.readFileSync(at('results.html'), 'utf8');
  const b = fs.readFileSync(at('results-2.html'), 'utf8');
  check('--html writes the page --format html prints', a === b);
}

// ---- comparison ----------------------------------------------------------------------------
{
  const { page, seen } = await open(at('comparison.html'));
  if (shots) await page.screenshot({ path: path.join(shots, 'report-comparison.png') });
  const verdicts = await page.$$eval('#summary-table tbody tr', (rows) => rows.map((r) => r.querySelector('td.verdict').textContent));
  check('comparison: regressions first', verdicts[0] === 'regressed', verdicts.join(','));
  check('comparison: one regressed, one improved', verdicts.filter((v) => v === 'regressed').length === 1 && verdicts.filter((v) => v === 'improved').length === 1, verdicts.join(','));
  const points = await page.$$eval('svg[data-chart="forest"] circle.point', (c) => c.length);
  check('comparison: a forest-plot point per compared benchmark', points === expected.compared, points);
  const rounds = await page.$$eval('svg[data-chart="forest"] circle.round', (c) => c.length);
  check('comparison: the paired round ratios as points', rounds === expected.compared * expected.rounds, rounds);
  const band = await page.$$eval('svg[data-chart="forest"] rect.band', (r) => r.map((x) => Number(x.getAttribute('width'))));
  check('comparison: the noise band is drawn', band.length === 1 && band[0] > 0, band.join(','));
  const regressedColour = await page.$eval('svg[data-chart="forest"] g.verdict-regressed circle.point', (c) => getComputedStyle(c).fill);
  check('comparison: regressions drawn red', regressedColour === 'rgb(198, 40, 40)', regressedColour);
  await page.evaluate(() => window.benchkitReport.drawAll());
  const drawn = await page.$$eval('section.bench svg[data-chart="distribution"]', (s) => s.length);
  check('comparison: the new run\'s distributions under the verdicts', drawn === expected.compared, drawn);
  const images = await page.$$eval('img', (imgs) => imgs.length);
  check('comparison: the hostile name made no element', images === 0, images);
  clean('comparison', seen);
  await page.close();
}

// ---- a comparison's JSON alone ---------------------------------------------------------------
{
  const { page, seen } = await open(at('comparison-alone.html'));
  const headers = await page.$$eval('#summary-table thead th', (ths) => ths.map((t) => t.textContent));
  check('comparison alone: no column that no row fills', !headers.includes('95% CI') && !headers.includes('throughput') && !headers.includes('samples') && headers.includes('change'), headers.join(','));
  const cells = await page.$$eval('#summary-table tbody tr', (rows) => rows.map((r) => r.children.length));
  check('comparison alone: a cell per column in every row', cells.every((n) => n === headers.length), cells.join(','));
  const full = await open(at('results.html'));
  const kept = await full.page.$$eval('#summary-table thead th', (ths) => ths.map((t) => t.textContent));
  check('results: the interval, throughput and samples columns stay', kept.includes('95% CI') && kept.includes('throughput') && kept.includes('samples'), kept.join(','));
  clean('comparison alone', seen);
  clean('results (columns)', full.seen);
  await full.page.close();
  await page.close();
}

// ---- comparison of rounds in both orders ---------------------------------------------------
{
  const { page, seen } = await open(at('crossover.html'));
  if (shots) await page.screenshot({ path: path.join(shots, 'report-crossover.png') });
  const verdict = await page.$eval('#summary-table tbody tr td.verdict', (c) => c.textContent);
  check('crossover: the order cancels and the builds are unchanged', verdict === 'unchanged', verdict);
  const ys = async (cls) => page.$$eval(`svg[data-chart="forest"] circle.round.${cls}`, (c) => c.map((x) => Number(x.getAttribute('cy'))));
  const first = await ys('first');
  const second = await ys('second');
  const half = expected.order_rounds / 2;
  check('crossover: the rounds of each order as points of their own', first.length === half && second.length === half, `${first.length},${second.length}`);
  check('crossover: the baseline-first rounds above the others', Math.max(...first) < Math.min(...second), `${first}|${second}`);
  const title = await page.$eval('svg[data-chart="forest"] circle.point title', (t) => t.textContent);
  check('crossover: the point says the rounds were compared by order', title.includes('compared by order') && title.includes('% faster than the first'), title);
  clean('crossover', seen);
  await page.close();
}

// ---- noise ---------------------------------------------------------------------------------
{
  const { page, seen } = await open(at('noise.html'));
  if (shots) await page.screenshot({ path: path.join(shots, 'report-noise.png') });
  const dots = await page.$$eval('svg[data-chart="noise"] circle.process', (c) => c.length);
  check('noise: every process median drawn', dots === expected.noise_processes, dots);
  const rows = await page.$$eval('#noise table tr', (r) => r.length);
  check('noise: a table row per benchmark', rows === 1 + 3, rows);
  clean('noise', seen);
  await page.close();
}

// ---- benchkit run ------------------------------------------------------------------------
{
  const { page, seen } = await open(at('run.html'));
  const rows = await page.$$eval('#summary-table tbody tr', (r) => r.length);
  check('run: a summary row per command', rows === 2, rows);
  const points = await page.$$eval('svg[data-chart="forest"] circle.point', (c) => c.length);
  check('run: the second command compared against the first in the forest plot', points === 1, points);
  await page.evaluate(() => window.benchkitReport.drawAll());
  const sequences = await page.$$eval('svg[data-chart="samples"]', (s) => s.map((x) =>
    [...x.querySelectorAll('path.dots')].reduce((n, p) => n + (p.getAttribute('d').match(/M/g) || []).length, 0)));
  check('run: every run of each command drawn in order', sequences.length === 2 && sequences.every((n) => n === 4), sequences.join(','));
  clean('run', seen);
  await page.close();
}

await browser.close();
finish();
