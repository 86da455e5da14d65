import { describe, expect, it } from 'vitest';
import type { ToolCallResult } from '../spec/index.js';
import { resultText } from './result-text.js';

describe('resultText', () => {
  const result: ToolCallResult = {
    status: 'success',
    callId: 'c1',
    toolName: 'lookup',
    output: { rows: [{ id: 1, note: 'quote " and \\ back' }] },
    contextText: '{"rows":[{"id":1}]}',
  };

  it('is the JSON text of the result, the same each time it is asked for', () => {
    const first = resultText(result);
    expect(first).toBe(JSON.stringify(result));
    expect(resultText(result)).toBe(first);
  });

  it('gives a copy of a result its own text', () => {
    const capped = { ...result, contextText: 'short' };
    expect(resultText(capped)).toBe(JSON.stringify(capped));
    expect(resultText(capped)).not.toBe(resultText(result));
  });
});
