import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defaultAgentLimits } from '../agent/index.js';
import { InputError, ThreadBusyError } from '../errors/index.js';
import { defineFlow } from '../flow/index.js';
import type { StateStore } from '../spec/index.js';
import { createSqliteStore } from '../store/index.js';
import { createScriptedModel } from '../test/index.js';
import { defineTool } from '../tool/index.js';
import type { Clock } from '../util/index.js';

const dir = mkdtempSync(join(tmpdir(), 'flowstack-replay-'));
const stores: StateStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
});

const sendNote = defineFlow({
  name: 'send_note',
  intent: 'prepare',
  description: 'Send a note to the team.',
  slots: [],
  tools: ['post_note'],
  skill: 'Post the note the user asked for.',
});

/** A non-idempotent tool whose effect is counted, as a real side effect would be. */
function postNote(effects: string[]) {
  return defineTool({
    name: 'post_note',
    description: 'Posts a note to the team channel.',
    input: z.object({ text: z.string() }),
    output: z.object({ posted: z.boolean() }),
    idempotent: false,
    execute: ({ text }) => {
      effects.push(text);
      return { posted: true };
    },
  });
}

/**
 * The scripted conversation, with fresh random call ids on every call, as real providers make them:
 * a re-run that asked the model again would see new ids and miss the journal.
 */
function noteModel(options: { hangAt?: number } = {}): {
  model: LanguageModelV3;
  calls: () => number;
  /** Resolves when the call that never answers is made. */
  hung: Promise<void>;
} {
  const scripted = createScriptedModel({
    steps: [
      { match: { phase: 'predict' }, json: { flow: 'send_note', slots: {} }, repeat: true },
      {
        match: { phase: 'skill', prompt: (call) => !call.prompt.some((m) => m.role === 'tool') },
        toolCalls: [{ toolName: 'post_note', input: { text: 'Deploy at 5' } }],
        repeat: true,
      },
      {
        match: { phase: 'skill' },
        toolCalls: [{ toolName: 'finish_skill', input: { outcome: 'success', data: { text: 'Posted.' } } }],
        repeat: true,
      },
    ],
  });
  let calls = 0;
  let hang: () => void = () => {};
  const hung = new Promise<void>((resolve) => {
    hang = resolve;
  });
  const model: LanguageModelV3 = {
    ...scripted,
    async doGenerate(call) {
      calls += 1;
      if (calls === options.hangAt) {
        hang();
        return new Promise<never>(() => {});
      }
      const result = await scripted.doGenerate(call);
      return {
        ...result,
        content: result.content.map((part) =>
          part.type === 'tool-call' ? { ...part, toolCallId: `call_${randomUUID()}` } : part,
        ),
      };
    },
  };
  return { model, calls: () => calls, hung };
}

function standingClock(now: number): Clock {
  return { now: () => now, sleep: () => new Promise(() => {}) };
}

function agentOn(path: string, model: LanguageModelV3, effects: string[], now = 1_000_000) {
  const store = createSqliteStore({ path });
  stores.push(store);
  return createAgent({
    model,
    flows: [sendNote],
    tools: [postNote(effects)],
    store,
    clock: standingClock(now),
    toolPipeline: { simulate: undefined },
  });
}

describe('a turn whose process died is replayed, not run again', () => {
  it('the same request id resumes it: the side effect happened once, with random call ids', async () => {
    const path = join(dir, 'replay.db');
    const effects: string[] = [];
    // The process "dies" waiting for the model's last answer, after the note was posted.
    const dying = noteModel({ hangAt: 3 });
    void agentOn(path, dying.model, effects).send({
      threadId: 't',
      text: 'Tell the team: deploy at 5',
      requestId: 'r1',
    });
    await dying.hung;
    expect(effects).toEqual(['Deploy at 5']);

    const later = 1_000_000 + defaultAgentLimits.leaseTtlMs + 1;
    const fresh = noteModel();
    const agent = agentOn(path, fresh.model, effects, later);
    const result = await agent.send({ threadId: 't', text: 'Tell the team: deploy at 5', requestId: 'r1' });
    expect(result.reply).toBe('Posted.');
    expect(effects).toEqual(['Deploy at 5']);
    // Routing and the first skill step came from the record; only the last answer was asked for.
    expect(fresh.calls()).toBe(1);
    const thread = await agent.readThread('t');
    expect(thread.messages.map((m) => [m.role, m.text])).toEqual([
      ['user', 'Tell the team: deploy at 5'],
      ['assistant', 'Posted.'],
    ]);
    expect(thread.snapshot.extensions.turn).toBeUndefined();
  });

  it('a request delivered twice runs once and gets the same answer', async () => {
    const effects: string[] = [];
    const model = noteModel();
    const agent = agentOn(join(dir, 'twice.db'), model.model, effects);
    const first = await agent.send({ threadId: 't', text: 'Tell the team: deploy at 5', requestId: 'job-7' });
    const again = await agent.send({ threadId: 't', text: 'Tell the team: deploy at 5', requestId: 'job-7' });
    expect(again).toMatchObject({ turnId: first.turnId, status: 'completed', reply: 'Posted.' });
    expect(effects).toHaveLength(1);
    expect(model.calls()).toBe(3);
  });

  it('a request id given again with another message is refused, and nothing runs', async () => {
    const effects: string[] = [];
    const model = noteModel();
    const agent = agentOn(join(dir, 'reused.db'), model.model, effects);
    await agent.send({ threadId: 't', text: 'Tell the team: deploy at 5', requestId: 'job-8' });
    const before = await agent.store.loadThread('t');
    const error = await agent
      .send({ threadId: 't', text: 'Tell the team: deploy at 6', requestId: 'job-8' })
      .catch((e: unknown) => e);
    expect(InputError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'input_request_reused', reason: 'request_reused' });
    expect(effects).toHaveLength(1);
    expect(await agent.store.loadThread('t')).toEqual(before);
  });

  it('another message closes the interrupted turn and reports the calls whose outcome is unknown', async () => {
    const path = join(dir, 'closed.db');
    const effects: string[] = [];
    let release: () => void = () => {};
    const stuck = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The process dies inside the tool, after its effect and before its result is journaled.
    const hanging = defineTool({
      name: 'post_note',
      description: 'Posts a note to the team channel.',
      input: z.object({ text: z.string() }),
      idempotent: false,
      execute: async ({ text }) => {
        effects.push(text);
        release();
        return new Promise<never>(() => {});
      },
    });
    const store = createSqliteStore({ path });
    stores.push(store);
    const dying = createAgent({
      model: noteModel().model,
      flows: [sendNote],
      tools: [hanging],
      store,
      clock: standingClock(1_000_000),
      toolPipeline: { simulate: undefined },
    });
    void dying.send({ threadId: 't', text: 'Tell the team: deploy at 5' });
    await stuck;

    const agent = agentOn(path, noteModel().model, effects, 1_000_000 + defaultAgentLimits.leaseTtlMs + 1);
    const result = await agent.send({ threadId: 't', text: 'Tell the team: deploy at 6' });
    expect(result.reply).toBe('Posted.');
    expect(effects).toEqual(['Deploy at 5', 'Deploy at 5']);
    const events = await store.readObservations('t');
    const closed = events.map((e) => JSON.parse(e.data)).find((o) => o.data?.phase === 'resume');
    expect(closed.data.unknownOutcomes).toEqual([expect.objectContaining({ toolName: 'post_note' })]);
  });
});

