/**
 * What a framework's sessions allocate that outlives a scavenge: the objects that reach the old generation,
 * where they stay until a full collection — what drives the peak heap of the sessions scenario
 * (bench/README.md, "Memory per session as the peak heap"). Runs warm-up rounds of N concurrent sessions of
 * the sessions scenario, then two rounds under V8's sampling heap profiler with the objects a full collection
 * took back kept in the profile and those a scavenge took back left out, and prints bytes per session by
 * allocating function (a built-in is counted to the function that called it) and by file. The mocks' call
 * logs are dropped at every sample, as in the scenario.
 *
 *   npm run build --prefix .. && npm run build && [PROBE_CALLS=4] node --expose-gc probes/promoted-per-session.mjs [framework=flowstack] [N=1000] [top=40]
 */
import { Session } from 'node:inspector/promises';
import { loadFramework } from '../dist/frameworks/load-framework.js';
import { meter } from '../dist/shared/meter.js';
import { requestFor } from '../dist/shared/plan.js';

if (typeof globalThis.gc !== 'function') throw new Error('Run with node --expose-gc.');
const framework = process.argv[2] ?? 'flowstack';
const sessions = Number(process.argv[3] ?? 1000);
const top = Number(process.argv[4] ?? 40);
const rounds = 2;
const agent = await (await loadFramework(framework)).createAgent({
  persistence: 'none',
  maxSteps: Number(process.env.PROBE_CALLS ?? 4) + 6,
});
const request = requestFor({ kind: 'chain', toolCalls: Number(process.env.PROBE_CALLS ?? 4) });
const round = async (name) => {
  await Promise.all(Array.from({ length: sessions }, (_, i) => agent.run(`${name}-${i}`, request)));
};
for (let r = 0; r < 3; r++) {
  await round(`warm-${r}`);
  agent.clearMockLog();
}
meter.onSample = () => agent.clearMockLog();
meter.sampling = true;
const session = new Session();
session.connect();
globalThis.gc();
await session.post('HeapProfiler.startSampling', {
  samplingInterval: 64,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: false,
});
for (let r = 0; r < rounds; r++) await round(`measured-${r}`);
const { profile } = await session.post('HeapProfiler.getSamplingProfile');
meter.sampling = false;

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
const perSession = (bytes) => (bytes / (sessions * rounds)).toFixed(0).padStart(7);
const byFile = new Map();
for (const [site, bytes] of bySite) {
  const file = site.split(' ')[1]?.split(':')[0] ?? site;
  byFile.set(file, (byFile.get(file) ?? 0) + bytes);
}
console.log(
  `${framework}: ${(total / (sessions * rounds) / 1024).toFixed(1)} KiB per session outlived a scavenge`,
);
console.log('\nbytes per session, by allocating function:');
for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`${perSession(bytes)}  ${site}`);
console.log('\nby file:');
for (const [file, bytes] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`${perSession(bytes)}  ${file}`);
process.exit(0);
