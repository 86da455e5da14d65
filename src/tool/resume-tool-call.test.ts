import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ToolCallResult } from '../spec/index.js';
import { stableHash } from '../util/index.js';
import { defineTool } from './define-tool.js';
import { executeToolBatch } from './execute-tool-batch.js';
import { call, createTestContext } from './fixtures/batch-context.js';
import { resumeToolCall } from './resume-tool-call.js';
import { suspendToolCall } from './suspend-tool-call.js';

const key = 'thread-1:turn-1:c1';

/** A tool that always needs a person's yes, recording what it sent. */
function mailer(sent: string[]) {
  return defineTool({
    name: 'send_mail',
    description: 'Sends a mail.',
    input: z.object({ to: z.string() }),
    requiresApproval: true,
    execute: ({ to }) => {
      sent.push(to);
      return `sent to ${to}`;
    },
  });
}

function answer(toolName: string, text: string): ToolCallResult {
  return {
    status: 'success',
    callId: 'c1',
    toolName,
    output: text,
    contextText: `The user answered: ${text}`,
  };
}

describe('resumeToolCall: approved', () => {
  it('runs a held call once, approved for exactly the arguments the person approved, and journals it', async () => {
    const sent: string[] = [];
    const context = createTestContext([mailer(sent)]);
    const [held] = await executeToolBatch([call('send_mail', { to: 'ada' }, 'c1')], context);
    expect(held).toMatchObject({ status: 'suspended', kind: 'approval', idempotencyKey: key });

    const result = await resumeToolCall(
      { callId: 'c1', toolName: 'send_mail', idempotencyKey: key },
      { kind: 'approved', input: { to: 'ada' } },
      context,
    );

    expect(result).toMatchObject({ status: 'success', output: 'sent to ada' });
    expect(sent).toEqual(['ada']);
    expect(await context.store?.readJournal(key)).toMatchObject({
      status: 'succeeded',
      toolName: 'send_mail',
    });
  });

  it('runs edited arguments as edited, and holds a call whose arguments the approval does not cover', async () => {
    const sent: string[] = [];
    const context = createTestContext([mailer(sent)]);
    const edited = await resumeToolCall(
      { callId: 'c1', toolName: 'send_mail', idempotencyKey: key },
      { kind: 'approved', input: { to: 'grace' } },
      context,
    );
    expect(edited.status).toBe('success');
    expect(sent).toEqual(['grace']);

    // Another call under another key is not covered by an approval given for this one.
    const other = await resumeToolCall(
      { callId: 'c2', toolName: 'send_mail', idempotencyKey: key },
      { kind: 'approved', input: { to: 'eve' } },
      context,
    );
    expect(other).toMatchObject({ status: 'suspended', kind: 'approval' });
    expect(sent).toEqual(['grace']);
  });

  it('asks the batch lookup as before for a call the approval does not bind to', async () => {
    const sent: string[] = [];
    const context = createTestContext([mailer(sent)], {
      approvals: { isApproved: async (request) => (request.callId === 'c3' ? 'approved' : 'none') },
    });
    const result = await resumeToolCall(
      { callId: 'c3', toolName: 'send_mail' },
      { kind: 'approved', input: { to: 'ada' } },
      context,
    );
    expect(result.status).toBe('success');
    expect(sent).toEqual(['ada']);
  });
});

describe('resumeToolCall: rerun', () => {
  it('runs once more under the same key a call whose outcome was unknown and that did not happen', async () => {
    const sent: string[] = [];
    const tool = defineTool({
      name: 'send',
      description: 'Sends.',
      input: z.object({ to: z.string() }),
      execute: ({ to }) => {
        sent.push(to);
        return 'sent';
      },
    });
    const context = createTestContext([tool]);
    await context.store?.journalStart({
      key,
      threadId: 'thread-1',
      callId: 'c1',
      toolName: 'send',
      argsHash: stableHash({ to: 'ada' }),
      idempotent: false,
      status: 'started',
      startedAt: 1,
    });
    const [unknown] = await executeToolBatch([call('send', { to: 'ada' }, 'c1')], context);
    expect(unknown).toMatchObject({ status: 'suspended', kind: 'outcome_unknown' });

    const result = await resumeToolCall(
      { callId: 'c1', toolName: 'send', idempotencyKey: key },
      { kind: 'rerun', input: { to: 'ada' } },
      context,
    );

    expect(result.status).toBe('success');
    expect(sent).toEqual(['ada']);
    expect(await context.store?.readJournal(key)).toMatchObject({ status: 'succeeded' });
  });
});

