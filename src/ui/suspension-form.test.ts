import { describe, expect, it } from 'vitest';
import { checkFeedback, outcomeFeedback, rollbackFeedback } from '../hitl/index.js';
import { buildSuspensionForm, readAnswer } from './assets/suspension-form.js';

// The page's answers to the runtime's own questions must be what `resume` accepts: the same check the
// agent runs on an answer (src/hitl/check-feedback.ts), against the question's schema.
describe("the page's answers to the runtime's questions", () => {
  for (const [kind, schema] of [
    ['outcome_unknown', outcomeFeedback],
    ['rollback', rollbackFeedback],
  ] as const) {
    it(`every ${kind} button sends an answer the question's schema accepts`, () => {
      const suspension = { kind, toolName: 'edit_file' };
      const { buttons } = buildSuspensionForm(suspension);
      expect(buttons.length).toBeGreaterThan(1);
      for (const [value] of buttons) {
        const answer = readAnswer(suspension, value, null);
        if (!('feedback' in answer)) throw new Error(`${value}: ${answer.error}`);
        expect(checkFeedback(schema, answer.feedback), value).toEqual({ ok: true, value: answer.feedback });
      }
    });
  }

  it('offers a rollback over later changes, sent with force', () => {
    const suspension = { kind: 'rollback', toolName: 'edit_file' };
    expect(buildSuspensionForm(suspension).buttons.map(([value]) => value)).toContain('rollback-force');
    expect(readAnswer(suspension, 'rollback-force', null)).toEqual({
      feedback: { decision: 'rollback', force: true },
    });
  });

  it('says so when the choice is not one of the buttons', () => {
    expect(readAnswer({ kind: 'rollback' }, 'undo', null)).toEqual({ error: 'Pick one of the choices.' });
  });
});

describe('rejecting an approval on the page', () => {
  const suspension = { kind: 'approval', toolName: 'book_flight', input: { flight_id: 'TP1351' } };
  const formWith = (reason: string) =>
    ({ querySelector: () => ({ value: reason }) }) as unknown as HTMLFormElement;

  it('needs no reason, as the API needs none', () => {
    expect(readAnswer(suspension, 'reject', formWith('  '))).toEqual({ feedback: { decision: 'reject' } });
  });

  it('sends the reason when one is given', () => {
    expect(readAnswer(suspension, 'reject', formWith('too dear'))).toEqual({
      feedback: { decision: 'reject', reason: 'too dear' },
    });
  });
});
