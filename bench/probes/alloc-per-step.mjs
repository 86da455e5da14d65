/**
 * What flowstack allocates per step, garbage included: V8's sampling heap profiler (with the objects that
 * minor and major collections freed) over N sessions of K tool steps on the memory store, after 20
 * sessions of warm-up. Prints bytes per step, in all and by allocating function (self; a built-in such as
 * `Array.prototype.map` is counted to the function that called it).
 *
 *   npm run build --prefix .. && npm run build && node probes/alloc-per-step.mjs [K=100] [N=20] [top=25]
 */
import { Session } from 'node:inspector/promises';
import { loadFramework } from '../dist/frameworks/load-framework.js';
import { requestFor } from '../dist/shared/plan.js';

const k = Number(process.argv[2] ?? 100);
const sessions = Number(process.argv[3] ?? 20);
const agent = await (await loadFramework('flowstack')).createAgent({ persistence: 'none', maxSteps: k + 5 });
const request = requestFor({ kind: 'chain', toolCalls: k });
for (let i = 0; i < 20; i++) {
  await agent.run(`warm-${i}`, request);
  agent.clearMockLog();
}
const inspector = new Session();
inspector.connect();
await inspector.post('HeapProfiler.enable');
await inspector.post('HeapProfiler.startSampling', {
  samplingInterval: 1024,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
});
for (let i = 0; i < sessions; i++) {
  await agent.run(`measured-${i}`, request);
  agent.clearMockLog();
}
const { profile } = await inspector.post('HeapProfiler.stopSampling');

const where = (node) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url.replace(/^.*\/(dist|node_modules)\//, '$1/');
  return `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
};
const bySite = new Map();
let total = 0;
const visit = (node, caller) => {
  const site = node.callFrame.url ? where(node) : (caller ?? where(node));
  total += node.selfSize;
  bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
  for (const child of node.children) visit(child, site);
};
visit(profile.head);
const steps = sessions * (k + 1);
console.log(`K = ${k}, ${sessions} sessions: ${(total / steps).toFixed(0)} bytes allocated per step`);
for (const [site, size] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, Number(process.argv[4] ?? 25)))
  console.log(`${(size / steps).toFixed(0).padStart(8)}  ${site}`);
process.exit(0);
