import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolCallError } from '../../errors/index.js';
import { defineTool } from '../define-tool.js';
import { executeToolBatch } from '../execute-tool-batch.js';
import { call, createTestContext } from '../fixtures/batch-context.js';

const input = z.object({});

function flaky(options: {
  idempotent: boolean;
  failures: number;
  error?: () => unknown;
  maxRetries?: number;
}) {
  const keys: string[] = [];
  const tool = defineTool({
    name: 'flaky',
    description: 'Fails a few times.',
    input,
    idempotent: options.idempotent,
    timeoutMs: 5_000,
    ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
    execute: (_input, context) => {
      keys.push(`${context.idempotencyKey}#${context.attempt}`);
      if (keys.length <= options.failures) throw options.error?.() ?? new Error('connection reset');
      return 'done';
    },
  });
  return { tool, keys };
}

describe('retry stage (through executeToolBatch)', () => {
  it('retries an idempotent tool with exponential backoff on the injected clock, under one idempotency key', async () => {
    const { tool, keys } = flaky({ idempotent: true, failures: 2 });
    const context = createTestContext([tool]);
    const [result] = await context.clock.runUntil(executeToolBatch([call('flaky')], context));
    expect(result).toMatchObject({ status: 'success', output: 'done' });
    expect(keys).toEqual([
      'thread-1:turn-1:call-flaky#1',
      'thread-1:turn-1:call-flaky#2',
      'thread-1:turn-1:call-flaky#3',
    ]);
    expect(context.clock.sleeps.filter((ms) => ms !== tool.timeoutMs)).toEqual([1_000, 2_000]);
  });

  it('jitters each wait by the injected random source: capped − ⌊capped / 2 × random⌋', async () => {
    const { tool } = flaky({ idempotent: true, failures: 2 });
    const context = createTestContext([tool], { random: () => 0.5 });
    await context.clock.runUntil(executeToolBatch([call('flaky')], context));
    expect(context.clock.sleeps.filter((ms) => ms !== tool.timeoutMs)).toEqual([750, 1_500]);
  });

  it('waits differently for retries of the same failure with the default (real) random source, within the bounds', async () => {
    const waits: number[] = [];
    for (let run = 0; run < 8; run++) {
      const { tool } = flaky({ idempotent: true, failures: 1 });
      // Without the fixture's fixed source: the batch draws from Math.random, as in production.
      const { random: _fixed, ...context } = createTestContext([tool]);
      await context.clock.runUntil(executeToolBatch([call('flaky')], context));
      waits.push(...context.clock.sleeps.filter((ms) => ms !== tool.timeoutMs));
    }
    expect(waits).toHaveLength(8);
    expect(new Set(waits).size).toBeGreaterThan(1);
    for (const wait of waits) {
      expect(wait).toBeGreaterThan(500);
      expect(wait).toBeLessThanOrEqual(1_000);
    }
  });

  it('makes exactly the configured number of attempts, then reports how many', async () => {
    const { tool, keys } = flaky({ idempotent: true, failures: 99, maxRetries: 4 });
    const context = createTestContext([tool], { retry: { baseDelayMs: 10_000, maxDelayMs: 30_000 } });
    const [result] = await context.clock.runUntil(executeToolBatch([call('flaky')], context));
    expect(keys).toHaveLength(5);
    expect(result).toMatchObject({ status: 'error', error: { category: 'server_error', attempts: 5 } });
    expect(context.clock.sleeps.filter((ms) => ms !== tool.timeoutMs)).toEqual([
      10_000, 20_000, 30_000, 30_000,
    ]);
  });

  it('never retries a non-idempotent tool after a server error', async () => {
    const { tool, keys } = flaky({ idempotent: false, failures: 1 });
    const context = createTestContext([tool]);
    const [result] = await context.clock.runUntil(executeToolBatch([call('flaky')], context));
    expect(keys).toHaveLength(1);
    expect(result?.status).toBe('error');
  });

  it('never retries a timed-out non-idempotent call, but does retry a timed-out idempotent one', async () => {
    for (const idempotent of [false, true]) {
      let runs = 0;
      const tool = defineTool({
        name: 'slow',
        description: 'Slow once.',
        input,
        idempotent,
        timeoutMs: 1_000,
        execute: () => (++runs === 1 ? new Promise(() => undefined) : 'fast now'),
      });
      const context = createTestContext([tool]);
      const [result] = await context.clock.runUntil(executeToolBatch([call('slow')], context));
      expect(runs).toBe(idempotent ? 2 : 1);
      expect(result?.status).toBe(idempotent ? 'success' : 'error');
    }
  });

  it('retries a non-idempotent tool after an upstream rate_limit refusal, waiting as long as it asked', async () => {
    const { tool, keys } = flaky({
      idempotent: false,
      failures: 1,
      error: () => new ToolCallError({ category: 'rate_limit', message: 'slow down', retryAfterMs: 7_000 }),
    });
    const context = createTestContext([tool]);
    const [result] = await context.clock.runUntil(executeToolBatch([call('flaky')], context));
    expect(result?.status).toBe('success');
    expect(keys).toHaveLength(2);
    expect(context.clock.sleeps.filter((ms) => ms !== tool.timeoutMs)).toEqual([7_000]);
  });

  it('does not retry errors that cannot succeed again (validation, auth, not found)', async () => {
    for (const category of ['validation_error', 'auth_error', 'not_found'] as const) {
      const { tool, keys } = flaky({
        idempotent: true,
        failures: 1,
        error: () => new ToolCallError({ category, message: 'no' }),
      });
      const [result] = await executeToolBatch([call('flaky')], createTestContext([tool]));
      expect(keys).toHaveLength(1);
      expect(result).toMatchObject({ status: 'error', error: { category } });
    }
  });

  it('gives up instead of waiting when the tool asks for longer than the longest backoff', async () => {
    const { tool, keys } = flaky({
      idempotent: true,
      failures: 1,
      error: () => new ToolCallError({ category: 'rate_limit', message: 'quota', retryAfterMs: 3_600_000 }),
    });
    const [result] = await executeToolBatch([call('flaky')], createTestContext([tool]));
    expect(keys).toHaveLength(1);
    expect(result).toMatchObject({ status: 'error', error: { category: 'rate_limit' } });
  });

  it('stops waiting to retry when the batch is cancelled', async () => {
    const controller = new AbortController();
    const { tool, keys } = flaky({ idempotent: true, failures: 99 });
    const context = createTestContext([tool], { signal: controller.signal });
    const pending = executeToolBatch([call('flaky')], context);
    await context.clock.advance(0);
    controller.abort();
    const [result] = await pending;
    expect(keys).toHaveLength(1);
    expect(result?.status).toBe('error');
  });
});
