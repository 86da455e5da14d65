import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../errors/index.js';
import type { SlotSpec } from '../spec/index.js';
import { createScriptedModel } from '../test/index.js';
import { defineFlow } from './define-flow.js';
import { checkSlotValue } from './slot-values.js';

const slot = (type: SlotSpec['type'], extra: Partial<SlotSpec> = {}): SlotSpec => ({
  name: 's',
  description: 'S',
  priority: 'required',
  type,
  ...extra,
});

describe('slot types', () => {
  it.each([
    ['text', {}, ' sales ', 'sales'],
    ['number', { min: 1, max: 100 }, '1,5', 15],
    ['category', { options: ['bar', 'line'] }, 'BAR', 'bar'],
    ['range', {}, '3 to 7', [3, 7]],
    ['range', {}, { from: '2026-01-01', to: '2026-02-01' }, ['2026-01-01', '2026-02-01']],
    ['date', {}, '2026-02-28', '2026-02-28'],
    ['entity', { entities: ['sales', 'products'] }, 'Products', 'products'],
    ['list', {}, 'north, south and east', ['north', 'south', 'east']],
    ['list', { options: ['north', 'south'] }, ['South', 'north', 'south'], ['south', 'north']],
    ['dictionary', {}, { a: 1 }, { a: 1 }],
    ['free-text', {}, 'any prose at all', 'any prose at all'],
  ] as const)('%s accepts and normalizes a valid value', (type, extra, value, expected) => {
    expect(checkSlotValue(slot(type, extra as Partial<SlotSpec>), value)).toEqual({
      ok: true,
      value: expected,
    });
  });

  it.each([
    ['number', { max: 10 }, '11', 'is above 10'],
    ['number', {}, 'many', 'is not a number'],
    ['category', { options: ['bar'] }, 'pie', 'must be one of bar'],
    ['range', {}, [9, 2], 'starts after it ends'],
    ['date', {}, '2026-02-30', 'is not a calendar date'],
    ['entity', { entities: ['sales'] }, 'salaries', 'is not one of the known sales'],
    ['text', { pattern: '^[A-Z]{3}$' }, 'abcd', 'does not have the expected form (^[A-Z]{3}$)'],
    ['list', { options: ['a'] }, ['b'], "has 'b', not one of a"],
    ['dictionary', {}, [1], 'is not a dictionary'],
    ['text', {}, '   ', 'is empty'],
  ] as const)('%s rejects a bad value with a reason', (type, extra, value, problem) => {
    expect(checkSlotValue(slot(type, extra as Partial<SlotSpec>), value)).toEqual({ ok: false, problem });
  });
});

const chart = defineFlow({
  name: 'make_chart',
  intent: 'read',
  description: 'Chart a column of a table.',
  slots: [
    {
      name: 'table',
      type: 'entity',
      priority: 'required',
      description: 'Table',
      entities: ['sales', 'products'],
    },
    { name: 'x_column', type: 'text', priority: 'elective', group: 'axis', description: 'X column' },
    { name: 'y_column', type: 'text', priority: 'elective', group: 'axis', description: 'Y column' },
    {
      name: 'chart_type',
      type: 'category',
      priority: 'optional',
      description: 'Chart type',
      options: ['bar', 'line'],
    },
  ],
  tools: ['chart_rows'],
  skill: 'Chart {{table}}.',
});

describe('defineFlow', () => {
  it('lists every problem of an invalid flow at once', () => {
    const error = (() => {
      try {
        defineFlow({
          name: 'Bad Name',
          intent: 'read',
          description: '',
          tools: [],
          slots: [
            { name: 'a', type: 'category', priority: 'required', description: 'A' },
            { name: 'a', type: 'text', priority: 'elective', group: 'g', description: 'A' },
            { name: 'n', type: 'number', priority: 'optional', description: 'N', min: 5, max: 1 },
          ],
          skill: 'Use {{missing}}.',
        });
      } catch (e) {
        return e;
      }
    })();
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect((error as ConfigurationError).problems).toEqual([
      "name 'Bad Name' must be snake_case, 1-64 characters",
      'description is empty',
      "a 'read' flow needs 1-3 tools (only plan, converse and internal flows may have none)",
      "category slot 'a' needs options",
      "slot 'a' is declared twice",
      "slot 'n': min is above max",
      "elective group 'g' needs two or more slots",
      "the skill template names unknown slot 'missing'",
    ]);
  });

  it('refuses more than three flow tools', () => {
    expect(() =>
      defineFlow({ name: 'x', intent: 'read', description: 'X', tools: ['a', 'b', 'c', 'd'] }),
    ).toThrow(/1-3 tools/);
  });

  it('fillSlotsByLabel keeps valid labels and reports rejected ones; isFilled needs one slot of each elective group', () => {
    const { flow, rejected } = chart.fillSlotsByLabel(chart.create({ id: 'f1' }), {
      table: 'Sales',
      chart_type: 'pie',
      unknown: 1,
    });
    expect(flow.slots).toEqual({ table: 'sales' });
    expect(rejected).toEqual([{ slot: 'chart_type', value: 'pie', problem: 'must be one of bar, line' }]);
    expect(chart.isFilled(flow)).toBe(false);
    expect(chart.needsToThink(flow)).toBe(true);
    const filled = chart.fillSlotsByLabel(flow, { y_column: 'revenue' }).flow;
    expect(chart.isFilled(filled)).toBe(true);
    expect(chart.needsToThink(filled)).toBe(false);
    expect(chart.needsToThink({ ...filled, slots: { ...filled.slots, chart_type: 'pie' } })).toBe(true);
  });

  it('fillSlotValues asks the model (phase fill-slots) and keeps only valid values for empty slots', async () => {
    const model = createScriptedModel({
      steps: [
        {
          match: { phase: 'fill-slots', flow: 'make_chart' },
          json: { slots: { table: 'products', x_column: 'region', chart_type: 'radar' } },
        },
      ],
    });
    const start = chart.create({ id: 'f1', slots: { table: 'sales' } });
    const result = await chart.fillSlotValues(start, {
      model,
      persona: 'P',
      context: [{ role: 'user', content: [{ type: 'text', text: 'by region please' }] }],
      memory: {
        scratchpad: [{ key: 'k', text: 'sales has a region column', source: 'q', time: 1 }],
        preferences: { chart_type: 'bar' },
      },
    });
    expect(result.filled).toEqual(['x_column']);
    expect(result.flow.slots).toEqual({ table: 'sales', x_column: 'region' });
    const system = JSON.stringify(model.calls[0]?.prompt[0]);
    expect(system).toContain('sales has a region column');
    expect(system).toContain('preference chart_type: bar');
  });

  it('serialize gives plain JSON that round-trips, and refuses values JSON cannot keep', () => {
    const flow = { ...chart.create({ id: 'f1', slots: { table: 'sales' } }), metadata: { note: 'x' } };
    expect(chart.serialize(flow)).toEqual(flow);
    expect(JSON.parse(JSON.stringify(chart.serialize(flow)))).toEqual(flow);
    expect(() => chart.serialize({ ...flow, slots: { n: 10n } })).toThrow(ConfigurationError);
    expect(() => chart.serialize({ ...flow, slots: { n: Number.NaN } })).toThrow(/cannot be saved/);
  });
});
