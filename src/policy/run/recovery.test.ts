import { describe, expect, it } from 'vitest';
import {
  emailFlow,
  finish,
  flowInstance,
  lookupFlow,
  notesFlow,
  reportFlow,
  setupAgent,
} from '../../agent/fixtures/test-domain.js';
import type { Observation } from '../../spec/index.js';
import { recover } from '../index.js';

const recoveries = (observations: Observation[]) =>
  observations.filter((o) => o.type === 'recovery').map((o) => o.data.action);

const uncertain = (flow: string, reason = 'Which Oslo do you mean?') => ({
  match: { phase: 'skill', flow },
  toolCalls: finish({ outcome: 'uncertain', reason }),
});
const success = (flow: string, text: string, extra: Record<string, unknown> = {}) => ({
  match: { phase: 'skill', flow },
  toolCalls: finish({ outcome: 'success', data: { text, ...extra } }),
});

describe('recover() is pure and tries each step once, in order', () => {
  const spec = lookupFlow({ gatherContext: 'peek_notes', fallback: 'report' });
  const reason = { kind: 'uncertain' as const, reason: 'unclear' };
  it('retry → gather context → contemplate (with the declared fallback) → escalate', () => {
    const flow = flowInstance('f', 'lookup', { status: 'active' });
    expect(recover({ flow, spec, reason }).action).toBe('retry');
    const retried = { ...flow, retries: 1, recovery: ['retry' as const] };
    expect(recover({ flow: retried, spec, reason })).toEqual({
      action: 'gather-context',
      flow: 'peek_notes',
    });
    const gathered = { ...retried, recovery: [...retried.recovery, 'gather-context' as const] };
    expect(recover({ flow: gathered, spec, reason })).toEqual({
      action: 'contemplate',
      exclude: 'lookup',
      preferred: 'report',
    });
    const contemplated = { ...gathered, recovery: [...gathered.recovery, 'contemplate' as const] };
    expect(recover({ flow: contemplated, spec, reason })).toMatchObject({
      action: 'escalate',
      question: { kind: 'clarification', level: 'general', question: 'unclear' },
    });
    expect(recover({ flow: gathered, spec, reason, canContemplate: false }).action).toBe('escalate');
  });
  it('skips gathering context when the flow names no Internal flow for it', () => {
    const flow = { ...flowInstance('f', 'lookup'), retries: 1 };
    expect(recover({ flow, spec: lookupFlow(), reason }).action).toBe('contemplate');
  });
});

