import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../store/index.js';
import { createScriptedModel } from '../test/index.js';
import { stableHash } from '../util/index.js';
import { recordModelCalls } from './record-model-calls.js';

const tools = [
  'add',
  'upper',
  'lookup',
  'context_coordinator',
  'memory_manager',
  'flow_stack',
  'finish_skill',
].map((name) => ({ type: 'function' as const, name, inputSchema: { type: 'object' as const } }));

const call: LanguageModelV3CallOptions = {
  prompt: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: [{ type: 'text', text: 'Add 2 and 3' }] },
  ],
  tools,
  providerOptions: { flowstack: { phase: 'skill', flow: 'sums' } },
};

function setUp(fresh: boolean) {
  const store = createMemoryStore();
  const scripted = createScriptedModel({
    steps: [{ match: {}, repeat: true, respond: () => ({ text: 'Five.' }) }],
  });
  const recorder = recordModelCalls({
    model: scripted,
    store,
    threadId: 't',
    turnId: 'turn_1',
    clock: { now: () => 1 } as never,
    redact: { text: (text) => text },
    fresh,
  });
  return { store, scripted, recorder };
}

describe('recordModelCalls', () => {
  it('journals each answer with a short fingerprint, not the names of every offered tool', async () => {
    const { store, recorder } = setUp(true);
    await recorder.model.doGenerate(call);
    const [row] = await store.listJournal('t');
    expect(row?.toolName).toBe('(model)');
    expect(row?.argsHash).toMatch(/^2:\d+:#[0-9a-f]{12}:text$/);
    expect(row?.result).not.toContain('context_coordinator');
  });

  it('replays a recorded answer instead of asking the model again', async () => {
    const first = setUp(true);
    await first.recorder.model.doGenerate(call);
    const replay = recordModelCalls({
      model: first.scripted,
      store: first.store,
      threadId: 't',
      turnId: 'turn_1',
      clock: { now: () => 2 } as never,
      redact: { text: (text) => text },
    });
    const asked = first.scripted.calls.length;
    const answer = await replay.model.doGenerate(call);
    expect(first.scripted.calls.length).toBe(asked);
    expect(answer.content).toEqual([{ type: 'text', text: 'Five.' }]);
  });

  const lastSize = JSON.stringify(call.prompt.at(-1)?.content).length;
  const names = tools.map((t) => t.name).join(',');
  it.each([
    ['the tool names in full', `2:${lastSize}:${names}:text`],
    ['the last message measured as JSON', `2:${lastSize}:#${stableHash(names).slice(0, 12)}:text`],
  ])('replays an answer recorded under the fingerprint of earlier versions (%s)', async (_, legacy) => {
    const { store, scripted, recorder } = setUp(false);
    const result = JSON.stringify({
      fingerprint: legacy,
      content: [{ type: 'text', text: 'Recorded before the upgrade.' }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: { inputTokens: { total: 1 }, outputTokens: { total: 1 } },
    });
    await store.journalRecord?.({
      key: 't:turn_1:model:skill/sums:0',
      threadId: 't',
      callId: 'skill/sums#0',
      toolName: '(model)',
      argsHash: legacy,
      idempotent: true,
      status: 'succeeded',
      startedAt: 0,
      finishedAt: 0,
      result,
    });
    const answer = await recorder.model.doGenerate(call);
    expect(scripted.calls.length).toBe(0);
    expect(answer.content).toEqual([{ type: 'text', text: 'Recorded before the upgrade.' }]);
  });

  it('tells a step from another by the size of its tool results, without serializing them', async () => {
    const step = (value: string): LanguageModelV3CallOptions => ({
      ...call,
      prompt: [
        ...call.prompt,
        {
          role: 'assistant',
          content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'add', input: { a: 2, b: 3 } }],
        },
        {
          role: 'tool',
          content: [
            { type: 'tool-result', toolCallId: 'call_1', toolName: 'add', output: { type: 'text', value } },
          ],
        },
      ],
    });
    const first = setUp(true);
    await first.recorder.model.doGenerate(step('{"sum":5}'));
    const replayed = (text: string) =>
      recordModelCalls({
        model: first.scripted,
        store: first.store,
        threadId: 't',
        turnId: 'turn_1',
        clock: { now: () => 2 } as never,
        redact: { text: (t) => t },
      }).model.doGenerate(step(text));
    await replayed('{"sum":5}');
    expect(first.scripted.calls.length).toBe(1);
    // A result of another size is another step: the model is asked.
    await replayed('{"sum":500}');
    expect(first.scripted.calls.length).toBe(2);
  });

  it('asks the model again when the recorded answer was for another request', async () => {
    const { store, scripted, recorder } = setUp(false);
    await store.journalRecord?.({
      key: 't:turn_1:model:skill/sums:0',
      threadId: 't',
      callId: 'skill/sums#0',
      toolName: '(model)',
      argsHash: '5:10:#000000000000:text',
      idempotent: true,
      status: 'succeeded',
      startedAt: 0,
      finishedAt: 0,
      result: JSON.stringify({
        fingerprint: '5:10:#000000000000:text',
        content: [],
        finishReason: {},
        usage: {},
      }),
    });
    const answer = await recorder.model.doGenerate(call);
    expect(scripted.calls.length).toBe(1);
    expect(answer.content).toEqual([{ type: 'text', text: 'Five.' }]);
  });
});
