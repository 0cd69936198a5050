// benchkit's HTML report: builds the page from the JSON elements the report carries
// (src/report/html_reporter.cpp writes them) and draws every chart as SVG. Text reaches the page
// only through textContent and setAttribute, never as markup, so no name in the data can run a
// script. Each benchmark's section is drawn when it scrolls into view: its samples are a JSON
// element of their own, parsed then.
(function () {
  'use strict';
  const SVG = 'http://www.w3.org/2000/svg';
  const data = JSON.parse(document.getElementById('benchkit-data').textContent);
  const root = document.getElementById('report');
  // Each chart is this many units wide; CSS scales it to the page.
  const WIDTH = 760;

  // ---- elements ----------------------------------------------------------------------------
  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    if (attrs) for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  function sv(tag, attrs, text) {
    const e = document.createElementNS(SVG, tag);
    if (attrs) for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  function tip(node, text) {
    node.appendChild(sv('title', null, text));
    return node;
  }

  // ---- numbers, as the terminal report writes them -----------------------------------------
  function three(v) {
    if (v === 0) return '0';
    const magnitude = Math.floor(Math.log10(Math.abs(v)));
    return v.toFixed(Math.max(0, 2 - magnitude));
  }
  function duration(ns) {
    if (ns === undefined || ns === null || !isFinite(ns)) return '';
    const a = Math.abs(ns);
    if (a < 1e3) return three(ns) + ' ns';
    if (a < 1e6) return three(ns / 1e3) + ' µs';
    if (a < 1e9) return three(ns / 1e6) + ' ms';
    return three(ns / 1e9) + ' s';
  }
  function bytes(b) {
    const k = 1024;
    if (b < k) return three(b) + ' B';
    if (b < k * k) return three(b / k) + ' KiB';
    if (b < k * k * k) return three(b / k / k) + ' MiB';
    return three(b / k / k / k) + ' GiB';
  }
  function rate(v) {
    if (v < 1e3) return three(v) + ' /s';
    if (v < 1e6) return three(v / 1e3) + ' k/s';
    if (v < 1e9) return three(v / 1e6) + ' M/s';
    return three(v / 1e9) + ' G/s';
  }
  function byUnit(unit) {
    if (unit === 'ns') return duration;
    if (unit === 'B/s') return (v) => bytes(v) + '/s';
    if (unit === '/s') return rate;
    return (v) => three(v);
  }
  function percent(ratio) {
    const p = (ratio - 1) * 100;
    return (p >= 0 ? '+' : '') + p.toFixed(1) + '%';
  }

  // ---- scales and axes ---------------------------------------------------------------------
  function linear(d0, d1, r0, r1) {
    const span = d1 - d0 || 1;
    const f = (v) => r0 + ((v - d0) / span) * (r1 - r0);
    f.ticks = (n) => niceTicks(d0, d1, n);
    return f;
  }
  function logScale(d0, d1, r0, r1) {
    const l0 = Math.log(d0);
    const l1 = Math.log(d1);
    const span = l1 - l0 || 1;
    const f = (v) => r0 + ((Math.log(v) - l0) / span) * (r1 - r0);
    f.ticks = () => {
      const base = d1 / d0 >= 1000 ? 10 : 2;
      const out = [];
      let t = Math.pow(base, Math.ceil(Math.log(d0) / Math.log(base) - 1e-9));
      while (t <= d1 * (1 + 1e-9)) {
        out.push(t);
        t *= base;
      }
      return out.length > 12 ? out.filter((_, i) => i % 2 === 0) : out;
    };
    return f;
  }
  function niceTicks(lo, hi, n) {
    if (!(hi > lo)) return [lo];
    const raw = (hi - lo) / Math.max(1, n);
    const power = Math.pow(10, Math.floor(Math.log10(raw)));
    const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) || raw;
    const out = [];
    for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) {
      out.push(Math.abs(t) < step * 1e-9 ? 0 : t);
    }
    return out;
  }
  function extent(values) {
    let lo = Infinity;
    let hi = -Infinity;
    for (const v of values) {
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    if (lo === Infinity) return [0, 1];
    if (lo === hi) return [lo - Math.abs(lo) * 0.05 - 1e-9, hi + Math.abs(hi) * 0.05 + 1e-9];
    return [lo, hi];
  }
  function padded(range, share) {
    const pad = (range[1] - range[0]) * share;
    return [range[0] - pad, range[1] + pad];
  }

  // An SVG chart: `kind` names it for tests and styles; the plot area is inside the margins.
  function frame(kind, height, margin) {
    const svg = sv('svg', {
      viewBox: '0 0 ' + WIDTH + ' ' + height,
      width: WIDTH,
      height: height,
      class: 'chart',
      'data-chart': kind,
      role: 'img',
    });
    return {
      svg: svg,
      left: margin.left,
      right: WIDTH - margin.right,
      top: margin.top,
      bottom: height - margin.bottom,
      height: height,
    };
  }
  function xAxis(f, scale, format, label) {
    const g = sv('g', { class: 'axis' });
    g.appendChild(sv('line', { x1: f.left, x2: f.right, y1: f.bottom, y2: f.bottom }));
    for (const t of scale.ticks(6)) {
      const x = scale(t);
      if (x < f.left - 0.5 || x > f.right + 0.5) continue;
      g.appendChild(sv('line', { x1: x, x2: x, y1: f.bottom, y2: f.bottom + 4 }));
      g.appendChild(sv('text', { x: x, y: f.bottom + 16, 'text-anchor': 'middle' }, format(t)));
    }
    if (label) {
      g.appendChild(
        sv('text', { x: (f.left + f.right) / 2, y: f.bottom + 32, 'text-anchor': 'middle' }, label)
      );
    }
    f.svg.appendChild(g);
  }
  function yAxis(f, scale, format, label) {
    const g = sv('g', { class: 'axis' });
    g.appendChild(sv('line', { x1: f.left, x2: f.left, y1: f.top, y2: f.bottom }));
    for (const t of scale.ticks(5)) {
      const y = scale(t);
      if (y < f.top - 0.5 || y > f.bottom + 0.5) continue;
      g.appendChild(sv('line', { x1: f.left - 4, x2: f.left, y1: y, y2: y }));
      g.appendChild(sv('line', { x1: f.left, x2: f.right, y1: y, y2: y, class: 'grid' }));
      g.appendChild(sv('text', { x: f.left - 6, y: y + 4, 'text-anchor': 'end' }, format(t)));
    }
    if (label) {
      const x = 14;
      const y = (f.top + f.bottom) / 2;
      g.appendChild(
        sv('text', { x: x, y: y, transform: 'rotate(-90 ' + x + ' ' + y + ')', 'text-anchor': 'middle' }, label)
      );
    }
    f.svg.appendChild(g);
  }
  // Many points as one path of zero-length segments (round caps draw the dots): one element
  // for a thousand samples keeps a page of a hundred benchmarks quick to draw.
  function dots(points, cls, size) {
    let d = '';
    for (const p of points) d += 'M' + p[0].toFixed(1) + ' ' + p[1].toFixed(1) + 'h0';
    return sv('path', { d: d, class: 'dots ' + cls, 'stroke-width': size });
  }

  // ---- the page ----------------------------------------------------------------------------
  const verdictRank = {
    regressed: 0,
    invalid: 1,
    inconclusive: 2,
    improved: 3,
    unchanged: 4,
    added: 5,
    removed: 6,
  };

  function header() {
    const h = el('header');
    h.appendChild(el('h1', null, 'benchkit report'));
    if (data.context && data.context.length) {
      const dl = el('dl', { class: 'context' });
      for (const [k, v] of data.context) {
        dl.appendChild(el('dt', null, k));
        dl.appendChild(el('dd', null, v));
      }
      h.appendChild(dl);
    }
    if (data.warnings && data.warnings.length) {
      const ul = el('ul', { class: 'warnings', id: 'machine-warnings' });
      for (const w of data.warnings) {
        const li = el('li');
        li.appendChild(el('strong', null, w.severity === 'info' ? 'note: ' : 'warning: '));
        li.appendChild(document.createTextNode(w.message));
        if (w.advice) li.appendChild(el('div', { class: 'advice' }, w.advice));
        ul.appendChild(li);
      }
      h.appendChild(ul);
    }
    if (data.comparison) {
      h.appendChild(el('p', { class: 'verdicts' }, data.comparison.summary));
    }
    root.appendChild(h);
  }

  function summaryTable() {
    const rows = data.summary;
    if (!rows.length) return;
    const section = el('section', { id: 'summary' });
    section.appendChild(el('h2', null, 'Summary'));
    const controls = el('div', { class: 'controls' });
    const filter = el('input', {
      type: 'search',
      id: 'filter',
      placeholder: 'Filter by name',
      'aria-label': 'Filter benchmarks by name',
    });
    const count = el('span', { id: 'shown', class: 'count' });
    controls.appendChild(filter);
    controls.appendChild(count);
    section.appendChild(controls);
    // A column no row fills (a comparison read alone has no intervals, rates or samples) is left
    // out rather than shown empty on every row.
    const hasCi = rows.some((r) => r.lo !== undefined);
    const hasThroughput = rows.some((r) => r.throughput);
    const hasSamples = rows.some((r) => r.samples !== undefined);
    const columns = [
      { key: 'name', label: 'benchmark', text: true },
      { key: 'median', label: 'median', format: duration },
    ];
    if (hasCi) columns.push({ key: 'ci', label: '95% CI' });
    if (hasThroughput) columns.push({ key: 'throughput_value', label: 'throughput' });
    if (hasSamples) columns.push({ key: 'samples', label: 'samples' });
    if (data.compared) {
      columns.push({ key: 'ratio', label: 'change' });
      columns.push({ key: 'verdict_rank', label: 'verdict' });
    }
    columns.push({ key: 'flags_text', label: 'flags', text: true });
    const table = el('table', { class: 'summary', id: 'summary-table' });
    const thead = el('thead');
    const headRow = el('tr');
    for (const c of columns) {
      const th = el('th', { 'data-key': c.key, tabindex: '0', 'aria-sort': 'none' }, c.label);
      headRow.appendChild(th);
    }
    thead.appendChild(headRow);
    table.appendChild(thead);
    const tbody = el('tbody');
    const trs = [];
    rows.forEach((r, i) => {
      r.verdict_rank = r.verdict ? verdictRank[r.verdict] : 99;
      r.flags_text = (r.flags || []).join(', ');
      r.order = i;
      const tr = el('tr', { 'data-name': r.name });
      if (r.verdict) tr.className = 'verdict-' + r.verdict;
      if (r.failed) tr.className = 'failed';
      const nameCell = el('td', { class: 'name' });
      if (r.detail >= 0) {
        nameCell.appendChild(el('a', { href: '#b-' + r.detail }, r.name));
      } else {
        nameCell.textContent = r.name;
      }
      tr.appendChild(nameCell);
      tr.appendChild(el('td', { class: 'num' }, r.failed ? 'failed: ' + r.failed : duration(r.median)));
      if (hasCi) {
        tr.appendChild(el('td', null, r.lo !== undefined ? duration(r.lo) + ' … ' + duration(r.hi) +
          (r.confidence !== undefined ? ' (' + (Math.round(r.confidence * 1000) / 10) + '%)' : '') : ''));
      }
      if (hasThroughput) tr.appendChild(el('td', { class: 'num' }, r.throughput || ''));
      if (hasSamples) {
        tr.appendChild(el('td', { class: 'num' }, r.samples !== undefined ? String(r.samples) : ''));
      }
      if (data.compared) {
        tr.appendChild(
          el(
            'td',
            { class: 'num' },
            r.ratio !== undefined
              ? percent(r.ratio) + ' [' + percent(r.ratio_lo) + ', ' + percent(r.ratio_hi) + ']'
              : ''
          )
        );
        tr.appendChild(el('td', { class: 'verdict' }, r.verdict || ''));
      }
      tr.appendChild(el('td', { class: 'flags' }, r.flags_text));
      trs.push({ row: r, tr: tr });
      tbody.appendChild(tr);
    });
    table.appendChild(tbody);
    section.appendChild(table);
    root.appendChild(section);

    function showCount() {
      let shown = 0;
      for (const t of trs) if (!t.tr.hidden) shown++;
      count.textContent = shown + ' of ' + trs.length + ' benchmarks';
    }
    filter.addEventListener('input', () => {
      const needle = filter.value.trim().toLowerCase();
      for (const t of trs) t.tr.hidden = needle !== '' && !t.row.name.toLowerCase().includes(needle);
      showCount();
    });
    let sortKey = null;
    let ascending = true;
    function sortBy(key) {
      ascending = sortKey === key ? !ascending : true;
      sortKey = key;
      const value = (r) => (key === 'ci' ? (r.hi - r.lo) / r.median : r[key]);
      trs.sort((a, b) => {
        let va = value(a.row);
        let vb = value(b.row);
        const missingA = va === undefined || va === null || Number.isNaN(va);
        const missingB = vb === undefined || vb === null || Number.isNaN(vb);
        if (missingA || missingB) return missingA === missingB ? a.row.order - b.row.order : missingA ? 1 : -1;
        let c = typeof va === 'string' ? va.localeCompare(vb) : va - vb;
        if (!ascending) c = -c;
        return c || a.row.order - b.row.order;
      });
      const fragment = document.createDocumentFragment();
      for (const t of trs) fragment.appendChild(t.tr);
      tbody.appendChild(fragment);
      for (const th of headRow.children) {
        th.setAttribute('aria-sort', th.dataset.key === key ? (ascending ? 'ascending' : 'descending') : 'none');
      }
    }
    for (const th of headRow.children) {
      th.addEventListener('click', () => sortBy(th.dataset.key));
      th.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') sortBy(th.dataset.key);
      });
    }
    showCount();
  }

  // The forest plot: one row per compared benchmark, the ratio with its interval, the noise
  // band around 1, the paired rounds' ratios as small points.
  const FOREST_ROWS = 400;
  function forestPlot() {
    const comparison = data.comparison;
    if (!comparison) return;
    const section = el('section', { id: 'comparison' });
    section.appendChild(el('h2', null, 'Comparison'));
    for (const note of comparison.notes) section.appendChild(el('p', { class: 'note' }, note));
    const items = comparison.benchmarks.filter((b) => b.ratio !== undefined);
    if (!items.length) {
      section.appendChild(el('p', null, 'No benchmark was measured on both sides.'));
      root.appendChild(section);
      return;
    }
    const shown = items.slice(0, FOREST_ROWS);
    const t = comparison.threshold;
    const values = [1 - t, 1 + t];
    for (const b of shown) {
      values.push(b.lo, b.hi);
      if (b.rounds) for (const r of b.rounds) values.push(r);
    }
    const domain = padded(extent(values), 0.05);
    const rowHeight = 18;
    const f = frame('forest', shown.length * rowHeight + 56, { left: 250, right: 20, top: 10, bottom: 46 });
    const x = linear(domain[0], domain[1], f.left, f.right);
    f.svg.appendChild(
      tip(
        sv('rect', { x: x(1 - t), y: f.top, width: x(1 + t) - x(1 - t), height: f.bottom - f.top, class: 'band' }),
        'noise threshold ±' + (t * 100).toFixed(1) + '%: changes inside it are unchanged'
      )
    );
    f.svg.appendChild(sv('line', { x1: x(1), x2: x(1), y1: f.top, y2: f.bottom, class: 'unity' }));
    xAxis(f, x, percent, 'new / baseline time (' + Math.round(comparison.confidence * 100) + '% CI)');
    shown.forEach((b, i) => {
      const y = f.top + i * rowHeight + rowHeight / 2;
      const g = sv('g', { class: 'row verdict-' + b.verdict });
      const label = b.name.length > 38 ? b.name.slice(0, 37) + '…' : b.name;
      g.appendChild(sv('text', { x: f.left - 8, y: y + 4, 'text-anchor': 'end', class: 'label' }, label));
      if (b.rounds && b.first) {
        // Compared as an AB/BA crossover: the baseline-first rounds above the row, the others
        // below, so that an order effect shows as two clouds.
        b.rounds.forEach((r, k) => {
          const cls = b.first[k] ? 'first' : 'second';
          g.appendChild(sv('circle', { cx: x(r), cy: y + (b.first[k] ? -4 : 4), r: 1.6, class: 'round ' + cls }));
        });
      } else if (b.rounds) {
        const pts = b.rounds.map((r, k) => [x(r), y + ((k % 3) - 1) * 3]);
        for (const p of pts) g.appendChild(sv('circle', { cx: p[0], cy: p[1], r: 1.6, class: 'round' }));
      }
      g.appendChild(sv('line', { x1: x(b.lo), x2: x(b.hi), y1: y, y2: y, class: 'ci' }));
      g.appendChild(
        tip(
          sv('circle', { cx: x(b.ratio), cy: y, r: 4, class: 'point' }),
          b.name + ': ' + percent(b.ratio) + ' [' + percent(b.lo) + ', ' + percent(b.hi) + '] ' + b.verdict +
            (b.rounds ? ' (' + b.rounds.length + ' paired rounds)' : '') +
            (b.first && b.order
              ? '; compared by order (AB/BA crossover): the second process of a round ran ' +
                (Math.abs(b.order - 1) * 100).toFixed(1) + '% ' + (b.order < 1 ? 'faster' : 'slower') +
                ' than the first, which the comparison cancels'
              : '')
        )
      );
      f.svg.appendChild(g);
    });
    section.appendChild(f.svg);
    if (items.length > shown.length) {
      section.appendChild(
        el('p', { class: 'note' }, 'The plot shows the first ' + shown.length + ' of ' + items.length +
          ' compared benchmarks (regressions first); the summary table has them all.')
      );
    }
    root.appendChild(section);
  }

  // Lines named in a chart's legend (the chart is 300 units high); the rest are counted.
  const LEGEND_ENTRIES = 14;
  const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b', '#e377c2'];

  function lineChart(chart) {
    const f = frame('line', 300, { left: 80, right: 160, top: 24, bottom: 46 });
    f.svg.appendChild(sv('text', { x: f.left, y: 14, class: 'title' }, chart.title));
    const xs = [];
    const ys = [];
    for (const s of chart.series) {
      for (const p of s.points) {
        xs.push(p.x);
        ys.push(p.y, p.lo !== undefined ? p.lo : p.y, p.hi !== undefined ? p.hi : p.y);
      }
    }
    const xr = extent(xs);
    const x = chart.log_x ? logScale(xr[0], xr[1], f.left, f.right) : linear(...padded(xr, 0.03), f.left, f.right);
    const yr = extent(ys);
    const y = linear(Math.min(0, yr[0]), yr[1] * 1.05, f.bottom, f.top);
    const format = byUnit(chart.y_unit);
    let xFormat = (v) => three(v);
    if (chart.categories) {
      // At most about a dozen labels (a history has hundreds of commits): every step-th one.
      const step = Math.max(1, Math.ceil(chart.categories.length / 12));
      x.ticks = () => chart.categories.map((_, i) => i).filter((i) => i % step === 0);
      xFormat = (v) => chart.categories[Math.round(v)] || '';
    }
    xAxis(f, x, xFormat, chart.x_label);
    yAxis(f, y, format, chart.y_label);
    chart.series.forEach((s, i) => {
      const color = PALETTE[i % PALETTE.length];
      const g = sv('g', { class: 'series', stroke: color, fill: color });
      let d = '';
      s.points.forEach((p, k) => {
        d += (k ? 'L' : 'M') + x(p.x).toFixed(1) + ' ' + y(p.y).toFixed(1);
      });
      // A fitted curve (a complexity fit): dashed, without points or intervals of its own.
      g.appendChild(tip(sv('path', { d: d, class: s.fitted ? 'line fit' : 'line' }), s.name));
      for (const p of s.fitted ? [] : s.points) {
        if (p.lo !== undefined) {
          g.appendChild(sv('line', { x1: x(p.x), x2: x(p.x), y1: y(p.lo), y2: y(p.hi), class: 'ci' }));
        }
        g.appendChild(
          tip(
            sv('circle', { cx: x(p.x), cy: y(p.y), r: p.marked ? 5 : 3, class: p.marked ? 'point marked' : 'point' }),
            (p.label ? p.label + ': ' : '') + format(p.y) +
              (p.lo !== undefined ? ' [' + format(p.lo) + ' … ' + format(p.hi) + ']' : '')
          )
        );
      }
      f.svg.appendChild(g);
      if (s.name && i < LEGEND_ENTRIES) {
        const ly = f.top + 14 * i;
        f.svg.appendChild(sv('rect', { x: f.right + 12, y: ly, width: 10, height: 10, fill: color }));
        f.svg.appendChild(sv('text', { x: f.right + 26, y: ly + 9, class: 'legend' }, s.name));
      }
    });
    if (chart.series.length > LEGEND_ENTRIES) {
      const ly = f.top + 14 * LEGEND_ENTRIES + 10;
      f.svg.appendChild(sv('text', { x: f.right + 12, y: ly, class: 'legend' }, '… ' + (chart.series.length - LEGEND_ENTRIES) + ' more lines'));
    }
    return f.svg;
  }

  // A section shows this many charts; a suite of thousands of parameter combinations says how
  // many more there are instead of drawing hundreds of charts at once.
  const LINE_CHARTS = 60;
  // A section's tables of text (a profile's functions, allocation sites, system calls).
  function textTable(table) {
    const wrap = el('div');
    if (table.title) wrap.appendChild(el('h3', null, table.title));
    const t = el('table', { class: 'plain' });
    const head = el('tr');
    for (const c of table.columns) head.appendChild(el('th', null, c));
    t.appendChild(head);
    for (const row of table.rows) {
      const tr = el('tr');
      for (const cell of row) tr.appendChild(el('td', null, cell));
      t.appendChild(tr);
    }
    wrap.appendChild(t);
    return wrap;
  }
  // A flame graph laid out by benchkit (report/flame_graph.cpp): frames [name, depth, start,
  // value], roots at the bottom.
  function flameGraph(flame) {
    const row = 17;
    let depth = 0;
    for (const f of flame.frames) depth = Math.max(depth, f[1] + 1);
    const height = 30 + row * depth + 8;
    const svg = sv('svg', { viewBox: '0 0 ' + WIDTH + ' ' + height, class: 'chart flame', role: 'img' });
    svg.appendChild(sv('text', { x: 8, y: 16, class: 'title' }, flame.title));
    const scale = (WIDTH - 16) / (flame.total || 1);
    for (const f of flame.frames) {
      const w = f[3] * scale;
      if (w < 0.3) continue;
      const x = 8 + f[2] * scale;
      const y = height - 8 - row * (f[1] + 1);
      const g = sv('g');
      tip(g, f[0] + ' (' + Math.round(f[3]) + ' ' + flame.unit + ', ' + ((100 * f[3]) / flame.total).toFixed(2) + '%)');
      let hash = 0;
      for (let i = 0; i < f[0].length; i++) hash = (hash * 31 + f[0].charCodeAt(i)) >>> 0;
      g.appendChild(sv('rect', { x: x.toFixed(2), y: y, width: w.toFixed(2), height: row - 1, rx: 2, fill: 'rgb(' + (205 + (hash % 50)) + ',' + (80 + ((hash >> 8) % 130)) + ',' + ((hash >> 16) % 55) + ')' }));
      const fits = Math.floor((w - 6) / 6.2);
      if (fits >= 3) {
        const label = f[0].length > fits ? f[0].slice(0, fits - 2) + '..' : f[0];
        g.appendChild(sv('text', { x: (x + 3).toFixed(2), y: y + row - 5, 'font-size': 10 }, label));
      }
      svg.appendChild(g);
    }
    return svg;
  }
  function lineSections() {
    for (const section of data.line_sections || []) {
      const s = el('section', { id: section.id });
      s.appendChild(el('h2', null, section.title));
      if (section.intro) s.appendChild(el('p', null, section.intro));
      for (const chart of section.charts.slice(0, LINE_CHARTS)) s.appendChild(lineChart(chart));
      if (section.flame) s.appendChild(flameGraph(section.flame));
      for (const table of section.tables || []) s.appendChild(textTable(table));
      for (const note of section.notes || []) s.appendChild(el('p', { class: 'note' }, note));
      if (section.charts.length > LINE_CHARTS) {
        s.appendChild(el('p', { class: 'note' }, 'The first ' + LINE_CHARTS + ' of ' + section.charts.length + ' charts; the summary table has every benchmark.'));
      }
      root.appendChild(s);
    }
  }

  // Scenario phases: a bar of time per phase, with throughput, CPU share and peak RSS beside it.
  function scenarios() {
    const list = data.scenarios || [];
    if (!list.length) return;
    const section = el('section', { id: 'scenarios' });
    section.appendChild(el('h2', null, 'Scenarios'));
    for (const scenario of list) {
      const rowHeight = 26;
      const f = frame('phases', scenario.phases.length * rowHeight + 70, { left: 130, right: 300, top: 26, bottom: 44 });
      f.svg.appendChild(sv('text', { x: f.left, y: 16, class: 'title' }, 'scenario ' + scenario.name));
      const max = Math.max(...scenario.phases.map((p) => p.median)) * 1.05;
      const x = linear(0, max, f.left, f.right);
      xAxis(f, x, duration, 'median time of the phase');
      scenario.phases.forEach((p, i) => {
        const y = f.top + i * rowHeight;
        f.svg.appendChild(sv('text', { x: f.left - 8, y: y + 16, 'text-anchor': 'end', class: 'label' }, p.name));
        f.svg.appendChild(
          tip(
            sv('rect', { x: f.left, y: y + 3, width: Math.max(1, x(p.median) - f.left), height: rowHeight - 8, class: p.valid ? 'bar' : 'bar invalid' }),
            p.name + ': ' + duration(p.median) + ' (' + p.runs + (p.runs === 1 ? ' run)' : ' runs)')
          )
        );
        const facts = [duration(p.median)];
        if (p.throughput) facts.push(p.throughput);
        if (p.cpu_share !== undefined) facts.push('CPU ' + Math.round(p.cpu_share * 100) + '%');
        if (p.peak_rss_bytes !== undefined) facts.push('peak RSS ' + bytes(p.peak_rss_bytes));
        f.svg.appendChild(sv('text', { x: f.right + 8, y: y + 16, class: 'facts' }, facts.join(' · ')));
      });
      section.appendChild(f.svg);
    }
    root.appendChild(section);
  }

  function noise() {
    const n = data.noise;
    if (!n) return;
    const section = el('section', { id: 'noise' });
    section.appendChild(el('h2', null, 'A/A noise of ' + n.subject));
    section.appendChild(el('p', null, n.summary));
    const items = n.benchmarks.filter((b) => b.process_medians.length > 0 && b.median > 0);
    if (items.length) {
      const rowHeight = 18;
      const f = frame('noise', items.length * rowHeight + 56, { left: 250, right: 20, top: 10, bottom: 46 });
      const values = [];
      for (const b of items) for (const m of b.process_medians) values.push(m / b.median);
      const x = linear(...padded(extent(values.concat([1])), 0.05), f.left, f.right);
      f.svg.appendChild(sv('line', { x1: x(1), x2: x(1), y1: f.top, y2: f.bottom, class: 'unity' }));
      xAxis(f, x, percent, 'each process median against the median of them all');
      items.forEach((b, i) => {
        const y = f.top + i * rowHeight + rowHeight / 2;
        const label = b.name.length > 38 ? b.name.slice(0, 37) + '…' : b.name;
        f.svg.appendChild(sv('text', { x: f.left - 8, y: y + 4, 'text-anchor': 'end', class: 'label' }, label));
        for (const m of b.process_medians) {
          f.svg.appendChild(tip(sv('circle', { cx: x(m / b.median), cy: y, r: 3, class: 'process' }), b.name + ': ' + duration(m)));
        }
      });
      section.appendChild(f.svg);
    }
    const table = el('table', { class: 'plain' });
    const head = el('tr');
    for (const h of ['benchmark', 'median', 'spread', 'CV', 'processes needed', 'threshold', 'note']) head.appendChild(el('th', null, h));
    table.appendChild(head);
    for (const b of n.benchmarks) {
      const tr = el('tr');
      tr.appendChild(el('td', { class: 'name' }, b.name));
      tr.appendChild(el('td', { class: 'num' }, duration(b.median)));
      tr.appendChild(el('td', { class: 'num' }, b.spread !== undefined ? (b.spread * 100).toFixed(1) + '%' : ''));
      tr.appendChild(el('td', { class: 'num' }, b.cv !== undefined ? (b.cv * 100).toFixed(2) + '%' : ''));
      tr.appendChild(el('td', { class: 'num' }, b.processes_needed !== undefined ? String(b.processes_needed) : ''));
      tr.appendChild(el('td', { class: 'num' }, b.threshold !== undefined ? '±' + (b.threshold * 100).toFixed(1) + '%' : ''));
      tr.appendChild(el('td', null, b.note || ''));
      table.appendChild(tr);
    }
    section.appendChild(table);
    root.appendChild(section);
  }

  function machineChecks() {
    const m = data.machine_checks;
    if (!m) return;
    const section = el('section', { id: 'machine-checks' });
    section.appendChild(el('h2', null, 'Machine checks'));
    const table = el('table', { class: 'plain' });
    const head = el('tr');
    for (const h of ['status', 'check', 'value', 'advice']) head.appendChild(el('th', null, h));
    table.appendChild(head);
    for (const c of m.checks) {
      const tr = el('tr', { class: 'status-' + c.status });
      tr.appendChild(el('td', { class: 'status' }, c.status));
      tr.appendChild(el('td', null, c.title));
      tr.appendChild(el('td', null, c.value));
      tr.appendChild(el('td', null, c.advice));
      table.appendChild(tr);
    }
    section.appendChild(table);
    if (m.fingerprint) section.appendChild(el('p', null, 'machine fingerprint ' + m.fingerprint));
    root.appendChild(section);
  }

  // ---- per benchmark ----------------------------------------------------------------------
  // Which samples a plot marks: 'slow' (taken while the machine ran slow), 'severe' and 'mild'
  // outliers beyond Tukey's fences, or '' for the rest. Marked, never dropped.
  function classify(d) {
    const slow = new Set(d.slow);
    const f = d.fences;
    return d.t.map((v, i) => {
      if (slow.has(i)) return 'slow';
      if (!f) return '';
      if (v < f[0] || v > f[3]) return 'severe';
      if (v < f[1] || v > f[2]) return 'mild';
      return '';
    });
  }
  function grouped(points, classes) {
    const groups = { '': [], mild: [], severe: [], slow: [] };
    points.forEach((p, i) => groups[classes[i]].push(p));
    return groups;
  }
  function drawGroups(svg, groups) {
    svg.appendChild(dots(groups[''], 'sample', 3.2));
    if (groups.mild.length) svg.appendChild(dots(groups.mild, 'outlier', 4));
    if (groups.severe.length) svg.appendChild(dots(groups.severe, 'outlier severe', 4.5));
    if (groups.slow.length) svg.appendChild(dots(groups.slow, 'slow', 4));
  }
  // A small deterministic jitter, so that the same report draws the same strip.
  function jitter(i) {
    const s = Math.sin(i * 12.9898) * 43758.5453;
    return s - Math.floor(s) - 0.5;
  }

  // The distribution of time per iteration: a violin (Gaussian kernel density, Silverman's
  // bandwidth) over the samples as a strip.
  function distribution(d, classes) {
    const f = frame('distribution', 190, { left: 20, right: 20, top: 10, bottom: 46 });
    const range = padded(extent(d.t), 0.04);
    const x = linear(range[0], range[1], f.left, f.right);
    const mid = (f.top + f.bottom) / 2;
    const half = (f.bottom - f.top) / 2 - 6;
    const n = d.t.length;
    if (n >= 3) {
      let mean = 0;
      for (const v of d.t) mean += v;
      mean /= n;
      let variance = 0;
      for (const v of d.t) variance += (v - mean) * (v - mean);
      const sd = Math.sqrt(variance / (n - 1));
      const sorted = d.t.slice().sort((a, b) => a - b);
      const iqr = sorted[Math.floor(n * 0.75)] - sorted[Math.floor(n * 0.25)];
      const spread = Math.min(sd, iqr / 1.34) || sd || Math.abs(mean) * 0.01 || 1;
      const h = 0.9 * spread * Math.pow(n, -0.2);
      const steps = 80;
      const grid = [];
      let peak = 0;
      for (let k = 0; k <= steps; k++) {
        const at = range[0] + ((range[1] - range[0]) * k) / steps;
        let density = 0;
        for (const v of sorted) {
          const z = (at - v) / h;
          if (z > -4 && z < 4) density += Math.exp(-0.5 * z * z);
        }
        grid.push([at, density]);
        if (density > peak) peak = density;
      }
      let path = '';
      grid.forEach((g, k) => {
        path += (k ? 'L' : 'M') + x(g[0]).toFixed(1) + ' ' + (mid - (g[1] / peak) * half).toFixed(1);
      });
      for (let k = grid.length - 1; k >= 0; k--) {
        path += 'L' + x(grid[k][0]).toFixed(1) + ' ' + (mid + (grid[k][1] / peak) * half).toFixed(1);
      }
      f.svg.appendChild(sv('path', { d: path + 'Z', class: 'violin' }));
    }
    if (d.estimates) {
      f.svg.appendChild(sv('line', { x1: x(d.estimates.median), x2: x(d.estimates.median), y1: f.top, y2: f.bottom, class: 'median' }));
    }
    const points = d.t.map((v, i) => [x(v), mid + jitter(i) * half * 0.8]);
    drawGroups(f.svg, grouped(points, classes));
    xAxis(f, x, duration, 'time per iteration');
    return f.svg;
  }

  // The samples in the order they were taken: drift and two states show here.
  function sequence(d, classes) {
    const f = frame('samples', 200, { left: 80, right: 20, top: 10, bottom: 46 });
    const x = linear(0, Math.max(1, d.t.length - 1), f.left, f.right);
    const yr = padded(extent(d.t), 0.05);
    const y = linear(yr[0], yr[1], f.bottom, f.top);
    if (d.estimates && d.t.length > 1) {
      const e = d.estimates;
      f.svg.appendChild(sv('rect', { x: f.left, width: f.right - f.left, y: y(e.hi), height: Math.max(1, y(e.lo) - y(e.hi)), class: 'band' }));
      f.svg.appendChild(sv('line', { x1: f.left, x2: f.right, y1: y(e.median), y2: y(e.median), class: 'median' }));
    }
    yAxis(f, y, duration, 'time per iteration');
    xAxis(f, x, (v) => String(Math.round(v) + 1), 'sample, in the order taken');
    const points = d.t.map((v, i) => [x(i), y(v)]);
    drawGroups(f.svg, grouped(points, classes));
    return f.svg;
  }

  function factsTable(rows) {
    const table = el('table', { class: 'plain facts' });
    for (const [k, v] of rows) {
      const tr = el('tr');
      tr.appendChild(el('th', null, k));
      tr.appendChild(el('td', null, v));
      table.appendChild(tr);
    }
    return table;
  }

  function drawDetail(section) {
    const index = section.dataset.index;
    const source = document.getElementById('benchkit-detail-' + index);
    const d = JSON.parse(source.textContent);
    const body = section.querySelector('.body');
    body.textContent = '';
    if (d.failure) {
      body.appendChild(el('p', { class: 'failure' }, 'failed (' + d.failure.cause + '): ' + (d.failures ? d.failures[0] : '')));
      if (d.failure.stderr) body.appendChild(el('pre', null, d.failure.stderr));
    } else if (d.failures) {
      for (const f of d.failures) body.appendChild(el('p', { class: 'failure' }, 'invalid: ' + f));
    }
    if (d.command) body.appendChild(el('p', null, 'command: ')).appendChild(el('code', null, d.command));
    if (d.estimates) {
      const e = d.estimates;
      const classes = classify(d);
      let mild = 0;
      let severe = 0;
      let slow = 0;
      for (const c of classes) {
        if (c === 'mild') mild++;
        if (c === 'severe') severe++;
        if (c === 'slow') slow++;
      }
      const line = 'median ' + duration(e.median) + ' [' + duration(e.lo) + ' … ' + duration(e.hi) + '], mean ' +
        duration(e.mean) + ', σ ' + duration(e.stddev) + ', ' + d.t.length + ' samples × ' + d.iters + ' iterations' +
        (e.throughput ? ', ' + e.throughput : '') +
        (e.between !== undefined ? ', ' + Math.round(100 * e.between) + '% of the variance between processes' : '');
      body.appendChild(el('p', { class: 'estimates' }, line));
      const legend = el('p', { class: 'legend' });
      legend.appendChild(el('span', { class: 'key sample' }, 'sample'));
      legend.appendChild(el('span', { class: 'key outlier' }, mild + ' mild outliers'));
      legend.appendChild(el('span', { class: 'key severe' }, severe + ' severe outliers'));
      legend.appendChild(el('span', { class: 'key slow' }, slow + ' taken while the machine ran slow (left out of the estimates)'));
      body.appendChild(legend);
      body.appendChild(distribution(d, classes));
      body.appendChild(sequence(d, classes));
    }
    if (d.diagnostics.length) {
      const ul = el('ul', { class: 'diagnostics' });
      for (const g of d.diagnostics) {
        const li = el('li', { class: 'severity-' + g.severity });
        li.appendChild(el('strong', null, g.code));
        li.appendChild(document.createTextNode(' (' + g.severity + '): ' + g.message));
        ul.appendChild(li);
      }
      body.appendChild(ul);
    }
    const facts = [];
    if (d.per_iteration) for (const k in d.per_iteration) facts.push([k + ' per iteration', three(d.per_iteration[k])]);
    if (d.label) facts.push(['label', d.label]);
    // Counters arrive formatted, their kind applied and with units ("1.2 Gi/s"); older pages' numbers as before.
    if (d.counters) for (const k in d.counters) facts.push([k, typeof d.counters[k] === 'string' ? d.counters[k] : three(d.counters[k])]);
    if (d.exact_counts) for (const c of d.exact_counts) facts.push([c.name + ' (exact)', c.value.toLocaleString('en-US') + (c.input ? ' in ' + c.input : '')]);
    if (d.memory) {
      if (d.memory.peak_rss_bytes !== undefined) facts.push(['peak RSS', bytes(d.memory.peak_rss_bytes) + (d.memory.method ? ' (' + d.memory.method + ')' : '')]);
      if (d.memory.rss_growth_bytes !== undefined) facts.push(['RSS growth', bytes(Math.abs(d.memory.rss_growth_bytes)) + (d.memory.rss_growth_bytes < 0 ? ' less' : '')]);
    }
    if (d.resources) {
      const r = d.resources;
      if (r.user_ns !== undefined) facts.push(['user CPU', duration(r.user_ns)]);
      if (r.system_ns !== undefined) facts.push(['system CPU', duration(r.system_ns)]);
      if (r.peak_rss_bytes !== undefined) facts.push(['peak RSS', bytes(r.peak_rss_bytes)]);
      if (r.minor_faults !== undefined) facts.push(['minor faults', String(r.minor_faults)]);
      if (r.major_faults !== undefined) facts.push(['major faults', String(r.major_faults)]);
    }
    if (d.first_iteration_ns !== undefined) facts.push(['first iteration', duration(d.first_iteration_ns)]);
    if (facts.length) body.appendChild(factsTable(facts));
    section.dataset.drawn = '1';
  }

  function details() {
    const count = data.details || 0;
    if (!count) return [];
    const container = el('section', { id: 'benchmarks' });
    container.appendChild(el('h2', null, 'Benchmarks'));
    const names = new Map();
    for (const r of data.summary) if (r.detail >= 0) names.set(r.detail, r.name);
    const sections = [];
    for (let i = 0; i < count; i++) {
      const s = el('section', { class: 'bench', id: 'b-' + i, 'data-index': String(i) });
      s.appendChild(el('h3', null, names.get(i) || ''));
      s.appendChild(el('div', { class: 'body' }, 'drawn when scrolled into view'));
      container.appendChild(s);
      sections.push(s);
    }
    root.appendChild(container);
    return sections;
  }

  // How long each part took to build, in milliseconds (bench/report/measure.mjs prints them).
  const timings = {};
  function timed(name, build) {
    const started = performance.now();
    const result = build();
    timings[name] = Math.round(performance.now() - started);
    return result;
  }
  timed('header', header);
  timed('summary', summaryTable);
  timed('comparison', forestPlot);
  timed('line charts', lineSections);
  timed('scenarios', scenarios);
  timed('noise', noise);
  timed('machine checks', machineChecks);
  const sections = timed('benchmark sections', details);
  const api = {
    timings: timings,
    // Draws every benchmark section not yet drawn (tests, printing, the size benchmark).
    drawAll() {
      for (const s of sections) if (!s.dataset.drawn) drawDetail(s);
    },
  };
  if ('IntersectionObserver' in window) {
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (entry.isIntersecting && !entry.target.dataset.drawn) {
            drawDetail(entry.target);
            observer.unobserve(entry.target);
          }
        }
      },
      { rootMargin: '400px' }
    );
    for (const s of sections) observer.observe(s);
  } else {
    api.drawAll();
  }
  window.addEventListener('beforeprint', () => api.drawAll());
  window.benchkitReport = api;
  document.body.dataset.ready = '1';
})();
