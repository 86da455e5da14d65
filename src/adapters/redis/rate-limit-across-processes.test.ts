/**
 * Issue 9's acceptance for rate limits: the tool pipeline's test (50 concurrent calls to a tool limited
 * to 20 per hour: exactly 20 run) across three processes that share one Redis — exactly 20 run in all,
 * not 20 per process — and exact at the window's edge on a shared injected clock.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeWithService, serviceAvailable } from '../../test/require-service.js';
import { bundleChild, type LineChild, startLineChild } from './fixtures/line-child.js';

const url = process.env.FLOWSTACK_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const available = await serviceAvailable('redis', url);
let bundle = '';
const prefix = `flowstack-test:hammer:${process.pid}:${Date.now().toString(36)}`;
const hour = 3_600_000;
const t0 = 1_700_000_000_000;

interface Round {
  ran: number;
  limited: number;
}

/** Three children on one limit; `rounds` says when each round happens. Returns each round's totals. */
async function hammer(keyPrefix: string, rounds: string, count: number): Promise<Round[][]> {
  const outputs: LineChild[] = [];
  try {
    for (let i = 0; i < 3; i++) outputs.push(startLineChild(bundle, [url, keyPrefix, rounds]));
    for (const output of outputs) expect(await output.next()).toBe('ready');
    const results: Round[][] = [];
    for (let round = 0; round < count; round++) {
      for (const output of outputs) output.send('go');
      results.push(
        await Promise.all(outputs.map(async (output) => JSON.parse(await output.next()) as Round)),
      );
    }
    return results;
  } finally {
    for (const output of outputs) output.kill();
  }
}

const total = (round: Round[] | undefined, field: keyof Round) =>
  (round ?? []).reduce((sum, r) => sum + r[field], 0);

describeWithService({ kind: 'redis', url, available, describe }, 'Redis rate limit across processes', () => {
  beforeAll(async () => {
    bundle = await bundleChild('hammer-limit-child');
  });

  afterAll(async () => {
    const admin = new Redis(url);
    const keys = await admin.keys(`${prefix}:*`);
    if (keys.length > 0) await admin.del(...keys);
    admin.disconnect();
  });

  it('3 processes × 50 concurrent calls through the tool pipeline, limit 20 per hour: exactly 20 run', async () => {
    const [round] = await hammer(`${prefix}:server`, 'server', 1);
    expect(round).toHaveLength(3);
    expect(total(round, 'ran')).toBe(20);
    expect(total(round, 'limited')).toBe(130);
  });

  it('at the window edge: nothing a millisecond early, exactly 20 more at one hour, across the processes', async () => {
    const rounds = await hammer(`${prefix}:edge`, [t0, t0 + hour - 1, t0 + hour].join(','), 3);
    expect(rounds.map((round) => total(round, 'ran'))).toEqual([20, 0, 20]);
    expect(rounds.map((round) => total(round, 'limited'))).toEqual([130, 150, 130]);
  });
});
