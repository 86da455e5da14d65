/**
 * What the peak heap of the sessions scenario is made of (bench/README.md, "Memory per session as the peak
 * heap"): runs warm-up rounds of N concurrent sessions, then one round under V8's sampling heap profiler with
 * the objects a scavenge took back left out — so that the profile at any moment adds up to the heap's growth
 * since the round began, as `heapUsed` sees it — and takes the profile at the call where the last session
 * asks the model for its answer, near the end of the round. Prints the heap's growth at that call and at the
 * round's highest sample, each split into the young generation and the rest (the highest sample falls where
 * the young generation is full, a moment the probe cannot foresee), then bytes per session by allocating
 * function and by file at that call.
 *
 *   npm run build --prefix .. && npm run build && [PROBE_CALLS=4] node --expose-gc probes/peak-composition.mjs [framework=flowstack] [N=1000] [top=40]
 */
import { Session } from 'node:inspector';
import { getHeapSpaceStatistics } from 'node:v8';
import { loadFramework } from '../dist/frameworks/load-framework.js';
import { meter } from '../dist/shared/meter.js';
import { requestFor } from '../dist/shared/plan.js';

if (typeof globalThis.gc !== 'function') throw new Error('Run with node --expose-gc.');
const framework = process.argv[2] ?? 'flowstack';
const sessions = Number(process.argv[3] ?? 1000);
const top = Number(process.argv[4] ?? 40);
const steps = Number(process.env.PROBE_CALLS ?? 4) + 1;
const agent = await (await loadFramework(framework)).createAgent({
  persistence: 'none',
  maxSteps: steps + 5,
});
const request = requestFor({ kind: 'chain', toolCalls: steps - 1 });
const round = (name) =>
  Promise.all(Array.from({ length: sessions }, (_, i) => agent.run(`${name}-${i}`, request)));
for (let r = 0; r < 3; r++) {
  await round(`warm-${r}`);
  agent.clearMockLog();
}
const session = new Session();
session.connect();
const post = (method, params) => {
  let result;
  session.post(method, params, (error, value) => {
    if (error) throw error;
    result = value;
  });
  if (result === undefined) throw new Error(`${method} did not answer synchronously.`);
  return result;
};
const spaces = () =>
  Object.fromEntries(getHeapSpaceStatistics().map((s) => [s.space_name, s.space_used_size]));
globalThis.gc();
const base = process.memoryUsage().heapUsed;
const baseSpaces = spaces();
let captureSpaces;
let highestSpaces = baseSpaces;
let highest = base;
let atCapture = 0;
let profile;
const modelCallsAtStart = meter.modelCalls;
meter.onSample = () => {
  agent.clearMockLog();
  const used = process.memoryUsage().heapUsed;
  if (used > highest) {
    highest = used;
    highestSpaces = spaces();
  }
  if (profile === undefined && meter.modelCalls - modelCallsAtStart === sessions * steps) {
    atCapture = used;
    captureSpaces = spaces();
    profile = post('HeapProfiler.getSamplingProfile', {}).profile;
  }
};
meter.sampling = true;
post('HeapProfiler.startSampling', {
  samplingInterval: 64,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: false,
});
await round('measured');
meter.sampling = false;
if (profile === undefined) throw new Error('The last model call was not seen.');

const bySite = new Map();
let total = 0;
const visit = (node, caller) => {
  const frame = node.callFrame;
  const site = frame.url
    ? `${frame.functionName || '(anonymous)'} ${frame.url.split('/').slice(-2).join('/')}:${frame.lineNumber + 1}`
    : (caller ?? '(root)');
  bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
  total += node.selfSize;
  for (const child of node.children) visit(child, site);
};
visit(profile.head, undefined);
const kib = (bytes) => (bytes / sessions / 1024).toFixed(1);
const perSession = (bytes) => (bytes / sessions).toFixed(0).padStart(7);
console.log(
  `${framework}: at the last model call, heap growth ${kib(atCapture - base)} KiB per session (highest in the round ${kib(highest - base)}); the profile holds ${kib(total)} KiB`,
);
const young = captureSpaces.new_space - baseSpaces.new_space;
console.log(
  `of the growth at that call: young generation ${kib(young)} KiB, the rest (old generation, large objects, code) ${kib(atCapture - base - young)} KiB`,
);
const youngAtHighest = highestSpaces.new_space - baseSpaces.new_space;
console.log(
  `at the highest sample: young generation ${kib(youngAtHighest)} KiB, the rest ${kib(highest - base - youngAtHighest)} KiB`,
);
console.log('\nbytes per session, by allocating function:');
for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`${perSession(bytes)}  ${site}`);
const byFile = new Map();
for (const [site, bytes] of bySite) {
  const file = site.split(' ')[1]?.split(':')[0] ?? site;
  byFile.set(file, (byFile.get(file) ?? 0) + bytes);
}
console.log('\nby file:');
for (const [file, bytes] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`${perSession(bytes)}  ${file}`);
process.exit(0);