/** The store with its journal writes counted; `withoutRecord` hides `journalRecord`, as an older store lacks it. */
function countingStore(store: StateStore, withoutRecord: boolean) {
  const counts = { journalStart: 0, journalFinish: 0, journalRecord: 0 };
  const counted = new Proxy(store, {
    get(target, name, receiver) {
      if (name === 'journalRecord' && withoutRecord) return undefined;
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (name in counts) counts[name as keyof typeof counts] += 1;
        return value.apply(target, args);
      };
    },
  });
  return { store: counted, counts };
}

describe('model answers are journaled as one row each', () => {
  it.each([
    ['a store with journalRecord: one write per answer', false],
    ['a store without it: a start and a finish, and the replay still works', true],
  ])('%s', async (_name, withoutRecord) => {
    const path = join(dir, `record-${withoutRecord}.db`);
    const effects: string[] = [];
    const sqlite = createSqliteStore({ path });
    stores.push(sqlite);
    const { store, counts } = countingStore(sqlite, withoutRecord);
    const dying = noteModel({ hangAt: 3 });
    const options = { flows: [sendNote], tools: [postNote(effects)], toolPipeline: { simulate: undefined } };
    void createAgent({ ...options, model: dying.model, store, clock: standingClock(1_000_000) }).send({
      threadId: 't',
      text: 'Tell the team: deploy at 5',
      requestId: 'r1',
    });
    await dying.hung;
    // Two answers (routing, the first skill step) and one tool call so far.
    expect(counts).toEqual(
      withoutRecord
        ? { journalStart: 3, journalFinish: 3, journalRecord: 0 }
        : { journalStart: 1, journalFinish: 1, journalRecord: 2 },
    );
    const fresh = noteModel();
    const later = 1_000_000 + defaultAgentLimits.leaseTtlMs + 1;
    const agent = createAgent({ ...options, model: fresh.model, store, clock: standingClock(later) });
    const result = await agent.send({ threadId: 't', text: 'Tell the team: deploy at 5', requestId: 'r1' });
    expect(result.reply).toBe('Posted.');
    expect(effects).toEqual(['Deploy at 5']);
    expect(fresh.calls()).toBe(1);
    const answers = (await sqlite.listJournal('t')).filter((e) => e.toolName === '(model)');
    expect(answers.map((e) => e.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
  });
});

describe('one thread, one turn at a time, within one process too', () => {
  it('refuses a second concurrent turn of the same agent on a thread with ThreadBusyError; other threads run', async () => {
    const effects: string[] = [];
    const held = noteModel({ hangAt: 2 });
    const agent = agentOn(join(dir, `busy-${randomUUID()}.db`), held.model, effects);
    void agent.send({ threadId: 'busy', text: 'Tell the team: deploy at 5' });
    await held.hung;
    await expect(agent.send({ threadId: 'busy', text: 'Tell the team: deploy at 6' })).rejects.toSatisfy(
      (error) => ThreadBusyError.isInstance(error),
    );
    // The refused turn left nothing: no effect, the held turn's record is the thread's only one.
    expect(effects).toEqual([]);
    const other = await agent.send({ threadId: 'free', text: 'Tell the team: lunch' });
    expect(other.status).toBe('completed');
  });
});
