import { describe, expect, it } from 'vitest';
import { defineFlow, toFlowDefinition } from '../flow/index.js';
import type { PendingQuestion } from '../spec/index.js';
import { decideBuiltIn } from './decide-built-in.js';
import { decidePendingAnswer } from './decide-pending-answer.js';

const spec = toFlowDefinition(
  defineFlow({
    name: 'book_trip',
    intent: 'prepare',
    description: 'Book a trip.',
    slots: [
      { name: 'city', type: 'text', priority: 'required', description: 'City', question: 'Which city?' },
      {
        name: 'nights',
        type: 'number',
        priority: 'required',
        description: 'Nights',
        question: 'How many nights?',
      },
    ],
    tools: ['book'],
    skill: 'Book {{city}}.',
  }),
);
const flow = spec.create({ id: 'f1' });
const asked = (slot: string, question: string): PendingQuestion =>
  ({ kind: 'slot', flowId: 'f1', slot, question, level: 'specific' }) as PendingQuestion;

describe('decidePendingAnswer (pure)', () => {
  it('a short answer fills the asked slot without the model', () => {
    const answer = decidePendingAnswer({
      pending: asked('city', 'Which city?'),
      text: 'Lisbon',
      flow,
      spec,
      confirmedByModel: false,
    });
    expect(answer).toEqual({ kind: 'fill', slots: expect.objectContaining({ city: 'Lisbon' }) });
  });

  it('a long free answer is not taken as the answer unless the model says it is one', () => {
    const text = 'Hold on, what are the opening hours of the museum near the old harbour?';
    expect(
      decidePendingAnswer({
        pending: asked('city', 'Which city?'),
        text,
        flow,
        spec,
        confirmedByModel: false,
      }),
    ).toEqual({
      kind: 'none',
    });
    expect(
      decidePendingAnswer({ pending: asked('city', 'Which city?'), text, flow, spec, confirmedByModel: true })
        .kind,
    ).toBe('fill');
  });

  it('a short answer that does not fit a number slot is asked again, more specifically', () => {
    const answer = decidePendingAnswer({
      pending: asked('nights', 'How many nights?'),
      text: 'soon',
      flow,
      spec,
      confirmedByModel: false,
    });
    expect(answer.kind).toBe('invalid');
  });
});

describe('decideBuiltIn (pure)', () => {
  const flows = new Map([[spec.name, spec]]);
  it('cancel invalidates the active flow and says so; with nothing active it says there is nothing', () => {
    const outcome = decideBuiltIn({
      decision: { kind: 'built-in', builtIn: 'cancel' } as never,
      stack: [flow],
      pending: undefined,
      flows,
      history: [],
    });
    expect(outcome).toEqual({
      clearPending: true,
      transition: { type: 'invalidate', flowId: 'f1' },
      reply: 'Cancelled: book a trip.',
    });
    expect(
      decideBuiltIn({
        decision: { kind: 'built-in', builtIn: 'cancel' } as never,
        stack: [],
        pending: undefined,
        flows,
        history: [],
      }).reply,
    ).toBe('There is nothing to cancel.');
  });

  it('help lists the flows a user may start and leaves a pending question in place', () => {
    const outcome = decideBuiltIn({
      decision: { kind: 'built-in', builtIn: 'help' } as never,
      stack: [flow],
      pending: asked('city', 'Which city?'),
      flows,
      history: [],
    });
    expect(outcome).toEqual({ clearPending: false, reply: 'I can help with:\n- Book a trip.' });
  });
});
