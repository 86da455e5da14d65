import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { executeToolBatch } from '../execute-tool-batch.js';
import { call, createTestContext } from '../fixtures/batch-context.js';

describe('resolve stage (through executeToolBatch)', () => {
  const runs: string[] = [];
  const echo = defineTool({
    name: 'echo',
    description: 'Echoes.',
    input: z.object({ text: z.string() }),
    execute: ({ text }) => {
      runs.push(text);
      return text;
    },
  });

  it.each([
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    'multi_tool_use.parallel',
    '',
    'ECHO',
    'echo ',
  ])('answers the unknown name %j with not_found and runs nothing', async (name) => {
    const [result] = await executeToolBatch([call(name, { text: 'x' })], createTestContext([echo]));
    expect(result).toMatchObject({ status: 'error', error: { category: 'not_found', retryable: false } });
    expect(result?.contextText).toContain('Available tools: echo.');
    expect(runs).toEqual([]);
  });

  it('tells a model that wraps calls in multi_tool_use.parallel to call the tools directly', async () => {
    const [result] = await executeToolBatch(
      [call('multi_tool_use.parallel', { tool_uses: [] })],
      createTestContext([echo]),
    );
    expect(result?.contextText).toContain('Call each tool directly');
  });

  it('shows a long or odd unknown name shortened and escaped', async () => {
    const name = `bad\nname${'x'.repeat(500)}`;
    const [result] = await executeToolBatch([call(name)], createTestContext([echo]));
    expect(result?.status).toBe('error');
    expect(result?.contextText).toContain('bad\\nname');
    expect(result?.contextText.length).toBeLessThan(300);
  });
});
