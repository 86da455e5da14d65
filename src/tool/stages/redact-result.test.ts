import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolCallError } from '../../errors/index.js';
import { secrets } from '../../redact/fixtures/fake-secrets.js';
import { defineTool } from '../define-tool.js';
import { executeToolBatch } from '../execute-tool-batch.js';
import { call, createTestContext } from '../fixtures/batch-context.js';

const input = z.object({});
const leaked = [secrets.openaiProject, secrets.awsSecret, secrets.stripeLive, secrets.anthropic];

describe('redaction stage (through executeToolBatch)', () => {
  it('redacts secrets in an object output, its context text and its journal row', async () => {
    const tool = defineTool({
      name: 'config',
      description: 'Reads config.',
      input,
      execute: () => ({
        note: `key ${secrets.openaiProject}`,
        aws: { AWS_SECRET_ACCESS_KEY: secrets.awsSecret },
        list: [`stripe ${secrets.stripeLive}`],
        password: 'hunter2-correct-horse',
      }),
    });
    const context = createTestContext([tool]);
    const [result] = await executeToolBatch([call('config')], context);
    expect(result?.status).toBe('success');
    const everything = JSON.stringify([result, await context.store?.listJournal('thread-1')]);
    for (const secret of [...leaked, 'hunter2-correct-horse']) expect(everything).not.toContain(secret);
    expect(result?.contextText).toContain('[REDACTED:openai-key]');
  });

  it('redacts a string output once and keeps it its own context text', async () => {
    const tool = defineTool({
      name: 'cat',
      description: 'Cat.',
      input,
      execute: () => `token=${secrets.anthropic}`,
    });
    const [result] = await executeToolBatch([call('cat')], createTestContext([tool]));
    expect(result).toMatchObject({ status: 'success', output: 'token=[REDACTED:anthropic-key]' });
    expect(result?.contextText).toBe('token=[REDACTED:anthropic-key]');
  });

  it('redacts secrets in a thrown error and in "Error:" text', async () => {
    const thrower = defineTool({
      name: 'thrower',
      description: 'Throws.',
      input,
      execute: () => {
        throw new ToolCallError({ category: 'auth_error', message: `bad key ${secrets.stripeLive}` });
      },
    });
    const texter = defineTool({
      name: 'texter',
      description: 'Says error.',
      input,
      execute: () =>
        `Error: could not connect to postgres://admin:Tr0ub4dor-and-3@db.internal/app (${secrets.openaiProject})`,
    });
    const context = createTestContext([thrower, texter]);
    const results = await executeToolBatch([call('thrower'), call('texter')], context);
    const everything = JSON.stringify([results, await context.store?.listJournal('thread-1')]);
    for (const secret of [...leaked, 'Tr0ub4dor-and-3']) expect(everything).not.toContain(secret);
    expect(results.map((r) => r.status)).toEqual(['error', 'error']);
  });

  it('redacts before it cuts: a secret across the cut is never half shown', async () => {
    const filler = 'x'.repeat(1_000);
    const tool = defineTool({
      name: 'long',
      description: 'Long.',
      input,
      execute: () => `${filler} ${secrets.openaiProject} ${filler}`,
    });
    const [result] = await executeToolBatch([call('long')], createTestContext([tool]));
    const key = secrets.openaiProject;
    for (let i = 0; i + 12 <= key.length; i += 6)
      expect(result?.contextText).not.toContain(key.slice(i, i + 12));
  });
});
