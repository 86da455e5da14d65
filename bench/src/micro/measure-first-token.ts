/**
 * Added latency to first token (issue 30): the time from a streaming model emitting a reply's first delta
 * to an SSE client of `flowstack serve`'s HTTP API receiving it. One process holds the model double, the
 * agent, the server (on loopback) and the client, so both instants are read on one clock
 * (`performance.now()`). Each turn is a new thread: `POST /v1/threads/:id/messages` with
 * `Accept: text/event-stream`, the flow chosen by a fast-path rule, so the skill's model call is the turn's
 * only one. The model double writes the reply in a few word deltas a couple of milliseconds apart, as a
 * provider streams; the first delta is stamped as it is handed over. What lies between is everything
 * flowstack adds: the skill loop, the stream redactor, the agent's bus, the server's event stream, the
 * socket and the client's read.
 */
import type { AgentOptions } from '../../../dist/src/index.js';
import * as flowstack from '../../../dist/src/index.js';
import * as server from '../../../dist/src/server/index.js';
import type { FirstTokenJob, FirstTokenReport } from './micro-jobs.js';

const { createAgent, createMemoryStore, defineFlow } = flowstack;

type LanguageModelV3 = Extract<AgentOptions['model'], { specificationVersion: 'v3' }>;
type LanguageModelV3StreamPart =
  Awaited<ReturnType<LanguageModelV3['doStream']>>['stream'] extends ReadableStream<infer Part>
    ? Part
    : never;
const { createServer } = server;

const token = 'bench-first-token-0123456789abcdef';
const words = ['The ', 'weather ', 'in ', 'Oslo ', 'is ', 'mild.'];

export async function measureFirstToken(job: FirstTokenJob): Promise<FirstTokenReport> {
  const model = createStreamingDouble(job.gapMs);
  const agent = createAgent({
    model: model.model,
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
      const received = await runTurn(url, turn);
      const emitted = model.firstEmitted();
      if (turn >= job.warmupTurns) samples.push(received - emitted);
    }
  } finally {
    await api.close();
    await agent.close();
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

/** A `LanguageModelV3` whose `doStream` writes `words` as text deltas `gapMs` apart, stamping the first. */
function createStreamingDouble(gapMs: number): { model: LanguageModelV3; firstEmitted(): number } {
  let first = Number.NaN;
  const usage = {
    inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: words.length, text: words.length, reasoning: 0 },
  };
  const model: LanguageModelV3 = {
    specificationVersion: 'v3',
    provider: 'bench',
    modelId: 'streaming-double',
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error('the first-token bench streams every call')),
    doStream: async () => {
      const parts: LanguageModelV3StreamPart[] = [
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't' },
      ];
      let next = 0;
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
        },
        async pull(controller) {
          if (next === words.length) {
            controller.enqueue({ type: 'text-end', id: 't' });
            controller.enqueue({ type: 'finish', usage, finishReason: { unified: 'stop', raw: 'stop' } });
            controller.close();
            return;
          }
          if (next > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
          if (next === 0) first = performance.now();
          controller.enqueue({ type: 'text-delta', id: 't', delta: words[next] ?? '' });
          next += 1;
        },
      });
      return { stream };
    },
  };
  return { model, firstEmitted: () => first };
}
