import { describe, expect, it } from 'vitest';
import type { ObservationRow } from '../spec/index.js';
import { summarizeThreadEvents } from './summarize-thread-events.js';

function storeOf(events: Array<[string, Record<string, unknown>]>) {
  const rows: ObservationRow[] = events.map(([type, data], i) => ({
    id: i + 1,
    threadId: 't',
    type,
    data: JSON.stringify({ specVersion: 1, threadId: 't', turnId: 'u', type, time: i, data }),
    createdAt: i,
  }));
  return {
    readObservations: async (_t: string, o?: { afterId?: number; limit?: number }) =>
      rows.filter((r) => r.id > (o?.afterId ?? 0)).slice(0, o?.limit ?? rows.length),
  };
}

describe('summarizeThreadEvents', () => {
  it('keeps the questions a suspended turn lists until each is answered or the turn ends', async () => {
    const store = storeOf([
      ['intent', {}],
      [
        'suspended',
        {
          suspensions: [
            { id: 's1', kind: 'approval', toolName: 'a', callId: 'c1' },
            { id: 's2', kind: 'feedback', toolName: 'b', callId: 'c2' },
          ],
        },
      ],
      ['final-response', { status: 'suspended' }],
      ['resumed', { suspensionId: 's1', outcome: 'answered' }],
    ]);
    const summary = await summarizeThreadEvents(store, 't');
    expect(summary.lastEventId).toBe(4);
    expect(summary.suspensions.map((s) => [s.suspensionId, s.kind, s.toolName])).toEqual([
      ['s2', 'feedback', 'b'],
    ]);

    const ended = storeOf([
      ['suspended', { suspensionId: 's1', callId: 'c1', toolName: 'a', reason: 'needs approval' }],
      ['resumed', { after: 'interruption' }],
      ['final-response', { status: 'completed' }],
    ]);
    expect((await summarizeThreadEvents(ended, 't')).suspensions).toEqual([]);
  });

  it('reads a single question given in the observation itself, and a resumption by call id', async () => {
    const store = storeOf([
      ['suspended', { suspensionId: 's9', callId: 'c9', toolName: 'x', reason: 'why', input: { n: 1 } }],
    ]);
    expect((await summarizeThreadEvents(store, 't')).suspensions).toEqual([
      { suspensionId: 's9', callId: 'c9', toolName: 'x', prompt: 'why', input: { n: 1 }, observationId: 1 },
    ]);
    const answered = storeOf([
      ['suspended', { callId: 'c9', toolName: 'x', reason: 'why' }],
      ['resumed', { callId: 'c9' }],
    ]);
    expect((await summarizeThreadEvents(answered, 't')).suspensions).toEqual([]);
  });
});
