/**
 * A tool that throws an odd value (see `oddThrownValues`) behind the HTTP API: every request is answered
 * with the turn's result, in which the model was shown a `server_error`, and the server stays up.
 */
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/index.js';
import { defineFlow } from '../flow/index.js';
import { createMemoryStore } from '../store/index.js';
import { createScriptedModel } from '../test/index.js';
import { oddThrownAccounts, oddThrownValues } from '../tool/fixtures/odd-thrown-values.js';
import { defineTool } from '../tool/index.js';
import { api, startTestServer } from './fixtures/server-fixture.js';

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

function lastUserText(options: LanguageModelV3CallOptions): string {
  const last = options.prompt.filter((m) => m.role === 'user').at(-1);
  return last?.role === 'user' ? last.content.map((p) => (p.type === 'text' ? p.text : '')).join('') : '';
}

function shownToolResults(options: LanguageModelV3CallOptions): string {
  const texts: string[] = [];
  for (const message of options.prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content)
      if (part.type === 'tool-result' && 'value' in part.output) texts.push(String(part.output.value));
  }
  return texts.join('\n');
}

function createThrowingAgent() {
  const explode = defineTool({
    name: 'explode',
    description: 'Throws the named value.',
    input: z.object({ kind: z.string() }),
    execute: ({ kind }) => {
      throw oddThrownValues[kind]?.();
    },
  });
  const flow = defineFlow({
    name: 'boom',
    intent: 'read',
    description: 'Run the exploding tool.',
    slots: [],
    tools: ['explode'],
    skill: 'Call explode and report.',
  });
  const model = createScriptedModel({
    steps: [
      { match: { phase: 'predict' }, repeat: true, json: { flow: 'boom', slots: {} } },
      {
        match: { phase: 'skill' },
        repeat: true,
        respond: (options) => {
          if (options.prompt.at(-1)?.role !== 'tool')
            return { toolCalls: [{ toolName: 'explode', input: { kind: lastUserText(options) } }] };
          const text = `Saw: ${shownToolResults(options)}`;
          return { toolCalls: [{ toolName: 'finish_skill', input: { outcome: 'success', data: { text } } }] };
        },
      },
    ],
  });
  return createAgent({ model, flows: [flow], tools: [explode], store: createMemoryStore() });
}

describe('a tool that throws an odd value, over HTTP', () => {
  it('answers every request with a server_error the model saw, and the server stays up', async () => {
    const server = await startTestServer({ agent: createThrowingAgent() });
    running.push(server);
    const alice = api(server.url, 'alice');
    for (const kind of Object.keys(oddThrownValues)) {
      const response = await alice('/v1/threads', { method: 'POST', json: { text: kind } });
      expect(response.status, kind).toBe(201);
      const turn = await response.json();
      expect(turn.status, kind).toBe('completed');
      expect(turn.reply, kind).toBe(
        `Saw: Error (server_error) from tool 'explode': ${oddThrownAccounts[kind]}`,
      );
    }
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});
