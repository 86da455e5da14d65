/**
 * A person's yes binds to the call they saw (issue 31, items 4 and 10), through `agent.send`: the flow's
 * confirmation before the run covers only a call with the slot values it showed, a chat approval only
 * the call it named, and "no, <reason>" refuses the confirmation and keeps the reason.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/index.js';
import { defineFlow } from '../flow/index.js';
import { createMemoryStore } from '../store/index.js';
import { createScriptedModel, type ScriptStep } from '../test/index.js';
import { defineTool } from '../tool/index.js';
import type { Clock } from '../util/index.js';

const clock: Clock = { now: () => 1_000_000, sleep: () => new Promise(() => {}) };

const sendReport = defineFlow({
  name: 'send_report',
  intent: 'transform',
  description: 'Send the report by email.',
  slots: [{ name: 'to', type: 'text', priority: 'required', description: 'Address', question: 'To whom?' }],
  tools: ['send_email'],
  skill: 'Email the report to {{to}}.',
});

function emailAgent(steps: ScriptStep[]) {
  const sent: string[] = [];
  const sendEmail = defineTool({
    name: 'send_email',
    description: 'Sends an email.',
    input: z.object({ to: z.string() }),
    requiresApproval: true,
    execute: ({ to }) => {
      sent.push(to);
      return { sent: true };
    },
  });
  const model = createScriptedModel({ steps });
  const agent = createAgent({
    model,
    flows: [sendReport],
    tools: [sendEmail],
    rules: [{ pattern: /^send (?:it )?to (?<to>\S+)$/i, flow: 'send_report' }],
    store: createMemoryStore(),
    clock,
    toolPipeline: { simulate: undefined },
  });
  return { agent, model, sent };
}

const emailTo = (to: string): ScriptStep => ({
  match: { phase: 'skill', prompt: (call) => !call.prompt.some((m) => m.role === 'tool') },
  toolCalls: [{ toolName: 'send_email', input: { to }, callId: 'mail-1' }],
});
const done: ScriptStep = { match: { phase: 'skill' }, text: 'Sent.', repeat: true };

describe("the flow's confirmation covers only the values it showed (issue 31, item 4)", () => {
  it('a yes to "send to ada@example.com" does not run send_email({ to: attacker }); a new approval is asked', async () => {
    const { agent, sent } = emailAgent([emailTo('attacker@evil.test'), done]);
    const asked = await agent.send({ threadId: 't', text: 'send it to ada@example.com' });
    expect(asked.reply).toBe(
      'This will send the report by email (to: ada@example.com). Shall I go ahead? (yes/no)',
    );
    const after = await agent.send({ threadId: 't', text: 'yes' });
    expect(sent).toEqual([]);
    expect(after.status).toBe('suspended');
    expect(after.suspensions).toEqual([
      expect.objectContaining({
        kind: 'approval',
        toolName: 'send_email',
        callId: 'mail-1',
        input: { to: 'attacker@evil.test' },
        status: 'open',
      }),
    ]);
    expect(after.reply).toContain('Sends an email (to: "attacker@evil.test")?');
    const refused = await agent.send({ threadId: 't', text: 'no, that is not ada' });
    expect(sent).toEqual([]);
    expect(refused.observations.find((o) => o.type === 'resumed')?.data.decision).toBe('reject');
  });

  it('the call with the confirmed value runs on that yes, without a second question', async () => {
    const { agent, sent } = emailAgent([emailTo('ada@example.com'), done]);
    await agent.send({ threadId: 't', text: 'send it to ada@example.com' });
    const after = await agent.send({ threadId: 't', text: 'yes' });
    expect(after.reply).toBe('Sent.');
    expect(sent).toEqual(['ada@example.com']);
  });

  it('a confirmation answered "ok, but to whom exactly?" confirms nothing; the question stays', async () => {
    const { agent, sent, model } = emailAgent([
      { match: { phase: 'predict' }, json: { flow: 'none', slots: {} }, repeat: true },
      emailTo('ada@example.com'),
      done,
    ]);
    await agent.send({ threadId: 't', text: 'send it to ada@example.com' });
    const unclear = await agent.send({ threadId: 't', text: 'ok, but to whom exactly?' });
    expect(unclear.status).toBe('needs-input');
    expect(unclear.pending).toMatchObject({ kind: 'confirmation' });
    expect(sent).toEqual([]);
    expect(model.calls.filter((c) => c.phase === 'skill')).toEqual([]);
  });
});

describe('a chat approval covers only the call it named (issue 31, item 4)', () => {
  it('after "yes" to transfer({ to: ada }), the model calling transfer({ to: attacker }) waits for a new approval', async () => {
    const done: string[] = [];
    const transfer = defineTool({
      name: 'transfer',
      description: 'Transfers money.',
      input: z.object({ to: z.string(), amount: z.number() }),
      capability: 'restricted',
      execute: ({ to, amount }) => {
        done.push(`${to}:${amount}`);
        return { ok: true };
      },
    });
    const model = createScriptedModel({
      steps: [
        { match: { phase: 'predict' }, json: { flow: 'pay', slots: {} }, repeat: true },
        {
          match: { phase: 'skill' },
          toolCalls: [{ toolName: 'transfer', input: { to: 'ada', amount: 10 }, callId: 'c1' }],
        },
        {
          match: { phase: 'skill' },
          toolCalls: [{ toolName: 'transfer', input: { to: 'attacker', amount: 10 }, callId: 'c2' }],
        },
      ],
    });
    const agent = createAgent({
      model,
      flows: [
        defineFlow({
          name: 'pay',
          intent: 'transform',
          description: 'Pay someone.',
          slots: [],
          tools: ['transfer'],
          skill: 'Pay.',
        }),
      ],
      tools: [transfer],
      store: createMemoryStore(),
      clock,
      toolPipeline: { simulate: undefined, capabilities: { approvalFrom: 'restricted' } },
    });
    await agent.send({ threadId: 't', text: 'pay ada 10' });
    const after = await agent.send({ threadId: 't', text: 'yes' });
    expect(done).toEqual(['ada:10']);
    expect(after.status).toBe('suspended');
    expect(after.suspensions).toEqual([
      // A call of a resumed run carries the resumption in its id (docs/decisions/0079).
      expect.objectContaining({
        kind: 'approval',
        callId: expect.stringMatching(/^c2_r\d+$/),
        input: { to: 'attacker', amount: 10 },
      }),
    ]);
  });
});

describe('"no, <reason>" refuses the confirmation and keeps the reason (issue 31, item 10)', () => {
  it('"no, too expensive" ends the flow without running it, says so, and records the reason', async () => {
    const { agent, sent, model } = emailAgent([emailTo('ada@example.com'), done]);
    await agent.send({ threadId: 't', text: 'send it to ada@example.com' });
    const refused = await agent.send({ threadId: 't', text: 'no, too expensive' });
    expect(refused.reply).toBe('All right, I will not send the report by email (too expensive).');
    expect(refused.pending).toBeUndefined();
    expect(refused.stack).toEqual([]);
    expect(refused.observations.find((o) => o.type === 'intent')?.data).toMatchObject({
      builtIn: 'confirm',
      answer: 'no',
      reason: 'too expensive',
    });
    expect(sent).toEqual([]);
    expect(model.calls.filter((c) => c.phase === 'skill')).toEqual([]);
  });
});
