import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RateLimiter } from '../../spec/index.js';
import { createMemoryRateLimiter } from '../create-memory-rate-limiter.js';
import { defineTool } from '../define-tool.js';
import { executeToolBatch } from '../execute-tool-batch.js';
import { call, createTestContext } from '../fixtures/batch-context.js';

const input = z.object({});
const hour = 3_600_000;

function counted(name: string, options: Partial<Parameters<typeof defineTool>[0]> = {}) {
  const runs: number[] = [];
  const tool = defineTool({ name, description: 'Counts.', input, execute: () => runs.push(1), ...options });
  return { tool, runs };
}

describe('rate limit stage (through executeToolBatch)', () => {
  it('50 concurrent calls to a tool limited to 20 per hour: exactly 20 run, 30 get rate_limit', async () => {
    const { tool, runs } = counted('send_sms', { rateLimit: { limit: 20, windowMs: hour } });
    const context = createTestContext([tool]);
    const batches = await Promise.all(
      Array.from({ length: 50 }, (_, i) => executeToolBatch([call('send_sms', {}, `c${i}`)], context)),
    );
    const results = batches.flat();
    expect(runs).toHaveLength(20);
    expect(results.filter((r) => r.status === 'success')).toHaveLength(20);
    const limited = results.filter((r) => r.status === 'error' && r.error.category === 'rate_limit');
    expect(limited).toHaveLength(30);
    expect(limited[0]?.contextText).toContain("'send_sms' may run 20 times per hour. Try again in 1 hour");
  });

  it('the same 50 calls in one parallel batch: still exactly 20', async () => {
    const { tool, runs } = counted('send_sms', { rateLimit: { limit: 20, windowMs: hour }, parallel: true });
    const results = await executeToolBatch(
      Array.from({ length: 50 }, (_, i) => call('send_sms', {}, `c${i}`)),
      createTestContext([tool], { maxConcurrency: 50 }),
    );
    expect(runs).toHaveLength(20);
    expect(results.filter((r) => r.status === 'error')).toHaveLength(30);
  });

  it('frees a unit exactly one window after it was used (injected clock)', async () => {
    const { tool, runs } = counted('ping', { rateLimit: { limit: 2, windowMs: 60_000 } });
    const context = createTestContext([tool]);
    const once = async (id: string) => (await executeToolBatch([call('ping', {}, id)], context))[0]?.status;
    expect(await once('a')).toBe('success');
    await context.clock.advance(10_000);
    expect([await once('b'), await once('c')]).toEqual(['success', 'error']);
    await context.clock.advance(49_999);
    expect(await once('d')).toBe('error');
    await context.clock.advance(1);
    expect([await once('e'), await once('f')]).toEqual(['success', 'error']);
    expect(runs).toHaveLength(3);
  });

  it('applies the level defaults: 20 per hour for privileged tools, none for safe ones', async () => {
    const pay = counted('pay', { capability: 'privileged' });
    const look = counted('look', { capability: 'safe' });
    const context = createTestContext([pay.tool, look.tool], { store: undefined });
    for (let i = 0; i < 25; i++)
      await executeToolBatch([call('pay', {}, `p${i}`), call('look', {}, `l${i}`)], context);
    expect(pay.runs).toHaveLength(20);
    expect(look.runs).toHaveLength(25);
  });

  it('counts a level across its tools, per principal, and lets a batch lift or change a level limit', async () => {
    const a = counted('wire_a', { capability: 'restricted' });
    const b = counted('wire_b', { capability: 'restricted' });
    const limiter = createMemoryRateLimiter();
    const base = createTestContext([a.tool, b.tool], {
      store: undefined,
      rateLimiter: limiter,
      rateLimits: { restricted: { limit: 3, windowMs: hour } },
    });
    for (let i = 0; i < 3; i++)
      await executeToolBatch([call('wire_a', {}, `a${i}`), call('wire_b', {}, `b${i}`)], {
        ...base,
        principal: 'ana',
      });
    expect(a.runs.length + b.runs.length).toBe(3);
    await executeToolBatch([call('wire_a', {}, 'x')], { ...base, principal: 'bob' });
    expect(a.runs.length + b.runs.length).toBe(4);
    await executeToolBatch([call('wire_a', {}, 'y')], {
      ...base,
      principal: 'ana',
      rateLimits: { restricted: null },
    });
    expect(a.runs.length + b.runs.length).toBe(5);
  });

  it('fails closed when the limiter cannot answer', async () => {
    const { tool, runs } = counted('send_sms', { rateLimit: { limit: 20, windowMs: hour } });
    const broken: RateLimiter = {
      specVersion: 1,
      kind: 'broken',
      consume: () => Promise.reject(new Error('ECONNREFUSED 127.0.0.1:6379')),
      close: () => Promise.resolve(),
    };
    const [result] = await executeToolBatch(
      [call('send_sms')],
      createTestContext([tool], { rateLimiter: broken }),
    );
    expect(runs).toEqual([]);
    expect(result).toMatchObject({ status: 'error', error: { category: 'rate_limit', retryable: false } });
    expect(result?.contextText).toContain('ECONNREFUSED');
  });
});
