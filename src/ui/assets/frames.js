// A turn's display frames on the page (seed 000 RES): a table of rows, sortable by a click on a column
// and read on a page at a time through the frame route; a chart frame drawn by the charting library
// (chart-view.js) above the same rows as a table; a JSON frame as indented JSON; a text frame as text.
// Every value is set as text.
import { createChartView, readColumns } from './chart-view.js';
import { element } from './render.js';

/** What each frame element drew with the charting library, freed when the element leaves the page. */
const chartViews = new WeakMap();

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
  // The chart is drawn once and redrawn with the rows read since; sorting the table leaves it as it is.
  const chart = frame.displayType === 'chart' ? createChartView(frame.chartType) : undefined;
  if (chart) chartViews.set(container, chart);
  let chartedRows = 0;
  const render = () => {
    const parts = [];
    if (chart) {
      if (chartedRows !== view.rows.length) chart.show(view.rows);
      chartedRows = view.rows.length;
      parts.push(chart.element);
    }
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

/** Frees what a frame element drew (a chart), when the page stops showing it. */
export function releaseFrameView(container) {
  chartViews.get(container)?.release();
  chartViews.delete(container);
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
