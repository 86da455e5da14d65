import { describe, expect, it } from 'vitest';
import type { Observation } from '../spec/index.js';
import type { ToolDefinition } from '../tool/index.js';
import {
  createCalls,
  emailFlow,
  finish,
  flowInstance,
  lookupFlow,
  notesFlow,
  reportFlow,
  seedStack,
  setupAgent,
  testTools,
} from './fixtures/test-domain.js';

const errors = (observations: Observation[], phase: string) =>
  observations.filter((o) => o.type === 'error' && o.data.phase === phase).map((o) => o.data);

const weatherSkill = [
  {
    match: { phase: 'skill', flow: 'lookup' },
    toolCalls: [{ toolName: 'lookup_weather', input: { city: 'Oslo' } }],
  },
  {
    match: { phase: 'skill', flow: 'lookup' },
    toolCalls: finish({
      outcome: 'success',
      data: { text: 'It is 21 °C in Oslo.', rows: [{ city: 'Oslo', celsius: 21 }] },
    }),
  },
];

describe('PEX pre-hook checks, through agent.send', () => {
  it('1 active flow: two Active flows are refused before any token is spent, and the stack is repaired', async () => {
    const { agent, model, store } = setupAgent({ steps: [] });
    await seedStack(store, 'c1', [
      flowInstance('a', 'lookup', { status: 'active' }),
      flowInstance('b', 'report', { status: 'active' }),
    ]);
    const turn = await agent.send({ threadId: 'c1', text: 'thanks' });
    expect(errors(turn.observations, 'check')[0]?.checks).toEqual([
      { check: 'active-flow', message: '2 flows are Active at once (lookup, report); exactly one may be.' },
    ]);
    expect(model.callCount).toBe(0);
    expect(turn.stack.map((f) => `${f.name}:${f.status}`)).toEqual(['lookup:active']);
    expect(turn.reply).toBe(
      'Which city?\n\nYou\'re welcome.\n\nI cannot run "report": 2 flows are Active at once (lookup, report); exactly one may be.',
    );
  });

  it('2 policy registered: a flow with no registered policy is refused and popped', async () => {
    const { agent, model, store } = setupAgent({ steps: [] });
    await seedStack(store, 'c2', [flowInstance('a', 'retired_flow', { status: 'active' })]);
    const turn = await agent.send({ threadId: 'c2', text: 'thanks' });
    expect(errors(turn.observations, 'check')[0]?.checks).toEqual([
      { check: 'policy-registered', message: "No policy is registered for flow 'retired_flow'." },
    ]);
    expect(turn.stack).toEqual([]);
    expect(turn.status).toBe('failed');
    expect(model.callCount).toBe(0);
    expect((await agent.readThread('c2')).snapshot.flags.hasIssues).toBe(true);
  });

  it('3 required slots: a missing slot becomes a question and the skill does not run', async () => {
    const { agent, model, calls } = setupAgent({ steps: weatherSkill });
    const turn = await agent.send({ threadId: 'c3', text: 'weather' });
    expect(turn.status).toBe('needs-input');
    expect(turn.pending).toMatchObject({
      kind: 'slot',
      slot: 'city',
      level: 'specific',
      question: 'Which city?',
    });
    expect(model.callCount).toBe(0);
    expect(calls.weather).toEqual([]);
    const answered = await agent.send({ threadId: 'c3', text: 'Oslo' });
    expect(answered.reply).toBe('It is 21 °C in Oslo.');
    expect(answered.frames).toEqual([
      { flow: 'lookup', displayType: 'table', data: [{ city: 'Oslo', celsius: 21 }] },
    ]);
  });

  it('3 required slots: slot review fills the slot from an earlier turn with the model (phase fill-slots)', async () => {
    const { agent, model } = setupAgent({
      steps: [
        { match: { phase: 'predict' }, json: { flow: 'none' } },
        { match: { phase: 'fill-slots', flow: 'lookup' }, json: { slots: { city: 'Oslo' } } },
        ...weatherSkill,
      ],
    });
    await agent.send({ threadId: 'c3b', text: 'I live in Oslo these days' });
    const turn = await agent.send({ threadId: 'c3b', text: 'weather' });
    expect(turn.reply).toBe('It is 21 °C in Oslo.');
    expect(model.calls.map((c) => c.phase)).toEqual(['predict', 'fill-slots', 'skill', 'skill']);
    expect(turn.observations.find((o) => o.data.source === 'fill-slots')?.data.filled).toEqual(['city']);
  });

  it('4 elective group: none of the group is filled → a partial question; any slot of the group answers it', async () => {
    const { agent } = setupAgent({
      steps: [
        {
          match: { phase: 'skill', flow: 'report' },
          toolCalls: finish({ outcome: 'success', data: { text: 'Mild in the north.', region: 'north' } }),
        },
      ],
    });
    const turn = await agent.send({ threadId: 'c4', text: 'report' });
    expect(turn.pending).toMatchObject({
      level: 'partial',
      question: 'Please tell me the city or the region.',
    });
    const answered = await agent.send({ threadId: 'c4', text: 'North' });
    expect(answered.reply).toBe('Mild in the north.');
    expect((await agent.readThread('c4')).snapshot.diffs?.at(-1)?.changes).toContainEqual({
      op: 'slots',
      flowId: 'flow_1',
      name: 'report',
      set: { region: 'north' },
      cleared: [],
    });
  });

  it('5 tools valid: a flow naming an unregistered tool is refused', async () => {
    const broken = lookupFlow({ tools: ['lookup_weather', 'geocode'] });
    const { agent, model } = setupAgent({ steps: [], flows: [broken] });
    const turn = await agent.send({ threadId: 'c5', text: 'weather in Oslo' });
    expect(turn.reply).toBe(
      `I cannot run "lookup": Flow 'lookup' names tool 'geocode', which is not registered.`,
    );
    expect(errors(turn.observations, 'check')[0]?.checks).toMatchObject([{ check: 'tools-valid' }]);
    expect(model.callCount).toBe(0);
  });

  it('6 timeouts set: a tool without a timeout is refused', async () => {
    const tools = testTools().map((t) =>
      t.name === 'lookup_weather' ? ({ ...t, timeoutMs: 0 } as ToolDefinition) : t,
    );
    const { agent, model } = setupAgent({ steps: [], tools });
    const turn = await agent.send({ threadId: 'c6', text: 'weather in Oslo' });
    expect(errors(turn.observations, 'check')[0]?.checks).toEqual([
      { check: 'timeouts-set', message: "Tool 'lookup_weather' has no timeout." },
    ]);
    expect(model.callCount).toBe(0);
  });

  it('7 trifecta gate: a tool with all three tags needs the user to confirm; no runs nothing, yes runs it once', async () => {
    const calls = createCalls();
    const send = [
      {
        match: { phase: 'skill', flow: 'send_report' },
        toolCalls: [{ toolName: 'email_report', input: { to: 'ada@example.com' } }],
      },
      {
        match: { phase: 'skill', flow: 'send_report' },
        toolCalls: finish({ outcome: 'success', data: { text: 'Sent.', to: 'ada@example.com' } }),
      },
    ];
    const { agent, model } = setupAgent({ steps: send, calls });
    const asked = await agent.send({ threadId: 'c7', text: 'email it to ada@example.com' });
    expect(asked.pending).toMatchObject({ kind: 'confirmation', level: 'confirmation' });
    expect(asked.reply).toBe(
      'This will email the weather report (to: ada@example.com). Shall I go ahead? (yes/no)',
    );
    expect(asked.observations.find((o) => o.type === 'clarification')?.data.gated).toEqual(['email_report']);
    const declined = await agent.send({ threadId: 'c7', text: 'no' });
    expect(declined.reply).toBe('All right, I will not email the weather report.');
    expect(declined.stack).toEqual([]);
    expect(calls.emails).toEqual([]);
    expect(model.callCount).toBe(0);
    await agent.send({ threadId: 'c7', text: 'email it to ada@example.com' });
    const confirmed = await agent.send({ threadId: 'c7', text: 'yes' });
    expect(confirmed.reply).toBe('Sent.');
    expect(calls.emails).toEqual(['ada@example.com']);
  });

  it('7 trifecta gate: a confirmation is bound to the slot values it was given for', async () => {
    const { agent } = setupAgent({ steps: [] });
    await agent.send({ threadId: 'c7b', text: 'email it to ada@example.com' });
    const changed = await agent.send({ threadId: 'c7b', text: 'email it to eve@example.com' });
    expect(changed.pending?.kind).toBe('confirmation');
    expect(changed.reply).toContain('eve@example.com');
  });
});

