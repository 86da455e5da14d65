import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { executeToolBatch } from '../execute-tool-batch.js';
import { call, createTestContext } from '../fixtures/batch-context.js';

function weather(seen: unknown[]) {
  return defineTool({
    name: 'weather',
    description: 'Weather in a city.',
    input: z.object({ city: z.string().optional() }),
    execute: (input) => {
      seen.push(input);
      return { celsius: 21 };
    },
  });
}

describe('parse stage (through executeToolBatch)', () => {
  it('parses a JSON object and hands it to the tool', async () => {
    const seen: unknown[] = [];
    const [result] = await executeToolBatch(
      [call('weather', { city: 'Oslo' })],
      createTestContext([weather(seen)]),
    );
    expect(result).toMatchObject({
      status: 'success',
      output: { celsius: 21 },
      contextText: '{"celsius":21}',
    });
    expect(seen).toEqual([{ city: 'Oslo' }]);
  });

  it.each([
    ['empty text', ''],
    ['blank text', '  \n '],
  ])('takes %s as {}', async (_label, input) => {
    const seen: unknown[] = [];
    const [result] = await executeToolBatch([call('weather', input)], createTestContext([weather(seen)]));
    expect(result?.status).toBe('success');
    expect(seen).toEqual([{}]);
  });

  it('unwraps arguments encoded twice (a JSON string holding the object)', async () => {
    const seen: unknown[] = [];
    const twice = JSON.stringify(JSON.stringify({ city: 'Lisbon' }));
    const [result] = await executeToolBatch([call('weather', twice)], createTestContext([weather(seen)]));
    expect(result?.status).toBe('success');
    expect(seen).toEqual([{ city: 'Lisbon' }]);
  });

  it.each([
    ['text that is not JSON', '{city: Oslo}', 'not valid JSON'],
    ['truncated JSON', '{"city": "Os', 'not valid JSON'],
    ['a JSON string that is not an object', '"Oslo"', 'not a string'],
    ['a nested JSON string that is broken', JSON.stringify('{"city": '), 'not valid JSON'],
    ['an array', '[{"city":"Oslo"}]', 'not an array'],
    ['null', 'null', 'not null'],
    ['a number', '42', 'not a number'],
  ])('refuses %s with a validation error and runs nothing', async (_label, input, detail) => {
    const seen: unknown[] = [];
    const [result] = await executeToolBatch([call('weather', input)], createTestContext([weather(seen)]));
    expect(result).toMatchObject({
      status: 'error',
      error: { category: 'validation_error', retryable: false },
    });
    expect(result?.contextText).toContain(detail);
    expect(seen).toEqual([]);
  });

  it('refuses 1 MB of arguments without parsing them, and says how much is allowed', async () => {
    const seen: unknown[] = [];
    const huge = JSON.stringify({ city: 'x'.repeat(1024 * 1024) });
    const [result] = await executeToolBatch([call('weather', huge)], createTestContext([weather(seen)]));
    expect(result?.status).toBe('error');
    expect(result?.contextText).toContain('at most 262144 are accepted');
    expect(seen).toEqual([]);
  });

  it('keeps a secret the model put in broken JSON out of the error text', async () => {
    const secret = 'sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0fGh3i';
    const [result] = await executeToolBatch(
      [call('weather', `${secret} {`)],
      createTestContext([weather([])]),
    );
    expect(result?.status).toBe('error');
    expect(JSON.stringify(result)).not.toContain(secret);
  });
});
