/**
 * The data-analysis tools over the dataset: a read-only query, chart data, a price change (not
 * idempotent, needs approval), a staging table, and two read-only helpers for Internal flows.
 */
import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../../src/index.js';
import type { Dataset } from './dataset.js';

const identifier = z.string().regex(/^[a-z][a-z0-9_]{0,62}$/, 'a lowercase table or column name');

/** A tool error with one of the pipeline's categories. */
function toolError(category: 'validation_error' | 'not_found', message: string): Error {
  return Object.assign(new Error(message), { category });
}

function tableExists(db: Dataset, table: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined;
}

export function createDataTools(db: Dataset): ToolDefinition[] {
  const runQuery = defineTool({
    name: 'run_query',
    description: 'Run one read-only SQL SELECT over the dataset and return its rows.',
    input: z.object({ sql: z.string().min(1).max(4_000) }),
    idempotent: true,
    timeoutMs: 5_000,
    capability: 'safe',
    execute: ({ sql }) => {
      let statement: ReturnType<Dataset['prepare']>;
      // A statement with parameters needs values the model cannot give here.
      try {
        statement = db.prepare(sql);
      } catch (error) {
        const message = (error as Error).message;
        throw toolError(message.startsWith('no such table') ? 'not_found' : 'validation_error', message);
      }
      if (!statement.readonly || !statement.reader)
        throw toolError('validation_error', 'Only read-only SELECT statements may run.');
      if (statement.columns().length === 0 || sql.includes('?'))
        throw toolError('validation_error', 'The query must return columns and take no parameters.');
      const rows = (statement as unknown as { all(): Record<string, unknown>[] }).all();
      return { rows, rowCount: rows.length };
    },
  });
  const chartData = defineTool({
    name: 'chart_data',
    description: 'Sum a measure of the sales table grouped by region, product or month, for a chart.',
    input: z.object({
      measure: z.enum(['units', 'revenue']),
      groupBy: z.enum(['region', 'product', 'month']),
    }),
    idempotent: true,
    timeoutMs: 5_000,
    execute: ({ measure, groupBy }) => {
      const key = groupBy === 'month' ? 'substr(date, 1, 7)' : groupBy;
      const rows = db
        .prepare(
          `SELECT ${key} AS label, ROUND(SUM(${measure}), 2) AS value FROM sales GROUP BY label ORDER BY label`,
        )
        .all();
      return { rows, measure, groupBy };
    },
  });
  const applyPriceChange = defineTool({
    name: 'apply_price_change',
    description:
      'Change the unit price of a product by a percentage. Changes the data; every call applies again.',
    input: z.object({ product: z.string().min(1), percent: z.number().min(-50).max(100) }),
    idempotent: false,
    requiresApproval: true,
    capability: 'controlled',
    timeoutMs: 5_000,
    execute: ({ product, percent }) => {
      const before = db.prepare('SELECT unit_price FROM products WHERE product = ?').get(product) as
        | { unit_price: number }
        | undefined;
      if (!before) throw toolError('not_found', `There is no product '${product}'.`);
      const after = Math.round(before.unit_price * (1 + percent / 100) * 100) / 100;
      db.prepare('UPDATE products SET unit_price = ? WHERE product = ?').run(after, product);
      return { product, before: before.unit_price, after };
    },
  });
  const createTable = defineTool({
    name: 'create_table',
    description: 'Create an empty staging table with text columns, for data that does not exist yet.',
    input: z.object({ table: identifier, columns: z.array(identifier).min(1).max(20) }),
    idempotent: false,
    capability: 'controlled',
    timeoutMs: 5_000,
    execute: ({ table, columns }) => {
      if (tableExists(db, table)) return { table, columns, created: false };
      db.exec(`CREATE TABLE ${table} (${columns.map((c) => `${c} TEXT`).join(', ')})`);
      return { table, columns, created: true };
    },
  });
  const profileTable = defineTool({
    name: 'profile_table',
    description: 'Count the rows of a table and list its columns.',
    input: z.object({ table: identifier }),
    idempotent: true,
    timeoutMs: 5_000,
    execute: ({ table }) => {
      if (!tableExists(db, table)) throw toolError('not_found', `no such table: ${table}`);
      const columns = (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map(
        (c) => c.name,
      );
      const { n } = db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number };
      return { table, rows: n, columns };
    },
  });
  const peekRows = defineTool({
    name: 'peek_rows',
    description: 'Read the first five rows of a table.',
    input: z.object({ table: identifier }),
    idempotent: true,
    timeoutMs: 5_000,
    execute: ({ table }) => {
      if (!tableExists(db, table)) throw toolError('not_found', `no such table: ${table}`);
      return { table, sample: db.prepare(`SELECT * FROM ${table} LIMIT 5`).all() };
    },
  });
  return [runQuery, chartData, applyPriceChange, createTable, profileTable, peekRows] as ToolDefinition[];
}
