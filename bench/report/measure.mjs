// Size and drawing time of the HTML report (docs/reports.md quotes what it prints):
//   - 100 benchmarks × 1,000 samples: the file's size, and in Debian's chromium (headless) the
//     time from navigation to the page built (summary, sections placed) and to every chart of
//     every benchmark drawn (window.benchkitReport.drawAll());
//   - 5,000 benchmarks × 100 samples: that it opens, and how long that takes.
// Each time is the median of RUNS loads in one browser. Targets (issue 18): ≤ 2 MB and ≤ 1 s
// for the first; the second must open.
// Usage: node bench/report/measure.mjs BENCHKIT_TOOL [WORK_FOLDER] [RUNS]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from '../../tests/browser/node_modules/playwright-core/index.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const [tool, workArg, runsArg] = process.argv.slice(2);
if (!tool) {
  console.error('usage: node bench/report/measure.mjs BENCHKIT_TOOL [WORK_FOLDER] [RUNS]');
  process.exit(2);
}
const work = workArg || fs.mkdtempSync(path.join(os.tmpdir(), 'benchkit-report-'));
const runs = Number(runsArg || 5);
const fixtures = path.join(here, '..', '..', 'tests', 'browser', 'make_fixtures.py');

function report(benchmarks, samples) {
  const folder = path.join(work, `${benchmarks}x${samples}`);
  execFileSync('python3', [fixtures, folder, '--benchmarks', String(benchmarks), '--samples', String(samples)]);
  const html = path.join(folder, 'report.html');
  const started = process.hrtime.bigint();
  execFileSync(tool, ['report', path.join(folder, 'large.json'), '--format', 'html', '--out', html]);
  const writeSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { html, bytes: fs.statSync(html).size, writeSeconds };
}

const median = (values) => {
  const s = values.slice().sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const browser = await chromium.launch({
  executablePath: process.env.BENCHKIT_CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});

async function load(file, drawAll) {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const started = Date.now();
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  await page.waitForSelector('body[data-ready="1"]', { timeout: 60000 });
  const ready = (Date.now() - started) / 1000;
  const timings = await page.evaluate(() => window.benchkitReport.timings);
  let all = null;
  let marks = 0;
  if (drawAll) {
    all = await page.evaluate(() => {
      const t0 = performance.now();
      window.benchkitReport.drawAll();
      // Layout and paint of what was drawn, not only the DOM calls.
      document.body.getBoundingClientRect();
      return (performance.now() - t0) / 1000;
    });
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve())));
    all += ready;
    marks = await page.evaluate(() =>
      [...document.querySelectorAll('path.dots')].reduce((n, p) => n + (p.getAttribute('d').match(/M/g) || []).length, 0));
  }
  await page.close();
  if (errors.length) throw new Error(`${file}: ${errors.join(' | ')}`);
  return { ready, all, marks, timings };
}

const small = report(100, 1000);
const smallLoads = [];
for (let i = 0; i < runs; i++) smallLoads.push(await load(small.html, true));
console.log(`machine: ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
console.log(`100 benchmarks x 1000 samples: ${(small.bytes / 1e6).toFixed(2)} MB (written in ${small.writeSeconds.toFixed(2)} s)`);
console.log(`  page built: median ${median(smallLoads.map((l) => l.ready)).toFixed(3)} s; every chart drawn: median ${median(smallLoads.map((l) => l.all)).toFixed(3)} s (${runs} loads, ${smallLoads[0].marks} sample marks)`);
console.log(`  parts (ms, last load): ${JSON.stringify(smallLoads[runs - 1].timings)}`);

const large = report(5000, 100);
const largeLoads = [];
for (let i = 0; i < Math.min(runs, 3); i++) largeLoads.push(await load(large.html, false));
console.log(`5000 benchmarks x 100 samples: ${(large.bytes / 1e6).toFixed(2)} MB (written in ${large.writeSeconds.toFixed(2)} s)`);
console.log(`  opens: page built in median ${median(largeLoads.map((l) => l.ready)).toFixed(3)} s (${largeLoads.length} loads; sections drawn as they scroll into view)`);
console.log(`  parts (ms, last load): ${JSON.stringify(largeLoads[largeLoads.length - 1].timings)}`);
await browser.close();
