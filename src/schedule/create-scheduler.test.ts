/**
 * The embedded default's scheduled flows: a Schedule flow's `schedule_task` call keeps a schedule in the
 * SQLite store; the in-process scheduler fires it as turns on the thread, and after a restart (a new
 * store, agent and scheduler on the same file) it goes on where it was — a firing sent but not yet
 * recorded when the process stopped is answered from the agent's log, not run twice.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/index.js';
import { ConfigurationError, ThreadBusyError } from '../errors/index.js';
import { defineFlow } from '../flow/index.js';
import { createManualClock, type ManualClock } from '../loop/fixtures/manual-clock.js';
import type { Scheduler, StateStore } from '../spec/index.js';
import { createMemoryStore, createSqliteStore } from '../store/index.js';
import { createScriptedModel, type ScriptStepOutput } from '../test/index.js';
import { createScheduleTool, defineTool, type ToolDefinition } from '../tool/index.js';
import { createScheduler, type InProcessScheduler } from './create-scheduler.js';

const minute = 60_000;

function lastUserText(options: LanguageModelV3CallOptions): string {
  const user = [...options.prompt].reverse().find((m) => m.role === 'user');
  return JSON.stringify(user?.content ?? '');
}

function skill(options: LanguageModelV3CallOptions): ScriptStepOutput {
  const flow = (options.providerOptions?.flowstack as { flow?: string } | undefined)?.flow;
  const done = options.prompt.some((m) => m.role === 'tool');
  const finish = {
    toolCalls: [{ toolName: 'finish_skill', input: { outcome: 'success', data: { text: 'Done.' } } }],
  };
  if (done) return finish;
  const text = lastUserText(options);
  if (flow === 'remind') {
    const [, minutes = '5', what = ''] = /every (\d+) minutes to ([^"\\]+)/.exec(text) ?? [];
    return {
      toolCalls: [
        {
          toolName: 'schedule_task',
          input: { id: 'reminder', text: `note ${what}`, everyMinutes: Number(minutes), limit: 3 },
        },
      ],
    };
  }
  const [, what = ''] = /note ([^"\\]+)/.exec(text) ?? [];
  return { toolCalls: [{ toolName: 'write_note', input: { what } }] };
}

/** An agent and its scheduler on `store`, as one process would start them. */
function startProcess(store: StateStore, clock: ManualClock, notes: string[]) {
  let scheduler: InProcessScheduler | undefined;
  const tools: ToolDefinition[] = [
    createScheduleTool({ scheduler: () => scheduler as Scheduler }),
    defineTool({
      name: 'write_note',
      description: 'Writes a note.',
      input: z.object({ what: z.string() }),
      execute: ({ what }) => {
        notes.push(what);
        return { written: what };
      },
    }) as ToolDefinition,
  ];
  const agent = createAgent({
    model: createScriptedModel({ steps: [{ match: { phase: 'skill' }, respond: skill, repeat: true }] }),
    flows: [
      defineFlow({
        name: 'remind',
        intent: 'schedule',
        description: 'Schedule a reminder.',
        slots: [],
        tools: ['schedule_task'],
        skill: 'Schedule the reminder the user asks for.',
      }),
      defineFlow({
        name: 'note',
        intent: 'transform',
        description: 'Write a note.',
        slots: [],
        tools: ['write_note'],
        skill: 'Write the note.',
      }),
    ],
    rules: [
      { pattern: /^remind me every \d+ minutes to .+$/, flow: 'remind' },
      { pattern: /^note .+$/, flow: 'note' },
    ],
    tools,
    store,
    clock,
    toolPipeline: { simulate: undefined },
  });
  const fired: unknown[] = [];
  scheduler = createScheduler({ agent, store, clock, onFire: (event) => fired.push(event) });
  return { agent, scheduler, fired };
}