describe('PEX post-hook verify(), through agent.send', () => {
  const reportOk = {
    match: { phase: 'skill', flow: 'report' },
    toolCalls: finish({ outcome: 'success', data: { rows: [{ city: 'Oslo' }] } }),
  };

  it('1 dialogue state: an orphaned plan sub-flow is found after the flow ran and removed', async () => {
    const { agent, store } = setupAgent({ steps: [reportOk] });
    await seedStack(store, 'v1', [
      flowInstance('s', 'lookup', { planId: 'gone', slots: { city: 'Oslo' } }),
      flowInstance('a', 'report', { status: 'active', slots: { city: 'Oslo' } }),
    ]);
    const turn = await agent.send({ threadId: 'v1', text: 'thanks' });
    expect(errors(turn.observations, 'verify')[0]?.problems).toEqual([
      {
        check: 'dialogue-state',
        message: "sub-flow 'lookup' belongs to plan gone, which is not on the stack",
      },
    ]);
    expect(turn.stack).toEqual([]);
    expect(turn.frames).toHaveLength(1);
  });

  it('2 slots intact: a hook that clears a slot is caught and the slot restored', async () => {
    const flow = reportFlow({ hooks: { afterComplete: () => ({ slots: { city: undefined } }) } });
    const { agent } = setupAgent({ steps: [reportOk], flows: [flow] });
    const turn = await agent.send({ threadId: 'v2', text: 'report on Oslo' });
    expect(errors(turn.observations, 'verify')[0]?.problems).toEqual([
      { check: 'slots-intact', message: "Slot 'city' of 'report' was cleared." },
    ]);
    const thread = await agent.readThread('v2');
    expect(thread.snapshot.flags.hasIssues).toBe(true);
    // The diff shows the hook clearing the slot, then the repair putting it back.
    expect(thread.snapshot.diffs?.at(-1)?.changes.filter((c) => c.op === 'slots')).toEqual([
      { op: 'slots', flowId: 'flow_1', name: 'report', set: { city: 'Oslo' }, cleared: [] },
      { op: 'slots', flowId: 'flow_1', name: 'report', set: {}, cleared: ['city'] },
      { op: 'slots', flowId: 'flow_1', name: 'report', set: { city: 'Oslo' }, cleared: [] },
    ]);
  });

  it('3 output well-formed: a read flow without a frame goes to recovery and is retried', async () => {
    const { agent, model } = setupAgent({
      steps: [
        { match: { phase: 'skill', flow: 'report' }, toolCalls: finish({ outcome: 'success', data: {} }) },
        reportOk,
      ],
    });
    const turn = await agent.send({ threadId: 'v3', text: 'report on Oslo' });
    expect(errors(turn.observations, 'verify')[0]?.problems).toEqual([
      { check: 'output-well-formed', message: "Flow 'report' produced no display frame with data." },
    ]);
    expect(turn.observations.find((o) => o.type === 'recovery')?.data.action).toBe('retry');
    expect(model.calls.filter((c) => c.phase === 'skill')).toHaveLength(2);
    expect(turn.frames).toEqual([{ flow: 'report', displayType: 'table', data: [{ city: 'Oslo' }] }]);
  });

  it('4 no duplicates: two open flows of one name are found and one is invalidated', async () => {
    const { agent, store } = setupAgent({ steps: [reportOk] });
    await seedStack(store, 'v4', [
      flowInstance('d1', 'lookup'),
      flowInstance('d2', 'lookup'),
      flowInstance('a', 'report', { status: 'active', slots: { city: 'Oslo' } }),
    ]);
    const turn = await agent.send({ threadId: 'v4', text: 'thanks' });
    expect(errors(turn.observations, 'verify')[0]?.problems).toEqual([
      { check: 'no-duplicates', message: "flow 'lookup' is open twice (d1 and d2)" },
    ]);
    expect(turn.stack.map((f) => f.id)).toEqual(['d2']);
    expect(turn.pending?.slot).toBe('city');
  });

  it('5 flags coherent: keepGoing with nothing waiting is caught and cleared', async () => {
    const flow = reportFlow({ hooks: { afterComplete: () => ({ flags: { keepGoing: true } }) } });
    const { agent } = setupAgent({ steps: [reportOk], flows: [flow] });
    const turn = await agent.send({ threadId: 'v5', text: 'report on Oslo' });
    expect(errors(turn.observations, 'verify')[0]?.problems).toEqual([
      { check: 'flags-coherent', message: 'keepGoing is set, but no other flow waits on the stack.' },
    ]);
    const { snapshot } = await agent.readThread('v5');
    expect(snapshot.flags).toEqual({
      keepGoing: false,
      hasIssues: true,
      hasPlan: false,
      naturalBirth: false,
    });
  });
});

