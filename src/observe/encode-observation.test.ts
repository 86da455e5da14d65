import { describe, expect, it } from 'vitest';
import type { ObservationDraft } from '../spec/index.js';
import { decodeObservation } from './decode-observation.js';
import { createObservationEncoder } from './encode-observation.js';

function draft(overrides: Partial<ObservationDraft> = {}): ObservationDraft {
  return {
    specVersion: 1,
    threadId: 'thread-1',
    turnId: 'turn-1',
    type: 'tool-call',
    time: 1_795_710_594_483,
    data: { callId: 'call_1', toolName: 'add' },
    ...overrides,
  };
}

describe('createObservationEncoder', () => {
  it('writes the text JSON.stringify writes, draft after draft of one turn', () => {
    const encode = createObservationEncoder();
    const drafts = [
      draft(),
      draft({ type: 'tool-execution', data: { callId: 'call_1', toolName: 'add', status: 'success' } }),
      { ...draft({ type: 'flow-pop' }), parentId: 'flow_1' },
      draft({
        type: 'final-response',
        time: 0,
        data: { text: 'Done.\n"quoted" ünïcode \u2028', status: 'completed' },
      }),
    ];
    for (const d of drafts) expect(encode(d)).toBe(JSON.stringify(d));
  });

  it('serializes a new envelope when the thread or turn changes, and ids that need escaping', () => {
    const encode = createObservationEncoder();
    const drafts = [
      draft(),
      draft({ turnId: 'turn-2' }),
      draft({ threadId: 'thread "two"\\', turnId: 'turn-2' }),
      draft({ threadId: 'thread-1', turnId: 'turn-1', time: -1.5 }),
    ];
    for (const d of drafts) expect(encode(d)).toBe(JSON.stringify(d));
  });

  it('serializes a draft it cannot take apart whole: a time that is not finite, a parent that is not text', () => {
    const encode = createObservationEncoder();
    const odd = [
      draft({ time: Number.NaN }),
      { ...draft(), parentId: 7 } as unknown as ObservationDraft,
      { ...draft(), data: null } as unknown as ObservationDraft,
    ];
    for (const d of odd) expect(encode(d)).toBe(JSON.stringify(d));
  });

  it('leaves out a parent that is undefined, as JSON.stringify does', () => {
    const encode = createObservationEncoder();
    const d = { ...draft(), parentId: undefined };
    expect(encode(d)).toBe(JSON.stringify(d));
    expect(encode(d)).not.toContain('parentId');
  });

  it('is read back by decodeObservation as the draft it was', () => {
    const encode = createObservationEncoder();
    const d = { ...draft({ data: { nested: { list: [1, 'two', null] } } }), parentId: 'flow_9' };
    const row = { id: 12, threadId: d.threadId, type: d.type, data: encode(d), createdAt: d.time };
    expect(decodeObservation(row)).toEqual({ ...d, id: 12 });
  });
});
