/**
 * Rough figures for `flowstack/redis` against a local Redis: rate-limiter decisions per second (one at a
 * time and 100 in flight) and the fan-out's publish-to-delivery time between two connections. Not a test
 * and not part of `bench/` (no peers to compare with); run it alone:
 *   npx tsx scripts/measure-redis.ts [redis url]
 */
import { performance } from 'node:perf_hooks';
import { createRedisEventFanout, createRedisRateLimiter } from '../src/adapters/redis/index.js';
import type { Observation } from '../src/spec/index.js';

const url = process.argv[2] ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `flowstack-measure:${process.pid}`;
const limiter = createRedisRateLimiter({ url, prefix });

async function measureLimiter(total: number, inFlight: number): Promise<number> {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < total) {
        next += 1;
        await limiter.consume({ key: `k${next % 10}`, limit: 1_000_000, windowMs: 60_000 });
      }
    }),
  );
  return (total / (performance.now() - start)) * 1_000;
}

await measureLimiter(500, 10); // warm-up: connection, script load
const sequential = await measureLimiter(5_000, 1);
const concurrent = await measureLimiter(50_000, 100);

const api = createRedisEventFanout({ url, prefix });
const worker = createRedisEventFanout({ url, prefix });
const latencies: number[] = [];
let sentAt = 0;
let delivered: (() => void) | undefined;
api.subscribe(() => {
  latencies.push(performance.now() - sentAt);
  delivered?.();
});
await api.ready();
const loopStart = performance.now();
for (let i = 1; i <= 2_000; i++) {
  const arrived = new Promise<void>((resolve) => {
    delivered = resolve;
  });
  sentAt = performance.now();
  const observation: Observation = {
    specVersion: 1,
    id: i,
    threadId: 't',
    turnId: 'turn',
    type: 'tool-execution',
    time: Date.now(),
    data: { toolName: 'lookup_weather', status: 'success', output: 'x'.repeat(300) },
  };
  await worker.publish([observation]);
  await arrived;
}
const perEvent = (performance.now() - loopStart) / 2_000;
latencies.splice(0, 100);
latencies.sort((a, b) => a - b);
const percentile = (p: number) => latencies[Math.floor((latencies.length - 1) * p)]?.toFixed(3);

console.log(`rate limiter, one at a time:   ${Math.round(sequential)} decisions/s`);
console.log(`rate limiter, 100 in flight:   ${Math.round(concurrent)} decisions/s`);
console.log(
  `fan-out publish → delivery:    p50 ${percentile(0.5)} ms, p99 ${percentile(0.99)} ms (${perEvent.toFixed(3)} ms per event, one at a time)`,
);
await Promise.all([limiter.close(), api.close(), worker.close()]);