describe('completion and result processing', () => {
  it('writes 3–5 scratchpad summaries, and an Internal flow adds no text', async () => {
    const { agent } = setupAgent({
      steps: [
        {
          match: { phase: 'skill', flow: 'report' },
          toolCalls: finish({
            outcome: 'success',
            data: { rows: [{ city: 'Oslo', celsius: 21 }], text: 'Oslo: 21 °C' },
            scratchpadEntries: ['Oslo is mild'],
          }),
        },
      ],
      flows: [reportFlow(), notesFlow, emailFlow],
    });
    await agent.send({ threadId: 'r1', text: 'report on Oslo' });
    const { snapshot } = await agent.readThread('r1');
    expect(snapshot.scratchpad.map((e) => e.text)).toEqual([
      'Oslo is mild',
      'report (read) completed for city=Oslo.',
      'Result: Oslo: 21 °C',
    ]);
  });

  it('keeps the first 512 rows in the frame and the rest under a table id', async () => {
    const rows = Array.from({ length: 1300 }, (_, i) => ({ n: i }));
    const { agent } = setupAgent({
      steps: [
        {
          match: { phase: 'skill', flow: 'report' },
          toolCalls: finish({ outcome: 'success', data: { rows, text: 'Many rows.' } }),
        },
      ],
    });
    const turn = await agent.send({ threadId: 'r2', text: 'report on Oslo' });
    const frame = turn.frames[0];
    expect(frame).toMatchObject({ displayType: 'table', tableId: 'table_1', totalRows: 1300 });
    expect(frame?.data as unknown[]).toHaveLength(512);
    const { readTablePage } = await import('../respond/index.js');
    const page = await readTablePage({
      store: agent.store,
      threadId: 'r2',
      tableId: 'table_1',
      offset: 1024,
    });
    expect(page?.rows).toHaveLength(276);
    expect(page?.rows[0]).toEqual({ n: 1024 });
  });
});