describe('resumeToolCall: answered', () => {
  const ask = (runs: string[]) =>
    defineTool({
      name: 'ask_owner',
      description: 'Asks the owner.',
      input: z.object({ question: z.string() }),
      execute: ({ question }) => {
        runs.push(question);
        return suspendToolCall(`The owner must answer: ${question}`);
      },
    });

  it("finishes the journal row of a call that waited for a person with the person's answer, never running it", async () => {
    const runs: string[] = [];
    const context = createTestContext([ask(runs)]);
    const [held] = await executeToolBatch([call('ask_owner', { question: 'ok?' }, 'c1')], context);
    expect(held).toMatchObject({ status: 'suspended', kind: 'feedback' });
    expect(await context.store?.readJournal(key)).toMatchObject({ status: 'suspended' });

    const given = answer('ask_owner', 'yes');
    const result = await resumeToolCall(
      { callId: 'c1', toolName: 'ask_owner', idempotencyKey: key, argsHash: stableHash({ question: 'ok?' }) },
      { kind: 'answered', result: given },
      context,
    );

    expect(result).toBe(given);
    expect(runs).toEqual(['ok?']);
    expect(await context.store?.readJournal(key)).toMatchObject({
      status: 'succeeded',
      result: JSON.stringify(given),
    });
    // The same call in the run is now answered from the journal, with what the person said.
    const [again] = await executeToolBatch([call('ask_owner', { question: 'ok?' }, 'c1')], context);
    expect(again).toEqual(given);
    expect(runs).toEqual(['ok?']);
  });

  it('starts a row for a call that had none, and finishes one left started, without asking about its outcome', async () => {
    const context = createTestContext([ask([])]);
    const refused: ToolCallResult = {
      status: 'error',
      callId: 'c1',
      toolName: 'ask_owner',
      error: { category: 'auth_error', message: 'left out', retryable: false, refusedBy: 'person' },
      contextText: 'left out',
    };
    await resumeToolCall(
      { callId: 'c1', toolName: 'ask_owner', idempotencyKey: key, argsHash: 'h1' },
      { kind: 'answered', result: refused },
      context,
    );
    expect(await context.store?.readJournal(key)).toMatchObject({
      callId: 'c1',
      toolName: 'ask_owner',
      argsHash: 'h1',
      status: 'failed',
      result: JSON.stringify(refused),
    });

    const otherKey = 'thread-1:turn-1:c2';
    await context.store?.journalStart({
      key: otherKey,
      threadId: 'thread-1',
      callId: 'c2',
      toolName: 'ask_owner',
      argsHash: 'h2',
      idempotent: false,
      status: 'started',
      startedAt: 1,
    });
    const happened = { ...answer('ask_owner', 'it took effect'), callId: 'c2' };
    const result = await resumeToolCall(
      { callId: 'c2', toolName: 'ask_owner', idempotencyKey: otherKey, argsHash: 'h2' },
      { kind: 'answered', result: happened },
      context,
    );
    expect(result).toBe(happened);
    expect(await context.store?.readJournal(otherKey)).toMatchObject({ status: 'succeeded', startedAt: 1 });
  });

  it('journals nothing without a key, and rejects when the answer cannot be journaled', async () => {
    const context = createTestContext([ask([])]);
    const given = answer('ask_owner', 'yes');
    expect(
      await resumeToolCall(
        { callId: 'c1', toolName: 'ask_owner' },
        { kind: 'answered', result: given },
        context,
      ),
    ).toBe(given);
    expect(await context.store?.listJournal('thread-1')).toEqual([]);

    const store = context.store;
    if (!store) throw new Error('the test context has a store');
    const broken = { ...store, journalFinish: async () => Promise.reject(new Error('disk full')) };
    await expect(
      resumeToolCall(
        { callId: 'c1', toolName: 'ask_owner', idempotencyKey: key },
        { kind: 'answered', result: given },
        { ...context, store: broken },
      ),
    ).rejects.toThrow('disk full');
  });
});
