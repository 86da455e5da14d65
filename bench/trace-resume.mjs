import { loadFramework } from './dist/frameworks/framework.js';
import { meter, now } from './dist/shared/meter.js';
import { requestFor } from './dist/shared/plan.js';

const fw = await loadFramework('flowstack');
const agent = await fw.createAgent({ persistence: 'sqlite', maxSteps: 200, sqlitePath: process.argv[2] });
const turn = requestFor({ kind: 'chain', toolCalls: 5 });
for (let i = 0; i < 20; i++) {
  await agent.run(`warm-${i}`, turn);
  agent.clearMockLog();
}
await new Promise((r) => setTimeout(r, 250));
globalThis.__trace = [];
let first = 0;
meter.beforeTool = () => {
  if (!first) first = now();
};
const t0 = now();
await agent.resume('crashed', turn);
const tr = globalThis.__trace;
let inStore = 0;
for (const [k, a, b] of tr) {
  if (a - t0 > first - t0) break;
  inStore += b - a;
  console.log(k.padEnd(16), (a - t0).toFixed(2).padStart(7), (b - a).toFixed(2));
}
console.log('first step', (first - t0).toFixed(2), 'store time before it', inStore.toFixed(2));
process.exit(0);
