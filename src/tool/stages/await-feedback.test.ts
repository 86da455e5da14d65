import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError } from '../../errors/index.js';
import { defineTool } from '../define-tool.js';
import { executeToolBatch } from '../execute-tool-batch.js';
import { call, createTestContext } from '../fixtures/batch-context.js';
import { loadManifest } from '../load-manifest.js';

const pickSeat = defineTool({
  name: 'pick_seat',
  description: 'Asks the traveller to pick a seat.',
  input: z.object({ flight: z.string() }),
  blocking: {
    feedback: { type: 'select', options: ['window', 'aisle'] },
    prompt: 'Which seat on {{flight}}?',
  },
});

describe('blocking tools (through executeToolBatch)', () => {
  it('wait for a person: the call suspends with the question and the answer it takes, and never runs', async () => {
    const context = createTestContext([pickSeat]);
    const [result] = await executeToolBatch([call('pick_seat', { flight: 'TP1351' }, 'c1')], context);
    expect(result).toMatchObject({
      status: 'suspended',
      kind: 'feedback',
      reason: 'Which seat on TP1351?',
      feedback: { type: 'select', options: ['window', 'aisle'] },
      idempotencyKey: 'thread-1:turn-1:c1',
    });
    expect(await context.store?.readJournal('thread-1:turn-1:c1')).toBeUndefined();
  });

  it('answer a repeated call in a resumed run with the answer already given (no second question)', async () => {
    const answer = {
      status: 'success' as const,
      callId: 'c1',
      toolName: 'pick_seat',
      output: 'window',
      contextText: 'window',
    };
    const context = createTestContext([pickSeat], {
      answered: { forTool: (name) => (name === 'pick_seat' ? answer : undefined), forCall: () => undefined },
    });
    const [result] = await executeToolBatch([call('pick_seat', { flight: 'TP1351' }, 'c9')], context);
    expect(result).toEqual({ ...answer, callId: 'c9' });
  });

  it('need no implementation in a manifest, and an unknown answer type is refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowstack-blocking-'));
    const path = join(dir, 'tools.yaml');
    writeFileSync(
      path,
      [
        'version: 1',
        'tools:',
        '  - name: confirm_budget',
        '    description: Asks the user to confirm the budget.',
        '    timeoutMs: 1000',
        '    inputSchema: { type: object }',
        '    blocking: { feedback: { type: number, minimum: 0 }, prompt: What is the budget? }',
      ].join('\n'),
    );
    const [tool] = await loadManifest(path, { implementations: {} });
    expect(tool?.blocking).toEqual({
      feedback: { type: 'number', minimum: 0 },
      prompt: 'What is the budget?',
    });
    expect(() =>
      defineTool({
        name: 'bad',
        description: 'Bad.',
        input: z.object({}),
        blocking: { feedback: { type: 'colour' } as never },
      }),
    ).toThrow(ConfigurationError);
  });
});
