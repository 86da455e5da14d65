import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { executeToolBatch } from '../execute-tool-batch.js';
import { call, createTestContext } from '../fixtures/batch-context.js';

describe('input validation stage (through executeToolBatch)', () => {
  const runs: unknown[] = [];
  const book = defineTool({
    name: 'book',
    description: 'Books seats.',
    input: z.strictObject({
      flight: z.string(),
      seats: z.number().int().min(1),
      cabin: z.enum(['economy', 'business']),
    }),
    execute: (input) => {
      runs.push(input);
      return 'booked';
    },
  });

  it('lists every problem of wrong types, with where they are, and runs nothing', async () => {
    const [result] = await executeToolBatch(
      [call('book', { flight: 7, seats: 'two', cabin: 'first' })],
      createTestContext([book]),
    );
    expect(result).toMatchObject({
      status: 'error',
      error: { category: 'validation_error', retryable: false },
    });
    expect(result?.contextText).toContain('/flight must be string');
    expect(result?.contextText).toContain('/seats must be');
    expect(result?.contextText).toContain(
      '/cabin must be equal to one of the allowed values: ["economy","business"]',
    );
    expect(runs).toEqual([]);
  });

  it('names a missing field and an unexpected one', async () => {
    const [result] = await executeToolBatch(
      [call('book', { flight: 'TP123', cabin: 'economy', sesats: 2 })],
      createTestContext([book]),
    );
    expect(result?.contextText).toContain("must have required property 'seats'");
    expect(result?.contextText).toContain("must NOT have additional properties: 'sesats'");
  });

  it('lets valid arguments through', async () => {
    const [result] = await executeToolBatch(
      [call('book', { flight: 'TP123', seats: 2, cabin: 'economy' })],
      createTestContext([book]),
    );
    expect(result).toMatchObject({ status: 'success', output: 'booked' });
  });
});
