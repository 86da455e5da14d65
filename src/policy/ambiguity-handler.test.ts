import { describe, expect, it } from 'vitest';
import { defineFlow } from '../flow/index.js';
import { declareAmbiguity, resolveAmbiguity } from './ambiguity-handler.js';

const chart = defineFlow({
  name: 'make_chart',
  intent: 'read',
  description: 'Chart the sales.',
  slots: [
    {
      name: 'measure',
      type: 'category',
      priority: 'required',
      description: 'Measure',
      options: ['units', 'revenue'],
    },
    { name: 'year', type: 'number', priority: 'elective', group: 'when', description: 'Year', min: 2000 },
    { name: 'month', type: 'text', priority: 'elective', group: 'when', description: 'Month' },
  ],
  tools: ['chart_data'],
});
const flow = chart.create({ id: 'f1' });

describe('the ambiguity handler: declare, ask, resolve', () => {
  it('specific: names the options; a valid answer fills the slot, an invalid one is asked again with the reason', () => {
    const measure = chart.slots[0];
    if (!measure) throw new Error('no slot');
    const pending = declareAmbiguity({ level: 'specific', flow, slot: measure });
    expect(pending).toEqual({
      kind: 'slot',
      flowId: 'f1',
      slot: 'measure',
      question: 'Which measure should I use? (units, revenue)',
      level: 'specific',
      options: ['units', 'revenue'],
    });
    expect(resolveAmbiguity({ pending, text: 'Revenue', spec: chart, flow })).toEqual({
      kind: 'fill',
      slots: { measure: 'revenue' },
    });
    // An answer that names one option in a phrase is that option; one that names two is asked again.
    expect(resolveAmbiguity({ pending, text: 'by revenue, please', spec: chart, flow })).toEqual({
      kind: 'fill',
      slots: { measure: 'revenue' },
    });
    expect(resolveAmbiguity({ pending, text: 'units or revenue', spec: chart, flow }).kind).toBe('invalid');
    expect(resolveAmbiguity({ pending, text: 'revenues', spec: chart, flow }).kind).toBe('invalid');
    // A longer message that happens to name an option says something else.
    expect(
      resolveAmbiguity({ pending, text: 'what was the revenue of the shop last year?', spec: chart, flow })
        .kind,
    ).toBe('invalid');
    expect(resolveAmbiguity({ pending, text: 'profit', spec: chart, flow })).toMatchObject({
      kind: 'invalid',
      question: {
        question: 'That measure must be one of units, revenue. Which measure should I use? (units, revenue)',
      },
    });
  });

  it('partial: any slot of the group may answer, constrained types first', () => {
    const group = chart.slots.filter((s) => s.group === 'when');
    const pending = declareAmbiguity({ level: 'partial', flow, group });
    expect(pending.question).toBe('Please tell me the year or the month.');
    expect(resolveAmbiguity({ pending, text: '2026', spec: chart, flow })).toEqual({
      kind: 'fill',
      slots: { year: 2026 },
    });
    expect(resolveAmbiguity({ pending, text: 'March', spec: chart, flow })).toEqual({
      kind: 'fill',
      slots: { month: 'March' },
    });
  });

  it('confirmation: only a clear yes or no resolves it', () => {
    const pending = declareAmbiguity({
      level: 'confirmation',
      flow: chart.create({ id: 'f2', slots: { measure: 'units' } }),
      spec: chart,
    });
    expect(pending.question).toBe('This will chart the sales (measure: units). Shall I go ahead? (yes/no)');
    expect(resolveAmbiguity({ pending, text: 'yes please', spec: chart, flow })).toEqual({
      kind: 'confirmed',
    });
    expect(
      resolveAmbiguity({ pending, text: 'yes, but first show me last year', spec: chart, flow }),
    ).toEqual({
      kind: 'unanswered',
    });
    expect(resolveAmbiguity({ pending, text: 'ok', spec: chart, flow })).toEqual({ kind: 'confirmed' });
    expect(resolveAmbiguity({ pending, text: 'nope', spec: chart, flow })).toEqual({ kind: 'declined' });
  });

  it('general: the answer is read as a clarification', () => {
    const pending = declareAmbiguity({ level: 'general', flow, reason: 'Which year do you mean?' });
    expect(pending).toMatchObject({
      kind: 'clarification',
      level: 'general',
      question: 'Which year do you mean?',
    });
    expect(resolveAmbiguity({ pending, text: 'last year', spec: chart, flow })).toEqual({
      kind: 'clarified',
      text: 'last year',
    });
  });
});
