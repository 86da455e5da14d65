import { describe, expect, it } from 'vitest';
import type { ObservationDraft } from '../spec/index.js';
import { decodeObservation } from './decode-observation.js';

const draft: ObservationDraft = {
  specVersion: 1,
  threadId: 'thread-1',
  turnId: 'turn-1',
  type: 'tool-call',
  time: 1_795_710_594_483,
  data: { callId: 'call_1', nested: { list: [1, 'two', null] } },
  parentId: 'flow_9',
};

describe('decodeObservation', () => {
  it('reads a stored draft back as the observation it was, with its row id', () => {
    const row = {
      id: 12,
      threadId: draft.threadId,
      type: draft.type,
      data: JSON.stringify(draft),
      createdAt: 1,
    };
    expect(decodeObservation(row)).toEqual({ ...draft, id: 12 });
  });

  it('reads a row that does not parse as an error observation with the row id', () => {
    const row = { id: 13, threadId: 'thread-1', type: 'tool-call', data: '{"specVersion":', createdAt: 5 };
    expect(decodeObservation(row)).toMatchObject({ id: 13, threadId: 'thread-1', type: 'error', time: 5 });
  });
});
