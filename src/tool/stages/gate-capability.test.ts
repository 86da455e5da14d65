import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ApprovalLookup, ApprovalState, ToolCallResult } from '../../spec/index.js';
import { stableHash } from '../../util/index.js';
import { defineTool } from '../define-tool.js';
import { executeToolBatch } from '../execute-tool-batch.js';
import { call, createTestContext } from '../fixtures/batch-context.js';
import { createTaintState } from '../tool-batch-context.js';
import type { ToolDefinition } from '../tool-definition.js';

const input = z.object({ text: z.string() });

function tool(
  name: string,
  tags: { privateData?: boolean; untrusted?: boolean; external?: boolean } = {},
  extra: Partial<Parameters<typeof defineTool>[0]> = {},
): ToolDefinition {
  return defineTool({
    name,
    description: `${name}.`,
    input,
    accessesPrivateData: tags.privateData ?? false,
    receivesUntrustedInput: tags.untrusted ?? false,
    communicatesExternally: tags.external ?? false,
    execute: ({ text }) => `${name}: ${text}`,
    ...extra,
  }) as ToolDefinition;
}

function approvals(answers: Record<string, ApprovalState>): ApprovalLookup & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    isApproved: async ({ idempotencyKey, argsHash }) => {
      asked.push(`${idempotencyKey}|${argsHash}`);
      return answers[`${idempotencyKey}|${argsHash}`] ?? 'none';
    },
  };
}

function suspended(result: ToolCallResult | undefined) {
  if (result?.status !== 'suspended') throw new Error(`expected a suspension, got ${JSON.stringify(result)}`);
  return result;
}

