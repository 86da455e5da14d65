import { afterEach, describe, expect, it } from 'vitest';
import type { DefaultBounds, StateStore, ToolCallResult } from '../spec/index.js';
import { createMemoryStore } from '../store/index.js';
import { createToolSet, executeToolBatch, type ToolBatchContext } from '../tool/index.js';
import type { Clock } from '../util/index.js';
import { answerDelegation } from './answer-delegation.js';
import { createA2AClientPool } from './create-a2a-client-pool.js';
import { delegateTask } from './delegate-task.js';
import { createDelegateToAgentTool } from './delegate-to-agent.js';
import { startA2ATestAgent, type TestAgent, type TestAgentOptions } from './fixtures/start-a2a-test-agent.js';

/** A clock whose sleep yields to the event loop and moves time on; `onSleep` runs on every sleep. */
function createTestClock(onSleep: () => void = () => {}, asked: number[] = []): Clock & { sleeps: number } {
  let now = 1_000;
  const clock = {
    sleeps: 0,
    now: () => now,
    sleep: (ms: number, signal?: AbortSignal) =>
      new Promise<void>((resolve, reject) => {
        asked.push(ms);
        if (signal?.aborted) return reject(signal.reason);
        if (ms >= 60_000) {
          // The deadline sleep: resolves only if the wait outlives it, which these tests never do.
          signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
          return;
        }
        clock.sleeps += 1;
        onSleep();
        setImmediate(() => {
          now += ms;
          resolve();
        });
      }),
  };
  return clock;
}

const agents: TestAgent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.close()));
});

async function setup(agentOptions: TestAgentOptions, store: StateStore = createMemoryStore()) {
  const agent = await startA2ATestAgent(agentOptions);
  agents.push(agent);
  const clock = createTestClock(() => agent.release());
  const pool = createA2AClientPool([{ id: 'research', url: agent.url }]);
  const tool = createDelegateToAgentTool({ pool, store, clock });
  const batch: ToolBatchContext = {
    tools: createToolSet([tool]),
    threadId: 't1',
    turnId: 'turn_1',
    clock,
    store,
    maxContextChars: 1_500,
    redact: { text: (t) => t, value: (v) => v },
  };
  const call = (input: unknown, callId = 'call_1') =>
    executeToolBatch([{ callId, toolName: 'delegate_to_agent', input: JSON.stringify(input) }], batch).then(
      (results) => results[0] as ToolCallResult,
    );
  return { agent, clock, pool, store, call };
}

