/**
 * Added latency to first token (issue 30): the time from a provider writing a reply's first text delta to
 * an SSE client of flowstack's HTTP API receiving it. The provider is the OpenAI-compatible emulator of
 * `src/test/emulators` (`startProviderEmulator`), reached over loopback HTTP by the real
 * `@ai-sdk/openai-compatible` client (chosen as `FLOWSTACK_MODEL=openai-compatible:…` would); it writes the reply in a few word deltas a couple of milliseconds
 * apart and is told as each one is written. One process holds the emulator, the agent, the server and the
 * client, so both instants are read on one clock (`performance.now()`). Each turn is a new thread:
 * `POST /v1/threads/:id/messages` with `Accept: text/event-stream`, the flow chosen by a fast-path rule,
 * so the skill's model call is the turn's only one. What lies between: the provider client's stream
 * parsing, the skill loop, the stream redactor, the agent's bus, the server's event stream, the socket and
 * the client's read.
 */
import * as flowstack from '../../../dist/src/index.js';
import * as server from '../../../dist/src/server/index.js';
import { startProviderEmulator } from '../../../dist/src/test/emulators/start-provider-emulator.js';
import type { FirstTokenJob, FirstTokenReport } from './micro-jobs.js';

const { createAgent, createMemoryStore, defineFlow } = flowstack;

const { createServer } = server;

const token = 'bench-first-token-0123456789abcdef';
const reply = 'The weather in Oslo is mild.';

export async function measureFirstToken(job: FirstTokenJob): Promise<FirstTokenReport> {
  let firstWritten = Number.NaN;
  const emulator = await startProviderEmulator('openai-compatible', () => ({ text: reply }), {
    streamGapMs: job.gapMs,
    onStreamEvent: (event) => {
      if (Number.isNaN(firstWritten) && hasText(event.data)) firstWritten = performance.now();
    },
  });
  // The provider as `flowstack serve` takes it from FLOWSTACK_MODEL: the real @ai-sdk/openai-compatible client.
  const resolved = flowstack.resolveModelFromEnv({
    FLOWSTACK_MODEL: `openai-compatible:${emulator.url}#first-token`,
  });
  if (!resolved) throw new Error('no model from the environment');
  const { model } = resolved;
  const agent = createAgent({
    model,
    flows: [
      defineFlow({
        name: 'answer',
        intent: 'converse',
        description: 'Answer the question.',
        slots: [],
        tools: [],
        skill: 'Answer the question in one sentence.',
      }),
    ],
    rules: [{ pattern: /^question \d+$/, flow: 'answer' }],
    store: createMemoryStore(),
    stream: true,
  });
  const api = createServer({ agent, auth: { tokens: new Map([[token, 'bench']]) }, ui: false });
  const { url } = await api.listen();
  const samples: number[] = [];
  try {
    for (let turn = 0; turn < job.warmupTurns + job.turns; turn++) {
      firstWritten = Number.NaN;
      const received = await runTurn(url, turn);
      if (turn >= job.warmupTurns) samples.push(received - firstWritten);
    }
  } finally {
    await api.close();
    await agent.close();
    await emulator.close();
  }
  return { job, millis: samples, nodeVersion: process.version };
}

/** Runs one turn as an SSE client; returns when the first reply delta arrived (the turn is read to its end). */
async function runTurn(url: string, turn: number): Promise<number> {
  const response = await fetch(`${url}/v1/threads/first-token-${turn}/messages`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'text/event-stream',
      'content-type': 'application/json',
    },
    body: JSON.stringify({ text: `question ${turn}` }),
  });
  if (!response.body) throw new Error(`no event stream (${response.status})`);
  const decoder = new TextDecoder();
  let buffer = '';
  let received: number | undefined;
  for await (const chunk of response.body) {
    buffer += decoder.decode(chunk, { stream: true });
    if (received === undefined && /"type":"text-delta"/.test(buffer)) received = performance.now();
    if (received !== undefined) buffer = '';
  }
  if (received === undefined) throw new Error(`turn ${turn}: no text-delta event reached the client`);
  return received;
}

/** A chat-completion chunk that carries reply text. */
function hasText(data: unknown): boolean {
  const choices = (data as { choices?: { delta?: { content?: unknown } }[] } | undefined)?.choices;
  const content = choices?.[0]?.delta?.content;
  return typeof content === 'string' && content.length > 0;
}
