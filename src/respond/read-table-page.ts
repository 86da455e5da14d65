/**
 * Paging through a large result: a display frame keeps its first page; the full rows are stored as a
 * `frame` history row under the frame's `tableId`, and read back here a page at a time.
 */
import type { StateStore } from '../spec/index.js';
import { defaultFramePageRows } from './display-frame.js';

export interface TablePage {
  tableId: string;
  offset: number;
  rows: unknown[];
  totalRows: number;
}

/** The history row's data for a stored table. */
export interface StoredTable {
  tableId: string;
  flow: string;
  rows: unknown[];
}

/** Reads rows `offset … offset + limit` of a stored table; `undefined` when the thread has no such table. */
export async function readTablePage(options: {
  store: StateStore;
  threadId: string;
  tableId: string;
  offset?: number;
  limit?: number;
}): Promise<TablePage | undefined> {
  const offset = Math.max(0, options.offset ?? 0);
  const limit = Math.max(1, options.limit ?? defaultFramePageRows);
  for (const row of await options.store.readHistory(options.threadId)) {
    if (row.kind !== 'frame') continue;
    const table = JSON.parse(row.data) as Partial<StoredTable>;
    if (table.tableId !== options.tableId || !Array.isArray(table.rows)) continue;
    return {
      tableId: options.tableId,
      offset,
      rows: table.rows.slice(offset, offset + limit),
      totalRows: table.rows.length,
    };
  }
  return undefined;
}
