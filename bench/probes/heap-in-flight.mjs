/**
 * What one in-flight session holds: N flowstack sessions of the bench's sessions scenario are held inside
 * their third tool call (or the one `FLOWSTACK_PROBE_CALL` names); the heap then (after a full collection) over the heap before, per session, and
 * again once they all finished (what the memory store keeps per completed thread). With a path, also
 * writes heap snapshots before and during, for a diff in Chrome DevTools. With `FLOWSTACK_PROBE_STORE=sqlite`
 * the agent runs on a SQLite file in the system's temporary folder instead of the memory store: the rows then
 * live outside the heap, and what is left is what the turn itself holds.
 *
 *   npm run build --prefix .. && npm run build && node --expose-gc probes/heap-in-flight.mjs [N=300] [path]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { loadFramework } from '../dist/frameworks/load-framework.js';
import { meter } from '../dist/shared/meter.js';
import { plannedCall, requestFor } from '../dist/shared/plan.js';

if (typeof globalThis.gc !== 'function') throw new Error('Run with node --expose-gc.');
const sessions = Number(process.argv[2] ?? 300);
const snapshotPath = process.argv[3];
const onSqlite = process.env.FLOWSTACK_PROBE_STORE === 'sqlite';
const folder = onSqlite ? mkdtempSync(join(tmpdir(), 'flowstack-heap-probe-')) : undefined;
const agent = await (await loadFramework('flowstack')).createAgent({
  persistence: onSqlite ? 'sqlite' : 'none',
  ...(folder ? { sqlitePath: join(folder, 'probe.db') } : {}),
  maxSteps: 10,
});
console.log(
  onSqlite ? 'store: SQLite file (rows outside the heap)' : 'store: memory store (rows in the heap)',
);
const request = requestFor({ kind: 'chain', toolCalls: 4 });
await Promise.all(Array.from({ length: 100 }, (_, i) => agent.run(`warm-${i}`, request)));
agent.clearMockLog();

// Which tool call of the session to hold them in, 1-based (`FLOWSTACK_PROBE_CALL`, 3 unless set; 4 is the last
// before the answer). Sessions run in step, so the n-th call of this tool in the round is each session's own.
const gateCall = Number(process.env.FLOWSTACK_PROBE_CALL ?? 3);
const gateTool = plannedCall(gateCall - 1).toolName;
const earlierSameTool = Array.from({ length: gateCall - 1 }, (_, i) => plannedCall(i).toolName).filter(
  (name) => name === gateTool,
).length;
let seen = 0;
let waiting = 0;
let release = () => {};
const gate = new Promise((resolve) => {
  release = resolve;
});
globalThis.gc();
const base = process.memoryUsage().heapUsed;
if (snapshotPath) writeHeapSnapshot(`${snapshotPath}.before.heapsnapshot`);
meter.beforeTool = (name) => {
  if (name !== gateTool || ++seen <= earlierSameTool * sessions) return undefined;
  waiting += 1;
  if (waiting === sessions) {
    agent.clearMockLog();
    globalThis.gc();
    const perSession = (process.memoryUsage().heapUsed - base) / sessions;
    console.log(`in flight: ${(perSession / 1024).toFixed(1)} KiB per session`);
    if (snapshotPath) writeHeapSnapshot(`${snapshotPath}.during.heapsnapshot`);
    release();
  }
  return gate;
};
await Promise.all(Array.from({ length: sessions }, (_, i) => agent.run(`held-${i}`, request)));
agent.clearMockLog();
globalThis.gc();
console.log(
  `finished: ${((process.memoryUsage().heapUsed - base) / sessions / 1024).toFixed(1)} KiB per thread kept`,
);
if (folder) rmSync(folder, { recursive: true, force: true });
process.exit(0);
