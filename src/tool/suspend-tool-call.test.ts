import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryStore } from '../store/index.js';
import { stableHash, systemClock } from '../util/index.js';
import { defineTool } from './define-tool.js';
import { executeToolBatch } from './execute-tool-batch.js';
import { suspendToolCall } from './suspend-tool-call.js';
import { createToolSet } from './tool-definition.js';

describe('suspendToolCall', () => {
  it('makes the pipeline return a suspended result, journaled as suspended so a replay waits again', async () => {
    const store = createMemoryStore();
    const ask = defineTool({
      name: 'ask_owner',
      description: 'Asks the owner.',
      input: z.object({ question: z.string() }),
      execute: ({ question }) =>
        suspendToolCall(
          `The owner must answer: ${question} (token sk-abcdefghijklmnopqrstuvwxyz0123456789ABCD)`,
        ),
    });
    const [result] = await executeToolBatch(
      [{ callId: 'c1', toolName: 'ask_owner', input: '{"question":"ok?"}' }],
      {
        tools: createToolSet([ask]),
        threadId: 't1',
        turnId: 'turn_1',
        clock: systemClock,
        store,
        maxContextChars: 1_500,
        redact: { text: (t) => t.replace(/sk-\w+/g, '[REDACTED]'), value: (v) => v },
      },
    );
    expect(result).toEqual({
      status: 'suspended',
      kind: 'feedback',
      callId: 'c1',
      toolName: 'ask_owner',
      reason: 'The owner must answer: ok? (token [REDACTED])',
      argsHash: stableHash({ question: 'ok?' }),
      idempotencyKey: 't1:turn_1:c1',
      contextText: 'The owner must answer: ok? (token [REDACTED])',
    });
    const entry = await store.readJournal('t1:turn_1:c1');
    expect(entry?.status).toBe('suspended');
    expect(JSON.parse(entry?.result ?? '{}')).toEqual(result);
  });

  it('is never confused with an ordinary output of the same shape', async () => {
    const echo = defineTool({
      name: 'echo',
      description: 'Echoes.',
      input: z.object({}),
      execute: () => ({ reason: 'looks like a suspension' }),
    });
    const [result] = await executeToolBatch([{ callId: 'c1', toolName: 'echo', input: '{}' }], {
      tools: createToolSet([echo]),
      threadId: 't1',
      turnId: 'turn_1',
      clock: systemClock,
      maxContextChars: 1_500,
      redact: { text: (t) => t, value: (v) => v },
    });
    expect(result?.status).toBe('success');
  });
});
