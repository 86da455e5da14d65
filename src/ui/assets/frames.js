// A turn's display frames on the page (seed 000 RES): a table of rows, sortable by a click on a column
// and read on a page at a time through the frame route; a chart frame drawn as SVG bars (or a line)
// over the same rows; a JSON frame as indented JSON; a text frame as text. Every value is set as text.
import { element } from './render.js';

const svgNamespace = 'http://www.w3.org/2000/svg';

/**
 * The element showing one frame. `loadPage(tableId, page)` reads a further page of a large table
 * (`{ rows, pages }`); the element keeps the rows it has read, so it is made once per frame.
 */
export function createFrameView(frame, loadPage) {
  const container = element('figure', {
    class: `frame ${frame.displayType}`,
    'data-display': frame.displayType,
    'data-flow': frame.flow,
  });
  const caption = frame.displayName ?? (frame.source ? `From ${frame.source}` : undefined);
  if (caption) container.append(element('figcaption', { text: caption }));
  if (frame.displayType === 'text') {
    container.append(element('p', { text: String(frame.data ?? '') }));
    return container;
  }
  if (frame.displayType === 'json' || !Array.isArray(frame.data)) {
    container.append(element('pre', { text: JSON.stringify(frame.data, null, 2) }));
    return container;
  }
  const view = { rows: [...frame.data], page: 1, sortKey: undefined, descending: false };
  const body = element('div', { class: 'frame-body' });
  container.append(body);
  const render = () => {
    const parts = [];
    if (frame.displayType === 'chart') parts.push(drawChart(view.rows, frame.chartType));
    parts.push(drawTable(view, render));
    const total = frame.totalRows ?? view.rows.length;
    if (frame.tableId && view.rows.length < total) {
      const more = element('button', {
        type: 'button',
        class: 'more-rows',
        text: `Show more rows (${view.rows.length} of ${total})`,
      });
      more.addEventListener('click', async () => {
        more.disabled = true;
        more.textContent = 'Loading…';
        try {
          const next = await loadPage(frame.tableId, view.page + 1);
          view.page += 1;
          view.rows.push(...next.rows);
          render();
        } catch (error) {
          more.disabled = false;
          more.textContent = `Could not load more rows: ${error?.message ?? error}. Try again`;
        }
      });
      parts.push(more);
    } else if (total > 0) {
      parts.push(element('p', { class: 'frame-count', text: `${total} ${total === 1 ? 'row' : 'rows'}` }));
    }
    body.replaceChildren(...parts);
  };
  render();
  return container;
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

/** Rows sorted by one column: numbers as numbers, the rest as text; the rows themselves are kept. */
export function sortRows(rows, key, descending) {
  const sorted = [...rows].sort((a, b) => {
    const x = a?.[key];
    const y = b?.[key];
    const order =
      typeof x === 'number' && typeof y === 'number'
        ? x - y
        : String(x ?? '').localeCompare(String(y ?? ''), undefined, { numeric: true });
    return descending ? -order : order;
  });
  return sorted;
}

function drawTable(view, render) {
  const objects = view.rows.every((row) => row && typeof row === 'object' && !Array.isArray(row));
  const columns = objects ? readColumns(view.rows) : ['value'];
  const rows = view.sortKey === undefined ? view.rows : sortRows(view.rows, view.sortKey, view.descending);
  const head = element(
    'tr',
    {},
    ...columns.map((column) => {
      const sorted = view.sortKey === column;
      const button = element('button', {
        type: 'button',
        class: 'sort',
        text: `${column}${sorted ? (view.descending ? ' ↓' : ' ↑') : ''}`,
        title: `Sort by ${column}`,
      });
      button.addEventListener('click', () => {
        view.descending = sorted ? !view.descending : false;
        view.sortKey = column;
        render();
      });
      return element(
        'th',
        { scope: 'col', 'aria-sort': sorted ? (view.descending ? 'descending' : 'ascending') : undefined },
        button,
      );
    }),
  );
  const body = rows.map((row) =>
    element(
      'tr',
      {},
      ...columns.map((column) => {
        const value = objects ? row[column] : row;
        return element('td', {
          class: typeof value === 'number' ? 'number' : undefined,
          text: formatCell(value),
        });
      }),
    ),
  );
  return element(
    'div',
    { class: 'table-scroll' },
    element('table', {}, element('thead', {}, head), element('tbody', {}, ...body)),
  );
}

function formatCell(value) {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
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
      label: labelKey === undefined ? String(index + 1) : formatCell(row?.[labelKey]),
      value: Number(row?.[valueKey]) || 0,
    })),
  };
}

function drawChart(rows, chartType) {
  const series = readChartSeries(rows);
  if (!series) return element('p', { class: 'empty', text: 'Nothing numeric to chart.' });
  const { points } = series;
  const width = 480;
  const rowHeight = 26;
  const labelWidth = 130;
  const height = chartType === 'line' ? 220 : points.length * rowHeight + 8;
  const max = Math.max(...points.map((p) => Math.abs(p.value)), 1);
  const svg = svgElement('svg', {
    class: 'chart',
    viewBox: `0 0 ${width} ${height}`,
    role: 'img',
    'aria-label': `${series.valueKey} by ${series.labelKey ?? 'row'}`,
  });
  if (chartType === 'line') {
    const step = points.length > 1 ? (width - 40) / (points.length - 1) : 0;
    const at = (p, i) => [20 + i * step, height - 30 - (Math.abs(p.value) / max) * (height - 50)];
    svg.append(
      svgElement('polyline', {
        class: 'mark line',
        points: points.map((p, i) => at(p, i).join(',')).join(' '),
      }),
      ...points.flatMap((p, i) => {
        const [x, y] = at(p, i);
        return [
          svgElement('circle', { class: 'mark', cx: x, cy: y, r: 3 }, `${p.label}: ${p.value}`),
          svgText(p.label, { x, y: height - 10, 'text-anchor': 'middle', class: 'axis' }),
        ];
      }),
    );
    return svg;
  }
  const barSpace = width - labelWidth - 70;
  points.forEach((p, i) => {
    const y = 4 + i * rowHeight;
    const barWidth = Math.max(1, (Math.abs(p.value) / max) * barSpace);
    svg.append(
      svgText(p.label, { x: labelWidth - 6, y: y + 16, 'text-anchor': 'end', class: 'axis' }),
      svgElement(
        'rect',
        { class: 'mark bar', x: labelWidth, y, width: barWidth, height: rowHeight - 8, rx: 3 },
        `${p.label}: ${p.value}`,
      ),
      svgText(String(p.value), { x: labelWidth + barWidth + 6, y: y + 16, class: 'value' }),
    );
  });
  return svg;
}

function svgElement(tag, attributes, title) {
  const node = document.createElementNS(svgNamespace, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  if (title !== undefined) {
    const tooltip = document.createElementNS(svgNamespace, 'title');
    tooltip.textContent = title;
    node.append(tooltip);
  }
  return node;
}

function svgText(text, attributes) {
  const node = svgElement('text', attributes);
  node.textContent = text;
  return node;
}
