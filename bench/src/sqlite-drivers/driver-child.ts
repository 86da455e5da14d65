/**
 * One SQLite driver in one fresh process, run by the Node ≥ 22.5 binary the bench found:
 * `node22 dist/sqlite-drivers/driver-child.js '<job as JSON>'`. Opens a new database file, warms up, then
 * times turns of the durable write pattern (`durable-write-pattern.ts`), each on a new thread, and prints one
 * JSON line. Imports nothing of flowstack's: it runs on another Node than the rest of the bench.
 */
import { createRequire } from 'node:module';
import { cpuUsage } from 'node:process';
import { prepareDurableTurn, type SqlDriver } from './durable-write-pattern.js';

export interface DriverJob {
  driver: 'node:sqlite' | 'better-sqlite3';
  path: string;
  /** The folder whose `node_modules` holds a better-sqlite3 built for this Node. */
  betterSqlite3From: string;
  steps: number;
  warmupTurns: number;
  warmupMaxMs: number;
  turns: number;
  maxMs: number;
}

export interface DriverReport {
  driver: DriverJob['driver'];
  sqliteVersion: string;
  node: string;
  /** Per measured turn: wall time ÷ (K + 1) steps, µs. */
  wallUs: number[];
  /** Per measured turn: the process's CPU time ÷ (K + 1), µs. */
  cpuUs: number[];
}

type DriverConstructor = new (path: string) => SqlDriver;

async function openDriver(job: DriverJob): Promise<SqlDriver> {
  if (job.driver === 'node:sqlite') {
    const { DatabaseSync } = (await import('node:sqlite' as string)) as { DatabaseSync: DriverConstructor };
    return new DatabaseSync(job.path);
  }
  const Database = createRequire(`${job.betterSqlite3From}/`)('better-sqlite3') as DriverConstructor;
  return new Database(job.path);
}

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2] ?? '{}') as DriverJob;
  const db = await openDriver(job);
  const runTurn = prepareDurableTurn(db);
  let thread = 0;
  const warmupEnd = performance.now() + job.warmupMaxMs;
  for (let turn = 0; turn < job.warmupTurns && performance.now() < warmupEnd; turn++)
    runTurn(`warm-${thread++}`, job.steps);
  const wallUs: number[] = [];
  const cpuUs: number[] = [];
  const measureEnd = performance.now() + job.maxMs;
  for (let turn = 0; turn < job.turns && (turn < 20 || performance.now() < measureEnd); turn++) {
    const cpu = cpuUsage();
    const started = performance.now();
    runTurn(`turn-${thread++}`, job.steps);
    const wall = performance.now() - started;
    const spent = cpuUsage(cpu);
    wallUs.push((wall * 1000) / (job.steps + 1));
    cpuUs.push((spent.user + spent.system) / (job.steps + 1));
  }
  const version = db.prepare('SELECT sqlite_version() AS version').get() as { version: string };
  db.close();
  const report: DriverReport = {
    driver: job.driver,
    sqliteVersion: version.version,
    node: process.version,
    wallUs,
    cpuUs,
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