async function userMessages(store: StateStore, threadId: string): Promise<string[]> {
  return (await store.readHistory(threadId))
    .filter((entry) => entry.kind === 'message')
    .map((entry) => JSON.parse(entry.data) as { role: string; text: string })
    .filter((message) => message.role === 'user')
    .map((message) => message.text);
}

describe('createScheduler (in-process, schedule kept in the store)', () => {
  it('runs a Schedule flow’s repeating schedule as turns, and goes on after a restart', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'flowstack-scheduler-')), 'flowstack.db');
    const clock = createManualClock(1_700_000_000_000);
    const notes: string[] = [];
    const first = startProcess(createSqliteStore({ path }), clock, notes);
    const turn = await first.agent.send({
      threadId: 't1',
      text: 'remind me every 5 minutes to water the plants',
    });
    expect(turn.status).toBe('completed');
    expect(await first.agent.store.listSchedules?.()).toMatchObject([
      { id: 'reminder', threadId: 't1', text: 'note water the plants', everyMs: 5 * minute, runs: 0 },
    ]);

    first.scheduler.start();
    const firstRun = clock.settle(
      (async () => {
        while (first.fired.length < 1) await new Promise((resolve) => setImmediate(resolve));
      })(),
    );
    await firstRun;
    expect(notes).toEqual(['water the plants']);
    await first.scheduler.close();
    await first.agent.close();

    // A restart: everything new but the file.
    const second = startProcess(createSqliteStore({ path }), clock, notes);
    expect(await second.scheduler.listSchedules()).toMatchObject([{ id: 'reminder', runs: 1 }]);
    second.scheduler.start();
    await clock.settle(
      (async () => {
        while (second.fired.length < 2) await new Promise((resolve) => setImmediate(resolve));
      })(),
    );
    // The third run was the last (limit 3): the schedule is gone, the thread got three messages.
    expect(notes).toEqual(['water the plants', 'water the plants', 'water the plants']);
    expect(await second.scheduler.listSchedules()).toEqual([]);
    expect(await userMessages(second.agent.store, 't1')).toEqual([
      'remind me every 5 minutes to water the plants',
      'note water the plants',
      'note water the plants',
      'note water the plants',
    ]);
    await second.scheduler.close();
    await second.agent.close();
  });

  it('fires a cron schedule at its calendar times in its time zone, skipping the weekend', async () => {
    // Friday 27 November 2026, 07:00 UTC (08:00 in Paris).
    const clock = createManualClock(Date.UTC(2026, 10, 27, 7, 0));
    const notes: string[] = [];
    const store = createMemoryStore();
    const { agent, scheduler, fired } = startProcess(store, clock, notes);
    await scheduler.schedule({
      id: 'standup',
      threadId: 't-cron',
      text: 'note stand-up',
      cron: '0 9 * * 1-5',
      timezone: 'Europe/Paris',
      limit: 2,
    });
    expect(await scheduler.listSchedules()).toMatchObject([
      { id: 'standup', nextRunAt: Date.UTC(2026, 10, 27, 8, 0), runs: 0 },
    ]);
    scheduler.start();
    // The scheduler looks at the store at least once a minute: three days of minutes.
    await clock.settle(
      (async () => {
        while (fired.length < 2) await new Promise((resolve) => setImmediate(resolve));
      })(),
      { maxAdvances: 10_000 },
    );
    const sent = (await store.readHistory('t-cron')).filter(
      (e) => e.kind === 'message' && e.data.includes('"user"'),
    );
    expect(sent.map((e) => new Date(e.createdAt).toISOString())).toEqual([
      '2026-11-27T08:00:00.000Z',
      '2026-11-30T08:00:00.000Z',
    ]);
    expect(notes).toEqual(['stand-up', 'stand-up']);
    expect(await scheduler.listSchedules()).toEqual([]);
    await scheduler.close();
    await agent.close();
  });

  it('does not run a firing twice when the process stopped after sending it, before saving the next time', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'flowstack-scheduler-')), 'flowstack.db');
    const clock = createManualClock(1_700_000_000_000);
    const notes: string[] = [];
    const store = createSqliteStore({ path });
    // This process dies (its store refuses to save) right after the turn was sent.
    const dying: StateStore = {
      ...store,
      saveSchedule: async (entry) => {
        if (entry.runs > 0) throw new Error('the process died here');
        return store.saveSchedule?.(entry);
      },
    };
    const first = startProcess(dying, clock, notes);
    await first.scheduler.schedule({
      id: 'once-more',
      threadId: 't2',
      text: 'note feed the cat',
      everyMs: minute,
    });
    clock.advance(minute);
    await expect(first.scheduler.runDue()).rejects.toThrow('the process died here');
    expect(notes).toEqual(['feed the cat']);
    await first.agent.close();

    const second = startProcess(createSqliteStore({ path }), clock, notes);
    expect(await second.scheduler.runDue()).toBe(1);
    expect(notes).toEqual(['feed the cat']);
    expect(await userMessages(second.agent.store, 't2')).toEqual(['note feed the cat']);
    expect(await second.scheduler.listSchedules()).toMatchObject([
      { id: 'once-more', runs: 1, nextRunAt: 1_700_000_000_000 + 2 * minute },
    ]);
    await second.agent.close();
  });

  it('tries a firing again later when its thread is busy, and reports other errors without stopping', async () => {
    const clock = createManualClock(1_700_000_000_000);
    const store = createMemoryStore();
    const sent: string[] = [];
    let busy = true;
    const agent = {
      send: async (options: { threadId: string; requestId: string }) => {
        if (options.threadId === 'broken') throw new Error('the model is down');
        if (busy) throw new ThreadBusyError({ threadId: options.threadId });
        sent.push(options.requestId);
        return {};
      },
    };
    const errors: unknown[] = [];
    const scheduler = createScheduler({ agent, store, clock, onFire: (event) => errors.push(event.error) });
    await scheduler.schedule({ id: 'ping', threadId: 't', text: 'ping', at: clock.now() });
    await scheduler.schedule({
      id: 'bad',
      threadId: 'broken',
      text: 'ping',
      everyMs: minute,
      startAt: clock.now(),
    });
    // The busy one waits; the broken one is reported and goes on to its next time.
    expect(await scheduler.runDue()).toBe(1);
    expect(await scheduler.listSchedules()).toMatchObject([
      { id: 'ping', runs: 0 },
      { id: 'bad', runs: 1, nextRunAt: clock.now() + minute },
    ]);
    expect(String(errors.find(Boolean))).toContain('the model is down');
    busy = false;
    expect(await scheduler.runDue()).toBe(0);
    clock.advance(1_000);
    expect(await scheduler.runDue()).toBe(1);
    expect(sent).toEqual([`scheduled.ping.${1_700_000_000_000}`]);
    expect((await scheduler.listSchedules()).map((e) => e.id)).toEqual(['bad']);
  });

  it('refuses a store that cannot keep schedules, and a bad schedule, with typed errors', async () => {
    const {
      saveSchedule: _save,
      deleteSchedule: _delete,
      listSchedules: _list,
      ...plain
    } = createSqliteStore({
      path: ':memory:',
    });
    const agent = { send: async () => ({}) };
    expect(() => createScheduler({ agent, store: plain })).toThrow(ConfigurationError);
    const scheduler = createScheduler({ agent, store: createSqliteStore({ path: ':memory:' }) });
    await expect(scheduler.schedule({ id: 'x', threadId: 't', text: 'hi' })).rejects.toThrow(
      /exactly one of at \(once\), everyMs/,
    );
    await expect(
      scheduler.schedule({ id: 'bad id!', threadId: 't', text: 'hi', everyMs: 10 }),
    ).rejects.toThrow(/id must be .*everyMs must be/);
  });
});
