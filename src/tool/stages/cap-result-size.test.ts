import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryStore } from '../../store/index.js';
import { defineTool } from '../define-tool.js';
import { executeToolBatch } from '../execute-tool-batch.js';
import { call, createTestContext } from '../fixtures/batch-context.js';
import { createReadToolResultTool, readToolResult } from '../read-tool-result.js';

const input = z.object({});
const lines = Array.from({ length: 400 }, (_, i) => `line ${i + 1}: ${'data '.repeat(5)}`).join('\n');
const longTool = defineTool({ name: 'dump', description: 'Dumps.', input, execute: () => lines });

describe('size cap stage (through executeToolBatch)', () => {
  it('keeps head and tail in context with a note naming the reference of the stored full result', async () => {
    const store = createMemoryStore();
    const context = createTestContext([longTool], { store });
    const [result] = await executeToolBatch([call('dump', {}, 'c1')], context);
    if (result?.status !== 'success') throw new Error('expected success');
    expect(result.contextText.length).toBeLessThan(1_500 + 200);
    expect(result.contextText.startsWith('line 1: ')).toBe(true);
    expect(result.contextText.endsWith(lines.slice(-200))).toBe(true);
    expect(result.contextText).toContain(
      `characters omitted; the full result is stored as ref "thread-1:turn-1:c1"`,
    );
    expect(result.outputRef).toBe('thread-1:turn-1:c1');
    expect(result.output).toBe(lines);

    const stored = await readToolResult({ store, ref: result.outputRef ?? '' });
    expect(stored).toMatchObject({ status: 'success', toolName: 'dump', output: lines, text: lines });
  });

  it('leaves a short result alone', async () => {
    const short = defineTool({ name: 'short', description: 'Short.', input, execute: () => 'ok' });
    const [result] = await executeToolBatch([call('short')], createTestContext([short]));
    expect(result).toEqual({
      status: 'success',
      callId: 'call-short',
      toolName: 'short',
      output: 'ok',
      contextText: 'ok',
    });
  });

  it('lets the model page through the stored result with read_tool_result, within its own thread only', async () => {
    const store = createMemoryStore();
    const context = createTestContext([longTool], { store });
    const reader = createReadToolResultTool({ store });
    const withReader = { ...context, tools: new Map([...context.tools, [reader.name, reader]]) };
    const [cut] = await executeToolBatch([call('dump', {}, 'c1')], withReader);
    const ref = cut?.status === 'success' ? cut.outputRef : undefined;
    const [page] = await executeToolBatch(
      [call('read_tool_result', { ref, offset: 1_200 }, 'c2')],
      withReader,
    );
    expect(page?.contextText).toContain(
      `[characters 1200–2400 of ${lines.length} — call again with offset 2400 for more]`,
    );
    expect(page?.contextText).toContain(lines.slice(1_200, 2_400));

    const otherThread = { ...withReader, threadId: 'thread-2' };
    const [refused] = await executeToolBatch([call('read_tool_result', { ref }, 'c3')], otherThread);
    expect(refused).toMatchObject({ status: 'error', error: { category: 'not_found' } });
  });

  it('caps a huge error message too', async () => {
    const failing = defineTool({
      name: 'failing',
      description: 'Fails loudly.',
      input,
      execute: () => {
        throw new Error(lines);
      },
    });
    const [result] = await executeToolBatch([call('failing')], createTestContext([failing]));
    expect(result?.status).toBe('error');
    expect(result?.contextText.length).toBeLessThan(1_700);
  });
});
