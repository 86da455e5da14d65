import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/index.js';
import { defineFlow } from '../flow/index.js';
import type { StateStore } from '../spec/index.js';
import { createMemoryStore, createSqliteStore } from '../store/index.js';
import { createScriptedModel } from '../test/index.js';
import { defineTool } from '../tool/index.js';

function userAgent(store: StateStore = createMemoryStore()) {
  const model = createScriptedModel({ steps: [{ text: 'Hello.', repeat: true }] });
  const executed: string[] = [];
  const agent = createAgent({
    model,
    store,
    flows: [
      defineFlow({
        name: 'greet',
        intent: 'read',
        description: 'Greet the user.',
        tools: ['note'],
        skill: 'Greet the user.',
      }),
    ],
    tools: [
      defineTool({
        name: 'note',
        description: 'Notes a text.',
        input: z.object({ text: z.string() }),
        output: z.object({ ok: z.boolean() }),
        idempotent: true,
        execute: ({ text }) => {
          executed.push(text);
          return { ok: true };
        },
      }),
    ],
    rules: [{ pattern: /warm-up/, flow: 'greet' }],
  });
  return { agent, model, store, executed };
}

describe('agent.warmUp', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
  afterAll(() => trace.disable());

  it('runs fresh, loaded, replayed and closed turns on its own agent, touching nothing of the caller', async () => {
    const { agent, model, store, executed } = userAgent();
    const report = await agent.warmUp();
    expect(report).toMatchObject({ warmed: true, tookOver: true });
    expect(report.reason).toBeUndefined();
    // Whole rounds of six turns (two sent, then two sent again after a failed commit), at most sixteen.
    expect(report.rounds).toBeGreaterThanOrEqual(1);
    expect(report.rounds).toBeLessThanOrEqual(16);
    expect(report.turns).toBe(report.rounds * 6);
    // The caller's model, tools, store and global tracer saw nothing of it.
    expect(model.calls).toHaveLength(0);
    expect(executed).toEqual([]);
    expect(await store.loadThread('warm-up-1')).toBeUndefined();
    expect(await store.listThreads()).toEqual([]);
    expect(exporter.getFinishedSpans()).toEqual([]);
    // The caller's agent works as before, and its turns are traced by the global tracer.
    const turn = await agent.send({ threadId: 't1', text: 'hello' });
    expect(turn.status).toBe('completed');
    expect(exporter.getFinishedSpans().length).toBeGreaterThan(0);
    await agent.close();
  });

  it('runs once per process: another agent gets the same report', async () => {
    const first = userAgent();
    const second = userAgent();
    const report = await first.agent.warmUp();
    // The same dry run (its duration to the microsecond included), not a second one.
    expect(await second.agent.warmUp()).toEqual(report);
    expect(report).toMatchObject({ store: 'memory', tools: 1 });
    expect(second.model.calls).toHaveLength(0);
  });

  it('runs on a private in-memory SQLite database for a SQLite agent, leaving its file untouched', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'flowstack-warm-up-'));
    try {
      const store = createSqliteStore({ path: join(folder, 'agent.db') });
      const { agent, model, executed } = userAgent(store);
      const memoryReport = await userAgent().agent.warmUp();
      const report = await agent.warmUp();
      expect(report).toMatchObject({ warmed: true, tookOver: true, store: 'sqlite', tools: 1 });
      // A dry run of its own, not the memory store's.
      expect(report.ms).not.toBe(memoryReport.ms);
      expect(model.calls).toHaveLength(0);
      expect(executed).toEqual([]);
      expect(await store.listThreads()).toEqual([]);
      const turn = await agent.send({ threadId: 't1', text: 'hello' });
      expect(turn.status).toBe('completed');
      await agent.close();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("builds the agent's tools' checks without calling a tool; a parser that throws is skipped", async () => {
    const broken = defineTool({
      name: 'broken',
      description: 'Its parser throws.',
      input: z.object({ text: z.string() }),
      execute: () => 'never',
    });
    const calls: unknown[] = [];
    const parsed = defineTool({
      name: 'parsed',
      description: 'Its parser is watched.',
      input: z.object({ text: z.string() }),
      execute: () => 'never',
    });
    const agent = createAgent({
      model: createScriptedModel({ steps: [{ text: 'Hello.', repeat: true }] }),
      store: createMemoryStore(),
      flows: [],
      tools: [
        {
          ...broken,
          parseInput: () => {
            throw new Error('a parser that throws');
          },
        },
        {
          ...parsed,
          parseInput: (input: unknown) => {
            calls.push(input);
            return parsed.parseInput?.(input) ?? Promise.resolve({ valid: true, value: input });
          },
        },
      ],
    });
    const report = await agent.warmUp();
    expect(report.warmed).toBe(true);
    expect(report.tools).toBe(1);
    // The parser ran once, on an empty object; the tool itself was not called (its turn would say so).
    expect(calls).toEqual([{}]);
    await agent.close();
  });
});
