// Orphan repair (issue 32 item 3), through createAgent: a stored run whose transcript holds tool calls
// without results and a result without a call reaches the model well paired — a journaled result is
// used where there is one, and the other call is answered as interrupted.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LanguageModelV3CallOptions, LanguageModelV3Message } from '@ai-sdk/provider';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineFlow } from '../flow/index.js';
import type { StateStore } from '../spec/index.js';
import { createMemoryStore, createSqliteStore } from '../store/index.js';
import { createScriptedModel, type ScriptStep } from '../test/index.js';
import { defineTool, type ToolDefinition } from '../tool/index.js';
import type { Clock } from '../util/index.js';
import { createAgent } from './create-agent.js';

const dir = mkdtempSync(join(tmpdir(), 'flowstack-orphans-'));
const opened: StateStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

const payBills = defineFlow({
  name: 'pay_bills',
  intent: 'transform',
  description: 'Pay the bills the user names.',
  slots: [],
  tools: ['transfer', 'balance'],
  skill: 'Check the balance, then pay each bill with the transfer tool.',
});

const tools = [
  defineTool({
    name: 'transfer',
    description: 'Transfers money to a person.',
    input: z.object({ to: z.string(), amount: z.number().positive() }),
    capability: 'restricted',
    execute: ({ to, amount }) => ({ ok: true, to, amount }),
  }),
  defineTool({
    name: 'balance',
    description: 'The account balance.',
    input: z.object({}),
    idempotent: true,
    execute: () => ({ balance: 100 }),
  }),
] as ToolDefinition[];

const clock: Clock = { now: () => 1_000_000, sleep: () => new Promise(() => {}) };

const steps: ScriptStep[] = [
  { match: { phase: 'predict' }, json: { flow: 'pay_bills', slots: {} }, repeat: true },
  {
    match: { phase: 'skill', prompt: (call) => !call.prompt.some((m) => m.role === 'tool') },
    toolCalls: [{ toolName: 'transfer', input: { to: 'ana', amount: 10 }, callId: 'pay-ana' }],
  },
  { match: { phase: 'skill' }, text: 'Paid Ana.' },
];

/** Every call has one result after it and every result has its call: what providers accept. */
function unpaired(prompt: LanguageModelV3CallOptions['prompt']): string[] {
  const calls = new Set<string>();
  const problems: string[] = [];
  for (const message of prompt) {
    if (message.role === 'assistant')
      for (const part of message.content) if (part.type === 'tool-call') calls.add(part.toolCallId);
    if (message.role === 'tool')
      for (const part of message.content)
        if (part.type === 'tool-result' && !calls.delete(part.toolCallId))
          problems.push(`result ${part.toolCallId}`);
  }
  return [...problems, ...[...calls].map((id) => `call ${id}`)];
}

function resultText(prompt: LanguageModelV3CallOptions['prompt'], callId: string): string | undefined {
  for (const message of prompt)
    if (message.role === 'tool')
      for (const part of message.content)
        if (part.type === 'tool-result' && part.toolCallId === callId)
          return 'value' in part.output ? String(part.output.value) : undefined;
  return undefined;
}

/** Rewrites the waiting run's checkpoint as an older version or an import could have left it. */
async function writeOrphans(store: StateStore, threadId: string): Promise<void> {
  const stored = await store.loadThread(threadId);
  if (!stored) throw new Error('no thread');
  const snapshot = JSON.parse(stored.data);
  const run = Object.values(snapshot.extensions.hitl.runs)[0] as {
    runTurnId: string;
    messages: LanguageModelV3Message[];
  };
  const orphans: LanguageModelV3Message[] = [
    {
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: 'lost-balance', toolName: 'balance', input: {} },
        {
          type: 'tool-call',
          toolCallId: 'lost-transfer',
          toolName: 'transfer',
          input: { to: 'cy', amount: 5 },
        },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'ghost',
          toolName: 'balance',
          output: { type: 'text', value: '7' },
        },
      ],
    },
  ];
  run.messages.splice(run.messages.length - 2, 0, ...orphans);
  await store.commit({
    threadId,
    expectedVersion: stored.version,
    data: JSON.stringify(snapshot),
    now: 1_000_001,
  });
  // The balance call's result made it to the journal before the process died.
  await store.journalStart({
    key: `${threadId}:${run.runTurnId}:lost-balance`,
    threadId,
    callId: 'lost-balance',
    toolName: 'balance',
    argsHash: 'h',
    idempotent: true,
    status: 'started',
    startedAt: 1_000_000,
  });
  await store.journalFinish({
    key: `${threadId}:${run.runTurnId}:lost-balance`,
    status: 'succeeded',
    finishedAt: 1_000_001,
    result: JSON.stringify({
      callId: 'lost-balance',
      toolName: 'balance',
      status: 'success',
      output: { balance: 42 },
      contextText: '{"balance":42}',
    }),
  });
}

describe.each([
  ['memory', () => createMemoryStore()],
  ['SQLite', () => createSqliteStore({ path: join(dir, `orphans-${Math.random()}.db`) })],
])('orphan repair before a model call (%s store)', (_name, makeStore) => {
  it('answers orphaned calls from the journal or as interrupted, drops a result without a call', async () => {
    const store = makeStore();
    opened.push(store);
    const model = createScriptedModel({ steps });
    const agent = createAgent({
      model,
      flows: [payBills],
      tools,
      store,
      clock,
      toolPipeline: { simulate: undefined, capabilities: { approvalFrom: 'restricted' } },
    });
    const first = await agent.send({ threadId: 't', text: 'pay ana' });
    expect(first.status).toBe('suspended');
    await writeOrphans(store, 't');

    const after = await agent.resume({
      threadId: 't',
      suspensionId: first.suspensions?.[0]?.id ?? '',
      feedback: { decision: 'approve' },
    });
    expect(after.reply).toBe('Paid Ana.');
    const prompt = model.calls.at(-1)?.prompt ?? [];
    expect(unpaired(prompt)).toEqual([]);
    expect(resultText(prompt, 'lost-balance')).toBe('{"balance":42}');
    expect(resultText(prompt, 'lost-transfer')).toMatch(/interrupted/);
    expect(resultText(prompt, 'ghost')).toBeUndefined();
    expect(resultText(prompt, 'pay-ana')).toContain('ana');
    expect(after.observations.find((o) => o.data.action === 'transcript-repaired')?.data).toEqual({
      action: 'transcript-repaired',
      recorded: ['lost-balance'],
      interrupted: ['lost-transfer'],
      dropped: ['ghost'],
    });
  });
});
