/**
 * The data-analysis example's dataset: a SQLite file created with better-sqlite3 on first run from a
 * small generated seed (a fixed pseudo-random sequence, so every run has the same rows): products and
 * a year of sales across four regions.
 */
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type Database from 'better-sqlite3';
import { ConfigurationError } from '../../src/index.js';

export type Dataset = Database.Database;

export const products = [
  { product: 'Widget', category: 'hardware', unit_price: 12.5 },
  { product: 'Gadget', category: 'hardware', unit_price: 30 },
  { product: 'Gizmo', category: 'hardware', unit_price: 7.25 },
  { product: 'Manual', category: 'books', unit_price: 18 },
  { product: 'Support plan', category: 'services', unit_price: 99 },
] as const;

export const regions = ['north', 'south', 'east', 'west'] as const;

/** Opens (and on first run creates and seeds) the dataset; `:memory:` gives a fresh private one. */
export function openDataset(path = '.flowstack/data-analysis.db'): Dataset {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new (loadSqliteDriver())(path);
  db.pragma('journal_mode = WAL');
  const seeded = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'sales'").get();
  if (!seeded) seed(db);
  return db;
}

/** better-sqlite3 is an optional peer of flowstack: the example says so when it is missing. */
function loadSqliteDriver(): typeof Database {
  try {
    return createRequire(import.meta.url)('better-sqlite3') as typeof Database;
  } catch (error) {
    throw new ConfigurationError({
      message:
        'The data-analysis example keeps its dataset in SQLite: install better-sqlite3 to run it (npm install better-sqlite3).',
      cause: error,
    });
  }
}

function seed(db: Dataset): void {
  let state = 20_261_121;
  const next = (n: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    // The high bits: an LCG's low bits repeat with a short period.
    return Math.floor(state / 65_536) % n;
  };
  db.exec(`
    CREATE TABLE products (product TEXT PRIMARY KEY, category TEXT NOT NULL, unit_price REAL NOT NULL);
    CREATE TABLE sales (
      id INTEGER PRIMARY KEY, date TEXT NOT NULL, region TEXT NOT NULL, product TEXT NOT NULL REFERENCES products,
      units INTEGER NOT NULL, revenue REAL NOT NULL
    );`);
  const insertProduct = db.prepare('INSERT INTO products VALUES (@product, @category, @unit_price)');
  const insertSale = db.prepare(
    'INSERT INTO sales (date, region, product, units, revenue) VALUES (?, ?, ?, ?, ?)',
  );
  db.transaction(() => {
    for (const p of products) insertProduct.run(p);
    for (let i = 0; i < 240; i++) {
      const p = products[next(products.length)] as (typeof products)[number];
      const units = 1 + next(20);
      const month = String(1 + (i % 12)).padStart(2, '0');
      const day = String(1 + next(28)).padStart(2, '0');
      insertSale.run(
        `2026-${month}-${day}`,
        regions[next(regions.length)],
        p.product,
        units,
        units * p.unit_price,
      );
    }
  })();
}
