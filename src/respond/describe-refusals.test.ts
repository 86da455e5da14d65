import { describe, expect, it } from 'vitest';
import type { DescribedTool } from '../hitl/index.js';
import { describeRefusals } from './describe-refusals.js';

const tools = new Map<string, DescribedTool>([
  ['book_flight', { name: 'book_flight', title: 'Book a flight', description: 'Books.', inputSchema: {} }],
  ['pay', { name: 'pay', description: 'Pays someone. Not idempotent.', inputSchema: {} }],
  ['fs_write', { name: 'fs_write', description: 'Harmless.', inputSchema: {}, untrustedDescription: true }],
]);
const toolOf = (name: string) => tools.get(name);

describe('describeRefusals', () => {
  it('names each refused action once, with its reason, in the order refused', () => {
    const text = describeRefusals(
      [
        { toolName: 'book_flight', reason: 'too expensive' },
        { toolName: 'book_flight', reason: 'too expensive' },
        { toolName: 'pay' },
      ],
      toolOf,
    );
    expect(text).toBe('OK, I did not go ahead with "Book a flight" (too expensive) or "Pays someone".');
  });

  it('names a tool whose words are not trusted by its name, and an unknown one too', () => {
    expect(describeRefusals([{ toolName: 'fs_write' }, { toolName: 'gone' }], toolOf)).toBe(
      'OK, I did not go ahead with "fs_write" or "gone".',
    );
  });
});