describe('capability gate and approval stages (through executeToolBatch)', () => {
  it('trifecta form 1: a tool with all three tags returns an approval request bound to call and arguments', async () => {
    const exfil = tool('browse_and_post', { privateData: true, untrusted: true, external: true });
    const [result] = await executeToolBatch(
      [call('browse_and_post', { text: 'hi' }, 'c1')],
      createTestContext([exfil]),
    );
    const request = suspended(result);
    expect(request).toMatchObject({
      kind: 'approval',
      callId: 'c1',
      toolName: 'browse_and_post',
      idempotencyKey: 'thread-1:turn-1:c1',
      argsHash: stableHash({ text: 'hi' }),
    });
    expect(request.reason).toContain("lethal trifecta: 'browse_and_post'");
  });

  it('trifecta form 2: when the offered tools cover all three tags, only the externally communicating ones need approval', async () => {
    const tools = [
      tool('read_inbox', { privateData: true }),
      tool('fetch_page', { untrusted: true }),
      tool('send_email', { external: true }),
    ];
    const results = await executeToolBatch(
      [
        call('read_inbox', { text: 'a' }),
        call('fetch_page', { text: 'b' }),
        call('send_email', { text: 'c' }),
      ],
      createTestContext(tools),
    );
    expect(results.map((r) => r.status)).toEqual(['success', 'success', 'suspended']);
    expect(suspended(results[2]).reason).toContain('the tools offered together');

    // Without the private-data tool on offer, sending is fine.
    const [alone] = await executeToolBatch(
      [call('send_email', { text: 'c' })],
      createTestContext([tools[1] as ToolDefinition, tools[2] as ToolDefinition]),
    );
    expect(alone?.status).toBe('success');
  });

  it('trifecta form 3 (taint): after an untrusted result entered the context, external calls need approval', async () => {
    const tools = [tool('fetch_page', { untrusted: true }), tool('post_webhook', { external: true })];
    const taint = createTaintState();
    const context = createTestContext(tools, { taint });
    // In the same step the model had not seen the page yet: the post runs.
    const first = await executeToolBatch(
      [call('fetch_page', { text: 'evil.example' }, 'c1'), call('post_webhook', { text: 'x' }, 'c2')],
      context,
    );
    expect(first.map((r) => r.status)).toEqual(['success', 'success']);
    expect(taint).toEqual({
      tainted: true,
      sources: ['fetch_page'],
      origins: [{ tool: 'fetch_page', callId: 'c1', turnId: context.turnId }],
    });
    // In the next step it has: the post waits for a human.
    const [second] = await executeToolBatch([call('post_webhook', { text: 'secrets' }, 'c3')], context);
    expect(suspended(second).reason).toContain(
      'untrusted content from fetch_page (call c1 in this run) is in the context',
    );
  });

  it('a call refused before the untrusted tool ran does not taint the run', async () => {
    const taint = createTaintState();
    const context = createTestContext([tool('fetch_page', { untrusted: true })], { taint });
    await executeToolBatch([call('fetch_page', '{broken')], context);
    expect(taint.tainted).toBe(false);
  });

  it('runs a call a human approved for exactly these arguments, and suspends it again when they changed', async () => {
    const exfil = tool('browse_and_post', { privateData: true, untrusted: true, external: true });
    const lookup = approvals({ [`thread-1:turn-1:c1|${stableHash({ text: 'hi' })}`]: 'approved' });
    const [approved] = await executeToolBatch(
      [call('browse_and_post', { text: 'hi' }, 'c1')],
      createTestContext([exfil], { approvals: lookup }),
    );
    expect(approved).toMatchObject({ status: 'success', output: 'browse_and_post: hi' });
    const [changed] = await executeToolBatch(
      [call('browse_and_post', { text: 'changed' }, 'c1')],
      createTestContext([exfil], { approvals: lookup }),
    );
    expect(changed?.status).toBe('suspended');
  });

  it('answers a denied call with a final auth_error and does not run it', async () => {
    const runs: string[] = [];
    const risky = tool('delete_repo', {}, { requiresApproval: true, execute: () => runs.push('ran') });
    const lookup = approvals({ [`thread-1:turn-1:c1|${stableHash({ text: 'x' })}`]: 'denied' });
    const [result] = await executeToolBatch(
      [call('delete_repo', { text: 'x' }, 'c1')],
      createTestContext([risky], { approvals: lookup }),
    );
    expect(result).toMatchObject({ status: 'error', error: { category: 'auth_error', retryable: false } });
    expect(runs).toEqual([]);
  });

  it('fails closed when approvals cannot be read', async () => {
    const risky = tool('delete_repo', {}, { requiresApproval: true });
    const [result] = await executeToolBatch(
      [call('delete_repo', { text: 'x' })],
      createTestContext([risky], {
        approvals: { isApproved: () => Promise.reject(new Error('store offline')) },
      }),
    );
    expect(result).toMatchObject({ status: 'error', error: { retryable: false } });
    expect(result?.contextText).toContain('Approvals cannot be read (store offline)');
  });

  it('keeps sibling results when one call of the batch suspends', async () => {
    const results = await executeToolBatch(
      [call('a', { text: '1' }), call('gate', { text: '2' }), call('b', { text: '3' })],
      createTestContext([tool('a'), tool('gate', {}, { requiresApproval: true }), tool('b')]),
    );
    expect(results.map((r) => r.status)).toEqual(['success', 'suspended', 'success']);
  });

  it('refuses tools above the allowed level and asks approval from a level on', async () => {
    const tools = [
      tool('read', {}, { capability: 'safe' }),
      tool('write', {}, { capability: 'restricted' }),
      tool('pay', {}, { capability: 'privileged' }),
    ];
    const results = await executeToolBatch(
      [call('read', { text: '' }), call('write', { text: '' }), call('pay', { text: '' })],
      createTestContext(tools, { capabilities: { maxLevel: 'restricted', approvalFrom: 'restricted' } }),
    );
    expect(results[0]?.status).toBe('success');
    expect(suspended(results[1]).reason).toContain('It waits for your yes: it commits you to something');
    expect(results[2]).toMatchObject({ status: 'error', error: { category: 'auth_error' } });
    expect(results[2]?.contextText).toContain('allows tools up to restricted');
  });
});