describe('each recovery step through agent.send', () => {
  it('1 retry: an uncertain skill runs once more, with the reason as guidance', async () => {
    const { agent, model } = setupAgent({
      steps: [uncertain('lookup'), success('lookup', 'It is 21 °C in Oslo.')],
    });
    const turn = await agent.send({ threadId: 'r1', text: 'weather in Oslo' });
    expect(turn.reply).toBe('It is 21 °C in Oslo.');
    expect(recoveries(turn.observations)).toEqual(['retry']);
    const second = model.calls[1]?.prompt[0];
    expect(second?.role === 'system' && second.content).toContain(
      '[BEGIN_CUSTOM_GUIDANCE]\nA previous attempt could not finish (Which Oslo do you mean?).',
    );
  });

  it('2 gather context: an Internal flow is pushed on top, runs, and the flow resumes with its notes', async () => {
    const { agent, model } = setupAgent({
      steps: [
        uncertain('lookup'),
        uncertain('lookup'),
        success('peek_notes', 'Oslo means Oslo, Norway.'),
        {
          match: { phase: 'skill', flow: 'lookup' },
          toolCalls: [{ toolName: 'memory_manager', input: { operation: 'read_scratchpad', limit: 5 } }],
        },
        success('lookup', 'It is 21 °C in Oslo, Norway.'),
      ],
      flows: [lookupFlow({ gatherContext: 'peek_notes' }), notesFlow, reportFlow(), emailFlow],
    });
    const turn = await agent.send({ threadId: 'r2', text: 'weather in Oslo' });
    expect(recoveries(turn.observations)).toEqual(['retry', 'gather-context']);
    expect(turn.reply).toBe('It is 21 °C in Oslo, Norway.');
    const pushes = turn.observations
      .filter((o) => o.type === 'flow-push')
      .map((o) => [o.data.flow, o.data.returnTo]);
    expect(pushes).toEqual([
      ['lookup', undefined],
      ['peek_notes', 'flow_1'],
    ]);
    const readNotes = JSON.stringify(model.calls[4]?.prompt.at(-1));
    expect(readNotes).toContain('peek_notes: Oslo means Oslo, Norway.');
    expect(turn.stack).toEqual([]);
  });

  it('3 contemplate: the model picks a simpler flow (never the failed one) and slots carry over by name', async () => {
    const { agent, model } = setupAgent({
      steps: [
        uncertain('lookup'),
        uncertain('lookup'),
        { match: { phase: 'contemplate', flow: 'lookup' }, json: { flow: 'report', slots: {} } },
        success('report', 'Mild in Oslo.', { city: 'Oslo' }),
      ],
    });
    const turn = await agent.send({ threadId: 'r3', text: 'weather in Oslo' });
    expect(recoveries(turn.observations)).toEqual(['retry', 'contemplate', 'contemplated']);
    const offered = model.calls.find((c) => c.phase === 'contemplate')?.options.responseFormat;
    expect(JSON.stringify(offered)).not.toContain('"lookup"');
    expect(JSON.stringify(offered)).toContain('"report"');
    const push = turn.observations.find((o) => o.type === 'flow-push' && o.data.fallbackFrom === 'lookup');
    expect(push?.data).toMatchObject({ flow: 'report', slots: { city: 'Oslo' } });
    expect(turn.reply).toBe('Mild in Oslo.');
  });

  it('3 contemplate: a declared fallback is taken without a model call', async () => {
    const { agent, model } = setupAgent({
      steps: [uncertain('lookup'), uncertain('lookup'), success('report', 'Mild in Oslo.', { city: 'Oslo' })],
      flows: [lookupFlow({ fallback: 'report' }), reportFlow(), notesFlow, emailFlow],
    });
    const turn = await agent.send({ threadId: 'r3b', text: 'weather in Oslo' });
    expect(turn.reply).toBe('Mild in Oslo.');
    expect(model.calls.map((c) => c.phase)).toEqual(['skill', 'skill', 'skill']);
  });

  it('4 escalate: when nothing else fits, the user is asked; the answer lets the flow finish', async () => {
    const { agent } = setupAgent({
      steps: [
        uncertain('lookup', 'Do you mean Oslo in Norway or Oslo in Minnesota?'),
        uncertain('lookup', 'Do you mean Oslo in Norway or Oslo in Minnesota?'),
        { match: { phase: 'contemplate' }, json: { flow: 'none' } },
        success('lookup', 'It is 21 °C in Oslo, Norway.'),
      ],
    });
    const turn = await agent.send({ threadId: 'r4', text: 'weather in Oslo' });
    expect(recoveries(turn.observations)).toEqual(['retry', 'contemplate', 'contemplated', 'escalate']);
    expect(turn.status).toBe('needs-input');
    expect(turn.reply).toBe('Do you mean Oslo in Norway or Oslo in Minnesota?');
    expect(turn.pending).toMatchObject({ kind: 'clarification', level: 'general' });
    const answered = await agent.send({ threadId: 'r4', text: 'Norway' });
    expect(answered.reply).toBe('It is 21 °C in Oslo, Norway.');
    expect(answered.stack).toEqual([]);
  });

  it('a hard-coded fallback bypasses the ladder', async () => {
    const lookup = lookupFlow({
      hooks: {
        fallback: ({ outcome }) =>
          outcome.outcome === 'failure' && outcome.message.includes('unknown city')
            ? {
                flow: 'report',
                slots: { region: 'north' },
                reason: 'unknown city: report on the region instead',
              }
            : undefined,
      },
    });
    const { agent } = setupAgent({
      steps: [
        {
          match: { phase: 'skill', flow: 'lookup' },
          toolCalls: finish({ outcome: 'failure', message: 'unknown city Olso' }),
        },
        success('report', 'Mild in the north.', { region: 'north' }),
      ],
      flows: [lookup, reportFlow(), notesFlow, emailFlow],
    });
    const turn = await agent.send({ threadId: 'r5', text: 'weather in Olso' });
    expect(recoveries(turn.observations)).toEqual(['hard-coded-fallback']);
    expect(turn.reply).toBe('Mild in the north.');
    const push = turn.observations.find((o) => o.type === 'flow-push' && o.data.fallbackFrom === 'lookup');
    expect(push?.data.slots).toEqual({ city: 'Olso', region: 'north' });
  });
});
