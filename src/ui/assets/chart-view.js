// A chart frame drawn by Chart.js, which the page loads from its own server before its modules run (the
// library's browser file sets `globalThis.Chart`; docs/decisions/0089). A frame's `chartType` picks the
// picture: `line`, `pie`, and bars across for `bar` and any kind the page does not know. The numbers stay
// readable without the picture: the canvas carries a description, and the frame shows its rows as a table.
import { element } from './render.js';

/** Points described in the canvas's label; the rest are in the table under it. */
const describedPoints = 20;
/** Bars drawn at full height; more rows share the same space. */
const tallestBars = 40;

/**
 * The element a chart frame is drawn in, made once per frame: `show(rows)` draws the rows (again, when a
 * further page of them was read), `release()` frees the drawing when the frame leaves the page.
 */
export function createChartView(chartType) {
  const kind = chartType === 'line' || chartType === 'pie' ? chartType : 'bar';
  const canvas = element('canvas', { class: 'chart', role: 'img' });
  const box = element('div', { class: `chart-box ${kind}`, 'data-chart': kind }, canvas);
  const note = element('p', { class: 'empty' });
  const view = element('div', { class: 'chart-view' }, box);
  let chart;

  function show(rows) {
    const series = readChartSeries(rows);
    const library = globalThis.Chart;
    if (!series || !library) {
      note.textContent = series
        ? 'The chart could not be drawn here; its numbers are in the table below.'
        : 'Nothing numeric to chart.';
      view.replaceChildren(note);
      return;
    }
    view.replaceChildren(box);
    canvas.setAttribute('aria-label', describeSeries(series));
    // The box gives the chart its height (the canvas fills it): a row per bar, a fixed height otherwise.
    box.style.height =
      kind === 'bar' ? `${Math.min(series.points.length, tallestBars) * 26 + 48}px` : '16rem';
    const labels = series.points.map((p) => p.label);
    const values = series.points.map((p) => p.value);
    if (chart) {
      chart.data.labels = labels;
      chart.data.datasets[0].data = values;
      chart.update();
      return;
    }
    chart = new library(canvas, createConfiguration({ kind, series, labels, values }));
  }

  return {
    element: view,
    show,
    release() {
      chart?.destroy();
      chart = undefined;
    },
  };
}

function createConfiguration({ kind, series, labels, values }) {
  const colors = readPalette();
  const pie = kind === 'pie';
  return {
    type: kind,
    data: {
      labels,
      datasets: [
        {
          label: series.valueKey,
          data: values,
          backgroundColor: pie
            ? labels.map((_, i) => colors.series[i % colors.series.length])
            : colors.accent,
          borderColor: pie ? colors.panel : colors.accent,
          borderWidth: pie ? 1 : 2,
          pointRadius: 3,
        },
      ],
    },
    options: {
      // The rows are drawn as they are: a chart that moves into place tells nothing more.
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      indexAxis: kind === 'bar' ? 'y' : 'x',
      color: colors.muted,
      font: { family: colors.font },
      plugins: { legend: { display: pie, position: 'right' } },
      scales: pie
        ? {}
        : {
            // Values are measured from zero, so a bar or a point's height compares with the others.
            x: { beginAtZero: true, grid: { color: colors.line }, ticks: { color: colors.muted } },
            y: { beginAtZero: true, grid: { color: colors.line }, ticks: { color: colors.text } },
          },
    },
  };
}

/** The page's own colours and font (styles.css), so the chart looks like the rest of the page. */
function readPalette() {
  const style = getComputedStyle(document.documentElement);
  const read = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
  return {
    accent: read('--accent', '#2d5be3'),
    text: read('--text', '#1d1d1b'),
    muted: read('--muted', '#6b6b66'),
    line: read('--line', '#e2e2dd'),
    panel: read('--panel', '#ffffff'),
    font: style.fontFamily,
    series: [1, 2, 3, 4, 5, 6].map((n) => read(`--chart-${n}`, '#2d5be3')),
  };
}

/** What the chart shows, in words: `revenue by region: North 1200, South 900, …`. */
export function describeSeries(series) {
  const shown = series.points.slice(0, describedPoints).map((p) => `${p.label} ${p.value}`);
  const rest = series.points.length - shown.length;
  const more = rest > 0 ? `, and ${rest} more in the table` : '';
  return `${series.valueKey} by ${series.labelKey ?? 'row'}: ${shown.join(', ')}${more}`;
}

/**
 * What a chart shows of its rows: the label column (`label`, else the first text column) and the value
 * column (`value`, else the first numeric one); undefined when the rows have no numbers to draw.
 */
export function readChartSeries(rows) {
  const columns = readColumns(rows);
  const numeric = columns.filter((c) => rows.some((r) => typeof r?.[c] === 'number'));
  const valueKey = numeric.includes('value') ? 'value' : numeric[0];
  if (valueKey === undefined) return undefined;
  const labelKey = columns.includes('label')
    ? 'label'
    : (columns.find((c) => c !== valueKey && rows.some((r) => typeof r?.[c] === 'string')) ??
      columns.find((c) => c !== valueKey));
  return {
    labelKey,
    valueKey,
    points: rows.map((row, index) => ({
      label: labelKey === undefined ? String(index + 1) : formatLabel(row?.[labelKey]),
      value: Number(row?.[valueKey]) || 0,
    })),
  };
}

/** The columns of a list of rows: every key of the first rows, in the order they appear. */
export function readColumns(rows) {
  const columns = [];
  for (const row of rows.slice(0, 50)) {
    if (!row || typeof row !== 'object') continue;
    for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
  }
  return columns;
}

function formatLabel(value) {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
