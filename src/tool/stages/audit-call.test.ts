import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { secrets } from '../../redact/fixtures/fake-secrets.js';
import type { AuditRecord, StateStore } from '../../spec/index.js';
import { createMemoryStore } from '../../store/index.js';
import { defineTool } from '../define-tool.js';
import { executeToolBatch } from '../execute-tool-batch.js';
import { call, createTestContext, deferred } from '../fixtures/batch-context.js';

const input = z.object({ query: z.string() });

function tool(
  name: string,
  capability: 'safe' | 'controlled' | 'restricted' | 'privileged',
  execute?: () => unknown,
) {
  return defineTool({
    name,
    description: `${capability} tool.`,
    input,
    capability,
    execute: execute ?? (({ query }) => `answer to ${query}`),
  });
}

describe('audit stage (through executeToolBatch)', () => {
  it('writes a row for controlled and above, none for safe, with redacted summaries, risk and duration', async () => {
    const context = createTestContext([
      tool('look', 'safe'),
      tool('edit', 'controlled'),
      tool('deploy', 'restricted'),
      tool('wire', 'privileged', () => `done with ${secrets.stripeLive}`),
    ]);
    await executeToolBatch(
      ['look', 'edit', 'deploy', 'wire'].map((name) => call(name, { query: `key ${secrets.openaiProject}` })),
      { ...context, principal: 'user-7' },
    );
    const rows = (await context.store?.readAudit({ threadId: 'thread-1' })) ?? [];
    expect(rows.map((r) => [r.toolName, r.capability, r.risk, r.status]).reverse()).toEqual([
      ['edit', 'controlled', 'medium', 'succeeded'],
      ['deploy', 'restricted', 'high', 'succeeded'],
      ['wire', 'privileged', 'critical', 'succeeded'],
    ]);
    for (const row of rows) {
      expect(row.principal).toBe('user-7');
      expect(row.durationMs).toBe(0);
      expect(row.inputSummary).toContain('[REDACTED:openai-key]');
    }
    expect(JSON.stringify(rows)).not.toContain(secrets.openaiProject);
    expect(JSON.stringify(rows)).not.toContain(secrets.stripeLive);
  });

  it('writes the row before the call runs and completes it after', async () => {
    const release = deferred<string>();
    const context = createTestContext([tool('edit', 'controlled', () => release.promise)]);
    const pending = executeToolBatch([call('edit', { query: 'q' })], context);
    await new Promise((resolve) => setImmediate(resolve));
    const [during] = (await context.store?.readAudit()) ?? [];
    expect(during).toMatchObject({ status: 'started', toolName: 'edit' });
    expect(during?.outputSummary).toBeUndefined();
    release.resolve('finished');
    await pending;
    const [after] = (await context.store?.readAudit()) ?? [];
    expect(after).toMatchObject({ id: during?.id, status: 'succeeded', outputSummary: 'finished' });
  });

  it('completes a refused call as denied, a failed one as failed, one waiting for approval as suspended', async () => {
    const context = createTestContext(
      [
        tool('edit', 'controlled', () => {
          throw new Error('disk full');
        }),
        tool('wire', 'privileged'),
        defineTool({ ...tool('approve_me', 'controlled'), requiresApproval: true, input }),
      ],
      { capabilities: { maxLevel: 'restricted' } },
    );
    await executeToolBatch(
      [call('edit', { query: 'a' }), call('wire', { query: 'b' }), call('approve_me', { query: 'c' })],
      context,
    );
    const rows = ((await context.store?.readAudit()) ?? []).reverse();
    expect(rows.map((r: AuditRecord) => [r.toolName, r.status])).toEqual([
      ['edit', 'failed'],
      ['wire', 'denied'],
      ['approve_me', 'suspended'],
    ]);
  });

  it('does not run a controlled call whose audit row cannot be written', async () => {
    const runs: string[] = [];
    const store: StateStore = {
      ...createMemoryStore(),
      appendAudit: () => Promise.reject(new Error('disk I/O error')),
    };
    const context = createTestContext([tool('edit', 'controlled', () => runs.push('ran'))], { store });
    const [result] = await executeToolBatch([call('edit', { query: 'q' })], context);
    expect(runs).toEqual([]);
    expect(result).toMatchObject({ status: 'error', error: { category: 'server_error', retryable: false } });
    expect(result?.contextText).toContain('audit log cannot be written');
  });
});
