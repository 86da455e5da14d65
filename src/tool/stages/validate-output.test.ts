import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { executeToolBatch } from '../execute-tool-batch.js';
import { call, createTestContext } from '../fixtures/batch-context.js';

describe('output validation stage (through executeToolBatch)', () => {
  it('refuses an output that breaks the output schema, runs the tool once, and says what is wrong', async () => {
    let runs = 0;
    const tool = defineTool({
      name: 'quote',
      description: 'A price.',
      input: z.object({}),
      output: z.object({ amount: z.number(), currency: z.string().length(3) }),
      idempotent: true,
      execute: () => {
        runs++;
        return { amount: '12.50', currency: 'euro' } as unknown as { amount: number; currency: string };
      },
    });
    const [result] = await executeToolBatch([call('quote')], createTestContext([tool]));
    expect(result).toMatchObject({ status: 'error', error: { category: 'server_error', retryable: false } });
    expect(result?.contextText).toContain('/amount must be number');
    expect(result?.contextText).toContain('/currency must NOT have more than 3 characters');
    expect(runs).toBe(1);
  });

  it('passes an output that matches', async () => {
    const tool = defineTool({
      name: 'quote',
      description: 'A price.',
      input: z.object({}),
      output: z.object({ amount: z.number() }),
      execute: () => ({ amount: 3 }),
    });
    const [result] = await executeToolBatch([call('quote')], createTestContext([tool]));
    expect(result).toMatchObject({ status: 'success', output: { amount: 3 } });
  });
});