describe('component tools', () => {
  it('the skill reads the conversation, writes and reads notes, reads preferences and the flows below it', async () => {
    const { agent, model } = setupAgent({
      steps: [
        {
          match: { phase: 'skill', flow: 'report' },
          toolCalls: [
            { toolName: 'context_coordinator', input: { turns: 2 } },
            {
              toolName: 'memory_manager',
              input: { operation: 'write_scratchpad', key: 'unit', text: 'Oslo uses celsius' },
            },
            { toolName: 'memory_manager', input: { operation: 'read_preferences' } },
            { toolName: 'flow_stack', input: { which: 'all' } },
          ],
        },
        {
          match: { phase: 'skill', flow: 'report' },
          toolCalls: finish({ outcome: 'success', data: { text: 'Done.', city: 'Oslo' } }),
        },
      ],
    });
    await agent.send({ threadId: 'ct', text: 'weather' });
    await agent.send({ threadId: 'ct', text: 'report on Oslo' });
    const results = model.calls[1]?.prompt.at(-1);
    const outputs =
      results?.role === 'tool'
        ? results.content.map((p) =>
            p.type === 'tool-result' && p.output.type === 'text' ? JSON.parse(p.output.value) : p,
          )
        : [];
    expect(outputs[0]).toEqual({ transcript: 'User: weather\nAgent: Which city?\nUser: report on Oslo' });
    expect(outputs[1]).toEqual({ written: 'unit' });
    expect(outputs[2]).toEqual({ preferences: {} });
    expect(outputs[3]).toEqual({
      current: { name: 'report', status: 'active', slots: { city: 'Oslo' } },
      previous: [{ name: 'lookup', status: 'pending', slots: {} }],
    });
    const { snapshot } = await agent.readThread('ct');
    expect(snapshot.scratchpad.find((e) => e.key === 'unit')).toEqual({
      key: 'unit',
      text: 'Oslo uses celsius',
      source: 'report',
      time: 1_000,
    });
    expect(model.calls[0]?.toolNames).toEqual([
      'lookup_weather',
      'context_coordinator',
      'memory_manager',
      'flow_stack',
      'finish_skill',
    ]);
  });
});