describe('delegate_to_agent', () => {
  it('delegates over streaming and returns the remote answer as the tool result', async () => {
    const { agent, call } = await setup({
      streaming: true,
      respond: ({ text }) => ({ answer: `found 3 papers on ${text}` }),
    });
    const result = await call({ agentId: 'research', input: 'solar sails' });
    expect(result).toMatchObject({
      status: 'success',
      output: { agentId: 'research', text: 'found 3 papers on solar sails' },
    });
    expect(agent.received.map((r) => r.text)).toEqual(['solar sails']);
  });

  it('polls an agent that does not stream, on the injected clock, until the task completes', async () => {
    const { agent, clock, call } = await setup({
      streaming: false,
      hold: true,
      respond: () => ({ answer: 'done later' }),
    });
    const result = await call({ agentId: 'research', input: 'slow job' });
    expect(result).toMatchObject({ status: 'success', output: { text: 'done later' } });
    expect(clock.sleeps).toBeGreaterThanOrEqual(1);
    expect(agent.received).toHaveLength(1);
  });

  it('answers a second run of the same call from the record, without sending again', async () => {
    const { agent, pool, store, clock } = await setup({
      streaming: true,
      respond: () => ({ answer: 'once' }),
    });
    const options = {
      pool,
      store,
      clock,
      limits: { pollIntervalMs: 10, timeoutMs: 60_000 },
      threadId: 't1',
      callId: 'c1',
      agentId: 'research',
      text: 'x',
    };
    const first = await delegateTask({ ...options, idempotencyKey: 't1:turn_1:c1' });
    const second = await delegateTask({ ...options, idempotencyKey: 't1:turn_1:c1' });
    expect(second).toEqual(first);
    expect(agent.received).toHaveLength(1);
  });

  it('after a crash between "started" and the remote task id, adopts the task that was sent instead of sending twice', async () => {
    const { agent, pool, clock } = await setup({ streaming: true, respond: () => ({ answer: 'sent once' }) });
    const key = 't1:turn_1:c9';
    const options = {
      pool,
      clock,
      limits: { pollIntervalMs: 10, timeoutMs: 60_000 },
      threadId: 't1',
      callId: 'c9',
      agentId: 'research',
      text: 'x',
      idempotencyKey: key,
    };
    // The first process sent the message and died before saving the task id.
    await delegateTask({ ...options, store: createMemoryStore() });
    const survivor = createMemoryStore();
    await survivor.journalStart({
      key: `${key}#a2a`,
      threadId: 't1',
      callId: 'c9',
      toolName: 'a2a:research',
      argsHash: 'h',
      idempotent: false,
      status: 'started',
      startedAt: 1,
    });
    const outcome = await delegateTask({ ...options, store: survivor });
    expect(outcome).toMatchObject({ status: 'completed', text: 'sent once' });
    expect(agent.received).toHaveLength(1);
    // And a crash before anything was sent: the agent has no task in that context, so it is sent now.
    const other = createMemoryStore();
    await other.journalStart({
      key: 't1:turn_1:c10#a2a',
      threadId: 't1',
      callId: 'c10',
      toolName: 'a2a:research',
      argsHash: 'h',
      idempotent: false,
      status: 'started',
      startedAt: 1,
    });
    await delegateTask({ ...options, store: other, idempotencyKey: 't1:turn_1:c10' });
    expect(agent.received).toHaveLength(2);
  });

  it.each([true, false])(
    'turns a remote input-required into a suspension, and carries the answer back exactly once (streaming: %s)',
    async (streaming) => {
      const { agent, pool, store, clock, call } = await setup({
        streaming,
        respond: ({ turn, text }) => (turn === 1 ? { ask: 'Which year?' } : { answer: `report for ${text}` }),
      });
      const suspended = await call({ agentId: 'research', input: 'annual report' });
      expect(suspended).toMatchObject({ status: 'suspended', reason: "Agent 'research' asks: Which year?" });
      const options = {
        pool,
        store,
        clock,
        limits: { pollIntervalMs: 10, timeoutMs: 60_000 },
        idempotencyKey: 't1:turn_1:call_1',
      };
      const answered = await answerDelegation({ ...options, text: '2025' });
      expect(answered).toMatchObject({ status: 'completed', text: 'report for 2025' });
      expect(await answerDelegation({ ...options, text: '2025' })).toEqual(answered);
      expect(agent.received.map((r) => r.text)).toEqual(['annual report', '2025']);
      expect(new Set(agent.received.map((r) => r.taskId)).size).toBe(1);
    },
  );

  it('reports a remote failure, an unknown agent and a dead agent as tool errors', async () => {
    const { agent, call } = await setup({ streaming: true, respond: () => ({ fail: 'quota exceeded' }) });
    expect(await call({ agentId: 'research', input: 'x' })).toMatchObject({
      status: 'error',
      error: { category: 'server_error', message: expect.stringContaining('quota exceeded') },
    });
    expect(await call({ agentId: 'nobody', input: 'x' }, 'call_2')).toMatchObject({
      status: 'error',
      error: { category: 'not_found' },
    });
    await agent.close();
    agents.length = 0;
    expect(await call({ agentId: 'research', input: 'y' }, 'call_3')).toMatchObject({ status: 'error' });
  });
});

describe('the bounds of a delegation (createAgent({ a2a: { limits } }))', () => {
  /** How long a delegation to an agent that does not stream waits: between polls, and at most. */
  async function waits(
    limits?: Partial<DefaultBounds['a2a']>,
  ): Promise<[number | undefined, number | undefined]> {
    const remote = await startA2ATestAgent({
      streaming: false,
      hold: true,
      respond: () => ({ answer: 'later' }),
    });
    agents.push(remote);
    const asked: number[] = [];
    const clock = createTestClock(() => remote.release(), asked);
    const store = createMemoryStore();
    const tool = createDelegateToAgentTool({
      pool: createA2AClientPool([{ id: 'research', url: remote.url }]),
      store,
      clock,
      ...(limits ? { limits } : {}),
    });
    const batch: ToolBatchContext = {
      tools: createToolSet([tool]),
      threadId: 't1',
      turnId: 'turn_1',
      clock,
      store,
      maxContextChars: 1_500,
      redact: { text: (t) => t, value: (v) => v },
    };
    const input = JSON.stringify({ agentId: 'research', input: 'slow job' });
    await executeToolBatch([{ callId: 'c1', toolName: 'delegate_to_agent', input }], batch);
    return [asked.find((ms) => ms < 60_000), asked.find((ms) => ms >= 60_000)];
  }

  const cases: Record<keyof DefaultBounds['a2a'], { limits: Partial<DefaultBounds['a2a']>; set: unknown }> = {
    pollIntervalMs: { limits: { pollIntervalMs: 10 }, set: [10, 300_000] },
    timeoutMs: { limits: { timeoutMs: 120_000 }, set: [1_000, 120_000] },
  };
  it.each(Object.entries(cases))('%s changes how long it waits', async (_, { limits, set }) => {
    expect(await waits()).toEqual([1_000, 300_000]);
    expect(await waits(limits)).toEqual(set);
  });
});
