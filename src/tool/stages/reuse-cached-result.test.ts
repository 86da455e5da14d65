import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemorySimulationCache } from '../create-memory-simulation-cache.js';
import { defineTool } from '../define-tool.js';
import { executeToolBatch } from '../execute-tool-batch.js';
import { call, createTestContext } from '../fixtures/batch-context.js';

const input = z.object({ city: z.string() });

function weather(options: { idempotent?: boolean; fail?: boolean } = {}) {
  const runs: string[] = [];
  const tool = defineTool({
    name: 'weather',
    description: 'Weather.',
    input,
    idempotent: options.idempotent ?? true,
    cacheTtlMs: 60_000,
    capability: 'controlled',
    execute: ({ city }) => {
      runs.push(city);
      if (options.fail) throw new Error('upstream down');
      return { city, celsius: 21 + runs.length };
    },
  });
  return { tool, runs };
}

describe('result cache stage (through executeToolBatch)', () => {
  it('reuses a success for the same arguments and principal until cacheTtlMs passes, without spending rate units', async () => {
    const { tool, runs } = weather();
    const context = createTestContext([tool], {
      principal: 'ana',
      rateLimits: { controlled: { limit: 2, windowMs: 3_600_000 } },
    });
    context.resultCache = createMemorySimulationCache({ clock: context.clock });
    const ask = async (id: string, city = 'Oslo', principal = 'ana') =>
      (await executeToolBatch([call('weather', { city }, id)], { ...context, principal }))[0];
    const first = await ask('c1');
    const cached = await ask('c2');
    expect(cached).toEqual({ ...first, callId: 'c2' });
    expect(runs).toEqual(['Oslo']);
    await ask('c3', 'Lisbon');
    await ask('c4', 'Oslo', 'bob');
    expect(runs).toEqual(['Oslo', 'Lisbon', 'Oslo']);
    await context.clock.advance(60_000);
    const fresh = await ask('c5');
    // Two units spent by ana (Oslo, Lisbon), so the expired entry's new call is refused: it was a real call.
    expect(fresh).toMatchObject({ status: 'error', error: { category: 'rate_limit' } });
  });

  it('does not cache a non-idempotent tool or a failure, nor without a cache', async () => {
    for (const [options, withCache] of [
      [{ idempotent: false }, true],
      [{ fail: true }, true],
      [{}, false],
    ] as const) {
      const { tool, runs } = weather(options);
      const context = createTestContext([tool]);
      if (withCache) context.resultCache = createMemorySimulationCache({ clock: context.clock });
      await context.clock.runUntil(executeToolBatch([call('weather', { city: 'Oslo' }, 'a')], context));
      const before = runs.length;
      await context.clock.runUntil(executeToolBatch([call('weather', { city: 'Oslo' }, 'b')], context));
      expect(runs.length).toBe(before * 2);
    }
  });
});
