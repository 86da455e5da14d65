import { describe, expect, it } from 'vitest';
import type { SuspensionRecord } from '../spec/index.js';
import { readTextAnswer } from './answer-from-text.js';
import { approvalFeedback, outcomeFeedback } from './decision-feedback.js';

const question = (kind: 'approval' | 'outcome_unknown'): SuspensionRecord => ({
  specVersion: 1,
  id: 'susp_1',
  kind,
  status: 'open',
  flowId: 'f1',
  callId: 'c1',
  toolName: 'charge_card',
  prompt: '…',
  feedback: kind === 'approval' ? approvalFeedback : outcomeFeedback,
  createdAt: 0,
});

describe('readTextAnswer: an unknown outcome runs again only on an explicit "it did not happen"', () => {
  it.each([
    'it did not happen',
    'It did not happen.',
    "no, it didn't go through",
    'it never happened',
    'not happened',
  ])('%j: not-happened', (text) => {
    expect(readTextAnswer(question('outcome_unknown'), text)).toEqual({
      kind: 'answer',
      answer: { decision: 'not-happened' },
    });
  });

  it.each(['no idea, can you check?', 'no', 'nope', 'cancel', 'not sure', "don't know", 'maybe'])(
    '%j: asked again',
    (text) => {
      expect(readTextAnswer(question('outcome_unknown'), text)).toMatchObject({ kind: 'unclear' });
    },
  );

  it('a yes or "it happened" records it as done; "skip" leaves it out', () => {
    for (const text of ['yes', 'it happened', 'yes, it did', 'it went through'])
      expect(readTextAnswer(question('outcome_unknown'), text)).toEqual({
        kind: 'answer',
        answer: { decision: 'happened' },
      });
    expect(readTextAnswer(question('outcome_unknown'), 'skip it')).toEqual({
      kind: 'answer',
      answer: { decision: 'skip' },
    });
  });
});

describe('readTextAnswer: an approval', () => {
  it('approves on a clear yes, rejects with the reason on a no, and is unclear otherwise', () => {
    expect(readTextAnswer(question('approval'), 'yes, go ahead')).toEqual({
      kind: 'answer',
      answer: { decision: 'approve' },
    });
    expect(readTextAnswer(question('approval'), 'No, use the other card')).toEqual({
      kind: 'answer',
      answer: { decision: 'reject', reason: 'use the other card' },
    });
    expect(readTextAnswer(question('approval'), 'ok, but first tell me more')).toMatchObject({
      kind: 'unclear',
    });
    expect(readTextAnswer(question('approval'), 'what does it cost?')).toBeUndefined();
  });
});
