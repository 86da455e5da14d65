/**
 * `node:sqlite` against better-sqlite3, both on one Node ≥ 22.5, running the writes flowstack's SQLite store
 * makes per turn (`durable-write-pattern.ts`): fresh processes, the two drivers alternating run by run (and
 * which goes first alternating too), each on a new database file. Skipped, with the reason, when no such Node
 * is found or better-sqlite3 cannot be built for it.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lastJsonLine, runProcess } from '../shared/run-process.js';
import { median } from '../shared/stats.js';
import type { DriverJob, DriverReport } from './driver-child.js';
import { findNode22 } from './find-node22.js';
import { prepareBetterSqlite3 } from './prepare-better-sqlite3.js';

const childScript = fileURLToPath(new URL('./driver-child.js', import.meta.url));

export interface SqliteDriverRow {
  driver: DriverJob['driver'];
  /** The driver's package version (better-sqlite3) or the Node version (node:sqlite). */
  version: string;
  sqliteVersion: string;
  /** Per process: the median over its measured turns, µs per step. */
  wallUs: number[];
  cpuUs: number[];
}

/**
 * `setupMs`: the time spent finding the Node and the better-sqlite3 built for it, which includes installing
 * and building them on a first run (minutes, once); the bench leaves it out of its time budget.
 */
export type SqliteDrivers = { setupMs: number } & (
  | { measured: true; node: string; steps: number; rows: SqliteDriverRow[]; failures: string[] }
  | { measured: false; reason: string }
);

export async function measureSqliteDrivers(options: {
  quick: boolean;
  benchDir: string;
  dbDir: string;
  log: (text: string) => void;
}): Promise<SqliteDrivers> {
  const cacheDir = join(options.benchDir, '.cache');
  const setupStarted = Date.now();
  const node = await findNode22({ cacheDir, log: options.log });
  if ('skipped' in node) return { setupMs: Date.now() - setupStarted, measured: false, reason: node.skipped };
  let betterSqlite3: { folder: string; version: string };
  try {
    betterSqlite3 = await prepareBetterSqlite3({
      node,
      benchDir: options.benchDir,
      cacheDir,
      log: options.log,
    });
  } catch (error) {
    return {
      setupMs: Date.now() - setupStarted,
      measured: false,
      reason: `skipped: better-sqlite3 could not be built for Node ${node.version} (${(error as Error).message.split('\n')[0]})`,
    };
  }
  const setupMs = Date.now() - setupStarted;
  const steps = 10;
  const runs = options.quick ? 2 : 5;
  const rows = new Map<DriverJob['driver'], SqliteDriverRow>();
  const failures: string[] = [];
  options.log(
    `sqlite drivers: node:sqlite and better-sqlite3 on Node ${node.version}, ${runs} processes each`,
  );
  for (let run = 0; run < runs; run++) {
    const order: DriverJob['driver'][] =
      run % 2 === 0 ? ['better-sqlite3', 'node:sqlite'] : ['node:sqlite', 'better-sqlite3'];
    for (const driver of order) {
      const job: DriverJob = {
        driver,
        path: join(options.dbDir, `driver-${driver.replace(':', '-')}-r${run}.db`),
        betterSqlite3From: betterSqlite3.folder,
        steps,
        warmupTurns: 1_000,
        warmupMaxMs: options.quick ? 500 : 1_500,
        turns: 1_000,
        maxMs: options.quick ? 500 : 1_500,
      };
      try {
        const { stdout } = await runProcess(
          node.path,
          [...node.flags, '--no-warnings', childScript, JSON.stringify(job)],
          {
            timeoutMs: 60_000,
            timed: true,
          },
        );
        const report = lastJsonLine<DriverReport>(stdout);
        const row = rows.get(driver) ?? {
          driver,
          version: driver === 'better-sqlite3' ? betterSqlite3.version : node.version,
          sqliteVersion: report.sqliteVersion,
          wallUs: [],
          cpuUs: [],
        };
        row.wallUs.push(median(report.wallUs));
        row.cpuUs.push(median(report.cpuUs));
        rows.set(driver, row);
      } catch (error) {
        failures.push(`${driver} on Node ${node.version}: ${(error as Error).message.split('\n')[0]}`);
      }
    }
  }
  return { setupMs, measured: true, node: node.version, steps, rows: [...rows.values()], failures };
}
