import { describe, expect, it } from 'vitest';
import { checkFeedback, outcomeFeedback, rollbackFeedback } from '../hitl/index.js';
import { decisionAnswer } from './internal/decision-answer.js';

describe('flowstack approve --answer for the runtime’s own questions', () => {
  it('takes a bare decision word as that decision, which the question accepts', () => {
    for (const [kind, schema, words] of [
      ['outcome_unknown', outcomeFeedback, ['happened', 'not-happened', 'skip']],
      ['rollback', rollbackFeedback, ['rollback', 'keep', 'continue']],
    ] as const) {
      for (const word of words) {
        const answer = decisionAnswer(kind, word);
        expect(answer).toEqual({ decision: word });
        expect(checkFeedback(schema, answer).ok).toBe(true);
      }
    }
  });

  it('passes anything else as given: JSON answers, other kinds, unknown words', () => {
    expect(decisionAnswer('rollback', { decision: 'rollback', force: true })).toEqual({
      decision: 'rollback',
      force: true,
    });
    expect(decisionAnswer('feedback', 'rollback')).toBe('rollback');
    expect(decisionAnswer('rollback', 'undo')).toBe('undo');
  });
});
