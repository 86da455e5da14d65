import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ThreadBusyError } from '../errors/index.js';
import { defineFlow } from '../flow/index.js';
import { createMemoryStore } from '../store/index.js';
import { createScriptedModel } from '../test/index.js';
import { defineTool } from '../tool/index.js';
import { createThreadLease } from '../turn/index.js';
import type { Clock } from '../util/index.js';
import { createAgent } from './create-agent.js';

const ttlMs = 3_000;

/** A clock whose time the test moves; its sleeps never end (no test waits on the wall clock). */
function movableClock(start: number): Clock & { advance(ms: number): void } {
  let now = start;
  return {
    now: () => now,
    sleep: () => new Promise(() => {}),
    advance: (ms) => {
      now += ms;
    },
  };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('createThreadLease', () => {
  it('renews the lease while the work runs, so no other process takes the thread after its first time to live', async () => {
    const store = createMemoryStore();
    const clock = movableClock(1_000);
    const hold = createThreadLease({ store, owner: 'worker-a', clock, ttlMs });
    const taken = await hold('t1', async () => {
      for (let beat = 0; beat < 5; beat++) {
        clock.advance(ttlMs / 3);
        await vi.advanceTimersByTimeAsync(ttlMs / 3);
      }
      return store.acquireLease({ threadId: 't1', owner: 'worker-b', ttlMs, now: clock.now() });
    });
    expect(taken).toBe(false);
    expect(await store.acquireLease({ threadId: 't1', owner: 'worker-b', ttlMs, now: clock.now() })).toBe(
      true,
    );
  });

  it('stops the work with ThreadBusyError when another process took the lease', async () => {
    const store = createMemoryStore();
    const clock = movableClock(1_000);
    const hold = createThreadLease({ store, owner: 'worker-a', clock, ttlMs });
    const seen: unknown[] = [];
    await hold('t1', async (lease) => {
      lease.onStop((reason) => seen.push(reason));
      // The process stalls past its lease; another takes the thread before the next renewal.
      clock.advance(ttlMs + 1);
      expect(await store.acquireLease({ threadId: 't1', owner: 'worker-b', ttlMs, now: clock.now() })).toBe(
        true,
      );
      expect(lease.stopped).toBe(false);
      await vi.advanceTimersByTimeAsync(ttlMs / 3);
      expect(lease.stopped).toBe(true);
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeInstanceOf(ThreadBusyError);
    // Releasing its own lease leaves the new holder's alone.
    expect(await store.acquireLease({ threadId: 't1', owner: 'worker-c', ttlMs, now: clock.now() })).toBe(
      false,
    );
  });

  it('keeps one heartbeat for every lease it holds, and none once they are all released', async () => {
    const store = createMemoryStore();
    const hold = createThreadLease({ store, owner: 'worker-a', clock: movableClock(1_000), ttlMs });
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const works = ['t1', 't2', 't3'].map((threadId) => hold(threadId, () => gate));
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(1);
    await expect(hold('t2', () => Promise.resolve())).rejects.toBeInstanceOf(ThreadBusyError);
    release();
    await Promise.all(works);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('an agent whose lease is lost during a turn', () => {
  it('cancels the running tool and saves nothing of the turn over the new holder', async () => {
    const store = createMemoryStore();
    const clock = movableClock(1_000_000);
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    let cancelled = false;
    const agent = createAgent({
      model: createScriptedModel({
        steps: [
          { match: { phase: 'skill' }, toolCalls: [{ toolName: 'export_report', input: { month: 'May' } }] },
        ],
      }),
      flows: [
        defineFlow({
          name: 'export',
          intent: 'read',
          description: 'Export the monthly report.',
          tools: ['export_report'],
          skill: 'Export the report.',
        }),
      ],
      tools: [
        defineTool({
          name: 'export_report',
          description: 'Exports a report; takes a while.',
          input: z.object({ month: z.string() }),
          idempotent: true,
          execute: (_input, { signal }) =>
            new Promise((_resolve, reject) => {
              signal.addEventListener('abort', () => {
                cancelled = true;
                reject(signal.reason);
              });
              started();
            }),
        }),
      ],
      rules: [{ pattern: /export/, flow: 'export' }],
      store,
      clock,
      limits: { leaseTtlMs: ttlMs },
      toolPipeline: { simulate: undefined },
    });
    const turn = agent.send({ threadId: 't1', text: 'export the May report' });
    turn.catch(() => undefined);
    await running;
    const saved = await store.loadThread('t1');

    clock.advance(ttlMs + 1);
    expect(await store.acquireLease({ threadId: 't1', owner: 'worker-b', ttlMs, now: clock.now() })).toBe(
      true,
    );
    await vi.advanceTimersByTimeAsync(ttlMs / 3);

    await expect(turn).rejects.toBeInstanceOf(ThreadBusyError);
    expect(cancelled).toBe(true);
    expect((await store.loadThread('t1'))?.version).toBe(saved?.version);
  });
});
