/**
 * A local HTTP server that speaks one provider's API for tests of the real `@ai-sdk/*` clients: it
 * refuses a request that breaks the provider's documented rules with a 400 in the provider's error
 * shape (as the provider would), and answers a valid one from a script, streamed or not.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicDialect } from './anthropic-dialect.js';
import { openAIChatDialect, openAICompatibleDialect } from './openai-chat-dialect.js';
import { openAIResponsesDialect } from './openai-responses-dialect.js';
import type {
  EmulatedCall,
  EmulatedOutput,
  EmulatorReply,
  EmulatorScriptEntry,
  ProviderDialect,
  SseEvent,
} from './provider-dialect.js';
import { constrainToSchema } from './schema-rules.js';

/** The emulated APIs: `openai(id)` uses Responses, `openai.chat(id)` chat completions. */
export type EmulatedProvider = 'openai-chat' | 'openai-responses' | 'anthropic' | 'openai-compatible';

const dialects: Record<EmulatedProvider, ProviderDialect> = {
  'openai-chat': openAIChatDialect,
  'openai-responses': openAIResponsesDialect,
  anthropic: anthropicDialect,
  'openai-compatible': openAICompatibleDialect,
};

/** How the emulated model behaves beyond the provider's own rules. */
export interface ProviderEmulatorOptions {
  /**
   * `false`: a model without native tool calling; a request that sends tools is refused with a 400, as
   * Ollama does for such a model ("… does not support tools").
   */
  tools?: boolean;
  /** The pause between a stream's events, as a model writing its answer (ms; none by default). */
  streamGapMs?: number;
  /** Told as each event of a stream is written (a benchmark stamps the first text delta). */
  onStreamEvent?: (event: SseEvent, index: number) => void;
}

export interface ProviderEmulator {
  /** The base URL for the provider's `create*({ baseURL })`, ending in `/v1`. */
  url: string;
  /** Every request body received, in order. */
  requests: Record<string, unknown>[];
  /** Every request refused with a 400, and why. */
  rejections: { status: number; message: string }[];
  /** Script entries not yet used. */
  remaining(): number;
  close(): Promise<void>;
}

/**
 * Starts the emulator of one provider on 127.0.0.1. The script is a queue of replies, one per request,
 * or one function that answers every request (a model that reads the call, for long conversations).
 *
 * @example
 * ```ts
 * const emulator = await startProviderEmulator('anthropic', [{ text: 'Hello!' }]);
 * const model = createAnthropic({ baseURL: emulator.url, apiKey: 'test' })('claude-sonnet-4-5');
 * ```
 */
export async function startProviderEmulator(
  provider: EmulatedProvider,
  script: readonly EmulatorScriptEntry[] | ((call: EmulatedCall) => EmulatorReply),
  options: ProviderEmulatorOptions = {},
): Promise<ProviderEmulator> {
  const dialect = dialects[provider];
  const responder = typeof script === 'function' ? script : undefined;
  const queue = typeof script === 'function' ? [] : [...script];
  const requests: Record<string, unknown>[] = [];
  const rejections: { status: number; message: string }[] = [];
  let callCount = 0;

  function answer(body: Record<string, unknown>): Reply {
    requests.push(body);
    const problem =
      options.tools === false && Array.isArray(body.tools) && body.tools.length > 0
        ? `registry.ollama.ai/library/${String(body.model)} does not support tools`
        : dialect.check(body);
    if (problem !== undefined) {
      rejections.push({ status: 400, message: problem });
      return { status: 400, body: dialect.errorBody(400, problem) };
    }
    const call = dialect.describe(body);
    const entry = responder ?? queue.shift();
    if (entry === undefined) {
      const message = `${dialect.name} emulator: the script is used up (request ${requests.length}, last user "${call.lastUser}")`;
      return { status: 500, body: dialect.errorBody(500, message) };
    }
    const reply = typeof entry === 'function' ? entry(call) : entry;
    const output = toOutput(reply, call, () => `${dialect.callIdPrefix}${++callCount}`);
    const id = `emulated_${requests.length}`;
    const model = typeof body.model === 'string' ? body.model : 'emulated-model';
    if (!call.stream) return { status: 200, body: dialect.respond(output, id, model) };
    return {
      status: 200,
      events: dialect.stream(output, id, model),
      ...(dialect.streamEnd ? { end: dialect.streamEnd } : {}),
    };
  }

  async function handle(request: IncomingMessage): Promise<Reply> {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (request.method !== 'POST' || path !== dialect.path)
      return { status: 404, body: dialect.errorBody(404, `Unknown route ${request.method} ${path}`) };
    const body = await readJson(request);
    if (body === undefined) {
      rejections.push({ status: 400, message: 'The body is not a JSON object.' });
      return { status: 400, body: dialect.errorBody(400, 'The body is not a JSON object.') };
    }
    return answer(body);
  }

  const server = createServer((request, response) => {
    handle(request)
      .catch((error: unknown) => ({ status: 500, body: dialect.errorBody(500, String(error)) }))
      .then((reply) => send(response, reply, options))
      .catch(() => response.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    rejections,
    remaining: () => queue.length,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      }),
  };
}

/** A structured reply written in whatever shape the call's schema asks for slot values. */
export function routeReply(flow: string, slots: Record<string, unknown>): EmulatorScriptEntry {
  return (call) => {
    const slotSchema = (call.schema?.properties as Record<string, { type?: unknown }> | undefined)?.slots;
    const asPairs = slotSchema?.type === 'array';
    return {
      json: {
        flow,
        slots: asPairs ? Object.entries(slots).map(([name, value]) => ({ name, value })) : slots,
      },
    };
  };
}

function toOutput(reply: EmulatorReply, call: EmulatedCall, nextId: () => string): EmulatedOutput {
  let text = reply.text ?? '';
  if (reply.json !== undefined) {
    const json = call.constrained && call.schema ? constrainToSchema(reply.json, call.schema) : reply.json;
    text = JSON.stringify(json);
  }
  const toolCalls = (reply.toolCalls ?? []).map((c) => ({
    callId: c.callId ?? nextId(),
    toolName: c.toolName,
    input: JSON.stringify(c.input ?? {}),
  }));
  if (call.jsonToolName !== undefined && reply.json !== undefined) {
    toolCalls.push({ callId: nextId(), toolName: call.jsonToolName, input: text });
    text = '';
  }
  const finish = reply.finishReason ?? (toolCalls.length > 0 ? 'tool-calls' : 'stop');
  return { text, toolCalls, finish, ...(reply.refusal !== undefined ? { refusal: reply.refusal } : {}) };
}

type Reply = { status: number; body: unknown } | { status: number; events: SseEvent[]; end?: string };

async function readJson(request: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    const value = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

async function send(response: ServerResponse, reply: Reply, options: ProviderEmulatorOptions): Promise<void> {
  if ('body' in reply) {
    response.writeHead(reply.status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(reply.body));
    return;
  }
  response.writeHead(reply.status, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const [index, event] of reply.events.entries()) {
    if (index > 0 && options.streamGapMs) await new Promise((done) => setTimeout(done, options.streamGapMs));
    response.write(`${event.event ? `event: ${event.event}\n` : ''}data: ${JSON.stringify(event.data)}\n\n`);
    options.onStreamEvent?.(event, index);
  }
  response.end(reply.end ? `data: ${reply.end}\n\n` : undefined);
}
