/** The appendix's section on `node:sqlite` against better-sqlite3, under flowstack's SQLite write pattern. */
import type { Collected } from '../orchestrate/collect.js';
import { ratio, spread, table, us } from './format.js';
import { mid } from './summarize.js';

export function renderSqliteDrivers(collected: Collected): string {
  const drivers = collected.sqliteDrivers;
  const out = [
    '## 7. SQLite drivers: `node:sqlite` against better-sqlite3',
    '',
    "The writes flowstack's SQLite store makes for a turn of K = 10 tool steps, run through each driver on the " +
      'same Node ≥ 22.5 (the first Node with `node:sqlite`): the lease and the thread read at the start; per step ' +
      "the model's answer and the tool's result each journaled by one autocommitted `INSERT … RETURNING`; at the end " +
      'one `BEGIN IMMEDIATE` transaction with the 7.5 KB snapshot and the history and observation rows. WAL, ' +
      "`synchronous = NORMAL` (the store's default), a new file per process, each turn on a new thread; the same " +
      'SQL and the same calls (`prepare`, `run`, `get`) for both drivers (`bench/src/sqlite-drivers/`). Fresh ' +
      "processes, the drivers alternating; per step = the turn's time ÷ (K + 1), median over the turns of a " +
      'process after warm-up, then over the processes (range in brackets). The drivers bundle their own SQLite, ' +
      "whose versions differ. This is the store's SQL alone, not an agent: section 2 has the agent on SQLite.",
    '',
  ];
  if (!drivers) return [...out, 'Not measured in this run.'].join('\n');
  if (!drivers.measured) return [...out, `Not measured in this run: ${drivers.reason}.`].join('\n');
  const better = drivers.rows.find((row) => row.driver === 'better-sqlite3');
  const rows = drivers.rows.map((row) => [
    row.driver === 'node:sqlite' ? `\`node:sqlite\` (Node ${row.version})` : `better-sqlite3 ${row.version}`,
    row.sqliteVersion,
    spread(row.wallUs, us),
    spread(row.cpuUs, us),
    row.driver === 'node:sqlite' && better ? ratio(mid(better.wallUs) / mid(row.wallUs)) : '',
    String(row.wallUs.length),
  ]);
  out.push(
    `On Node ${drivers.node}.`,
    '',
    table(
      [
        'driver',
        'SQLite',
        'per step, wall time: median (range)',
        'per step, CPU time',
        'better-sqlite3 ÷ node:sqlite (wall)',
        'processes',
      ],
      rows,
    ),
  );
  return out.join('\n');
}
