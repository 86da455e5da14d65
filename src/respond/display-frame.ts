/**
 * Display frames (seed 000): the structured result of a domain-intent flow, for a UI to render next to
 * the reply. Large results keep only their first page (512 rows by default) in the frame, with a
 * `tableId` under which the full rows are stored for paging.
 */
import { type DisplayType, defaultBounds, type FlowSpec } from '../spec/index.js';

/** Default rows in a frame's first page: the one table's (`defaultBounds`, DESIGN.md §5). */
export const defaultFramePageRows = defaultBounds.fixed.framePageRows;

export interface DisplayFrame {
  flow: string;
  displayType: DisplayType;
  /** For `chart` frames: bar, line, pie … */
  chartType?: string;
  /** The rows (first page) of a table or chart; the object of a JSON frame; text for a text frame. */
  data: unknown;
  /** Where the data came from (a table, a tool). */
  source?: string;
  displayName?: string;
  /** Set when the result has more rows than the page: read the rest with `readTablePage`. */
  tableId?: string;
  totalRows?: number;
  /** A limitation the reply must mention (partial results after a failure). */
  warning?: string;
}

export interface CreatedFrame {
  frame: DisplayFrame;
  /** Every row, when the frame holds only the first page (to be stored under `frame.tableId`). */
  allRows?: unknown[];
}

const textKeys = ['text', 'summary', 'message', 'answer'];

/**
 * The frame for a domain-intent result. Rows are read from an array result or from its `rows` field;
 * `source`, `title` and `chartType` fields of the result fill the frame's attributes.
 */
export function createDisplayFrame(options: {
  spec: Pick<FlowSpec, 'name' | 'display'>;
  data: unknown;
  nextTableId: () => string;
  pageRows?: number;
  warning?: string;
}): CreatedFrame | undefined {
  const { spec, data } = options;
  const pageRows = options.pageRows ?? defaultFramePageRows;
  const record =
    data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
  const rows = Array.isArray(data)
    ? data
    : Array.isArray(record?.rows)
      ? (record.rows as unknown[])
      : undefined;
  const base: Partial<DisplayFrame> = {};
  if (typeof record?.source === 'string') base.source = record.source;
  if (typeof record?.title === 'string') base.displayName = record.title;
  if (options.warning) base.warning = options.warning;
  if (rows) {
    const displayType = spec.display?.type === 'chart' ? 'chart' : 'table';
    const frame: DisplayFrame = { flow: spec.name, displayType, data: rows.slice(0, pageRows), ...base };
    const chartType = typeof record?.chartType === 'string' ? record.chartType : spec.display?.chartType;
    if (displayType === 'chart' && chartType) frame.chartType = chartType;
    if (rows.length <= pageRows) return { frame };
    frame.tableId = options.nextTableId();
    frame.totalRows = rows.length;
    return { frame, allRows: rows };
  }
  if (record) {
    const keys = Object.keys(record).filter((k) => !textKeys.includes(k));
    if (keys.length > 0 || spec.display?.type === 'json')
      return { frame: { flow: spec.name, displayType: 'json', data, ...base } };
  }
  // Nothing to show: no data, or an object with neither fields nor text.
  if (data === undefined || data === null || (record && !textKeys.some((k) => typeof record[k] === 'string')))
    return undefined;
  return { frame: { flow: spec.name, displayType: 'text', data: describeResult(data), ...base } };
}

/**
 * The reply the user reads for a result with no message of its own: a string result, or its `text`,
 * `summary`, `message` or `answer` field; `undefined` for structured data, which belongs in the frame
 * and is never printed as JSON in the reply.
 */
export function describeReply(data: unknown): string | undefined {
  if (typeof data === 'string') return data.trim() === '' ? undefined : data;
  if (data && typeof data === 'object' && !Array.isArray(data)) {
    const record = data as Record<string, unknown>;
    for (const key of textKeys)
      if (typeof record[key] === 'string' && (record[key] as string).trim() !== '')
        return record[key] as string;
  }
  return undefined;
}

/** The text of a skill's result for notes and summaries: its text fields, else short JSON. */
export function describeResult(data: unknown): string {
  if (typeof data === 'string') return data;
  if (data && typeof data === 'object') {
    const record = data as Record<string, unknown>;
    for (const key of textKeys) if (typeof record[key] === 'string') return record[key] as string;
  }
  const json = JSON.stringify(data);
  return json === undefined ? 'Done.' : json.length > 500 ? `${json.slice(0, 500)}…` : json;
}
