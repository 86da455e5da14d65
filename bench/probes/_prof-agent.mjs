import { loadFramework } from '/work/wt-exp/bench/dist/frameworks/load-framework.js';
import { requestFor } from '/work/wt-exp/bench/dist/shared/plan.js';
const k = Number(process.argv[2] ?? 10);
const n = Number(process.argv[3] ?? 3000);
const persistence = process.argv[4] ?? 'none';
const agent = await (await loadFramework('flowstack')).createAgent({ persistence, maxSteps: k + 5 });
const request = requestFor({ kind: 'chain', toolCalls: k });
for (let i = 0; i < 1000; i++) { await agent.run(`warm-${i}`, request); agent.clearMockLog(); }
const cpu = process.cpuUsage(); const t0 = performance.now();
for (let i = 0; i < n; i++) { await agent.run(`m-${i}`, request); agent.clearMockLog(); }
const u = process.cpuUsage(cpu); const steps = n * (k + 1);
console.log(`K=${k} ${persistence}: ${((u.user + u.system) / steps).toFixed(1)} µs CPU, ${((performance.now() - t0) * 1000 / steps).toFixed(1)} µs wall per step`);
