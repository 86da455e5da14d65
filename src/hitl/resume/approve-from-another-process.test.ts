/**
 * An approval answered from another process — `flowstack approve` while `serve` holds the thread, or a
 * worker — resumes the call as the process that asked would (issue 31, item 10). The answering process
 * has a model of its own, whose call ids start again (`call_1`, as local OpenAI-compatible servers and the
 * scripted model number them): a call of the resumed run must not be taken for an earlier call of the same
 * turn that used that id.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../../agent/index.js';
import { defineFlow } from '../../flow/index.js';
import { createSqliteStore } from '../../store/index.js';
import { createScriptedModel } from '../../test/index.js';
import { defineTool } from '../../tool/index.js';

const bookTrip = defineFlow({
  name: 'book_trip',
  intent: 'transform',
  description: 'Find a flight and book it.',
  slots: [],
  tools: ['find_flights', 'book_flight'],
  skill: 'Find the flight, book it, then finish.',
});

function toolResults(call: LanguageModelV3CallOptions): string[] {
  return call.prompt.flatMap((m) =>
    m.role === 'tool' ? m.content.flatMap((p) => (p.type === 'tool-result' ? [p.toolName] : [])) : [],
  );
}

/** A fresh process: its own store handle, model (call ids from `call_1`) and tools over shared counters. */
function processOn(path: string, ran: string[]) {
  const findFlights = defineTool({
    name: 'find_flights',
    description: 'Finds flights.',
    input: z.object({ to: z.string() }),
    execute: ({ to }) => {
      ran.push(`find:${to}`);
      return { flight: 'TP123' };
    },
  });
  const bookFlight = defineTool({
    name: 'book_flight',
    description: 'Books a flight.',
    input: z.object({ flight: z.string() }),
    capability: 'restricted',
    execute: ({ flight }) => {
      ran.push(`book:${flight}`);
      return { reference: 'BK-1' };
    },
  });
  const model = createScriptedModel({
    steps: [
      { match: { phase: 'predict' }, json: { flow: 'book_trip', slots: {} }, repeat: true },
      {
        match: { phase: 'skill' },
        repeat: true,
        respond: (call) => {
          const done = toolResults(call);
          if (done.length === 0)
            return { toolCalls: [{ toolName: 'find_flights', input: { to: 'Lisbon' } }] };
          // After the approval the model repeats the booking once, as models do, then finishes.
          if (done.filter((name) => name === 'book_flight').length < 2)
            return { toolCalls: [{ toolName: 'book_flight', input: { flight: 'TP123' } }] };
          return {
            toolCalls: [
              { toolName: 'finish_skill', input: { outcome: 'success', data: { text: 'Booked BK-1.' } } },
            ],
          };
        },
      },
    ],
  });
  return createAgent({
    model,
    flows: [bookTrip],
    tools: [findFlights, bookFlight],
    store: createSqliteStore({ path }),
    toolPipeline: { simulate: undefined, capabilities: { approvalFrom: 'restricted' } },
  });
}

describe('an approval answered from another process', () => {
  it('resumes the held call exactly as the asking process would', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'flowstack-approve-elsewhere-')), 'flowstack.db');
    const ran: string[] = [];
    const serving = processOn(path, ran);
    const asked = await serving.send({ threadId: 'trip', text: 'Book me a flight to Lisbon' });
    const question = asked.suspensions?.[0];
    expect(question).toMatchObject({ kind: 'approval', toolName: 'book_flight' });

    const approving = processOn(path, ran);
    const done = await approving.resume({
      threadId: 'trip',
      suspensionId: question?.id ?? '',
      feedback: { decision: 'approve' },
    });
    await approving.close();
    await serving.close();

    expect(done.reply).toContain('Booked BK-1.');
    expect(done.status).toBe('completed');
    // Booked once: the repeated call is answered from the approval, and nothing fails on its call id.
    expect(ran).toEqual(['find:Lisbon', 'book:TP123']);
    const failed = done.observations.filter(
      (o) => o.type === 'tool-execution' && o.data.status !== 'success',
    );
    expect(failed).toEqual([]);
  });
});
