import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Clock, systemClock } from '../util/index.js';
import { openAICompatibleDialect } from './emulators/openai-chat-dialect.js';
import { buildStepOutput, measureOutput } from './internal/build-step-output.js';
import {
  type ChatCompletionRequest,
  chatCompletionRequestSchema,
  readRequestContext,
} from './internal/chat-completion-request.js';
import { toChatCompletion, toChatCompletionChunks } from './internal/chat-completion-response.js';
import { countTokens } from './internal/count-tokens.js';
import { describeStep } from './internal/describe-step.js';
import { matchesText } from './internal/matches-text.js';
import { createScriptCursor } from './internal/script-cursor.js';
import { validateScript } from './internal/validate-script.js';
import { ScriptExhaustedError } from './script-exhausted-error.js';
import type { ScriptStep, ScriptUsage } from './script-step.js';

export type { ChatCompletionRequest };

/**
 * A step of the test server's script: the scripted model's step, matched on what an HTTP request
 * carries (there is no flowstack phase on the wire), and failing with an HTTP status.
 */
export interface OpenAICompatibleServerStep extends Omit<ScriptStep, 'match' | 'error'> {
  match?: {
    lastUser?: string | RegExp;
    request?: (request: ChatCompletionRequest) => boolean;
  };
  /** Answer with this HTTP status and an OpenAI-style error body instead. */
  error?: { status: number; message: string };
}

/** Options of `startOpenAICompatibleServer`. */
export interface OpenAICompatibleServerOptions {
  steps: readonly OpenAICompatibleServerStep[];
  /** Defaults to 0: a free port. */
  port?: number;
  /** Token counts for steps that give none; each count left out is estimated (chars / 4). */
  defaultUsage?: ScriptUsage;
  /** Stamps `created`. Defaults to the system clock. */
  clock?: Clock;
}

/** A running test server; `close()` it after the test. */
export interface OpenAICompatibleServer {
  /** Base URL ending in `/v1`, for `createOpenAICompatible({ baseURL })` or `createOpenAI({ baseURL })`. */
  url: string;
  /** Every chat-completions body received, in order. */
  requests: ChatCompletionRequest[];
  /** Steps not yet consumed, not counting repeating ones. */
  remaining(): number;
  close(): Promise<void>;
}

const source = 'the OpenAI-compatible test server';

/**
 * Starts an HTTP server on 127.0.0.1 that answers `POST /v1/chat/completions` from a script, in the
 * OpenAI wire format, streamed (server-sent events) or not: for tests of real provider clients
 * without a network. A request that breaks the chat-completions rules (a tool message with no call
 * before it, a call left unanswered, a strict schema OpenAI's strict mode refuses) gets a 400, as from a
 * real server. A request no step matches gets a 500 whose message describes it; note that AI
 * SDK calls retry a 500 unless given `maxRetries: 0`.
 *
 * @example
 * ```ts
 * const server = await startOpenAICompatibleServer({ steps: [{ text: 'Hello!' }] });
 * const provider = createOpenAICompatible({ name: 'local', baseURL: server.url, includeUsage: true });
 * const { text } = await generateText({ model: provider('test-model'), prompt: 'Hi' });
 * await server.close();
 * ```
 */
export async function startOpenAICompatibleServer(
  options: OpenAICompatibleServerOptions,
): Promise<OpenAICompatibleServer> {
  validateScript(options.steps, source);
  const clock = options.clock ?? systemClock;
  const cursor = createScriptCursor(options.steps);
  const requests: ChatCompletionRequest[] = [];
  let toolCallCount = 0;
  const nextCallId = () => `call_${++toolCallCount}`;

  function answer(request: ChatCompletionRequest): Reply {
    requests.push(request);
    const context = readRequestContext(request);
    const found = cursor.take(
      ({ match }) => matchesText(match?.lastUser, context.lastUser) && (match?.request?.(request) ?? true),
    );
    if (found === undefined) {
      const error = new ScriptExhaustedError({
        source: `${source} (POST /v1/chat/completions, model "${request.model}")`,
        callNumber: requests.length,
        lastUser: context.lastUser,
        toolNames: context.toolNames,
        pendingSteps: cursor.pending().map(({ step, index }) => describeStep(step, index)),
        totalSteps: options.steps.length,
      });
      return errorReply(500, error.message, 'script_exhausted');
    }
    const { step } = found;
    if (step.error !== undefined) return errorReply(step.error.status, step.error.message, 'scripted_error');
    const output = buildStepOutput(step, nextCallId);
    const counts = countTokens({
      usage: step.usage,
      defaultUsage: options.defaultUsage,
      promptCharacters: context.promptCharacters,
      output: measureOutput(output),
    });
    const header = {
      id: `chatcmpl-${requests.length}`,
      model: request.model,
      created: Math.floor(clock.now() / 1000),
    };
    if (request.stream !== true) return { status: 200, body: toChatCompletion(header, output, counts) };
    const includeUsage = request.stream_options?.include_usage === true;
    return { status: 200, events: toChatCompletionChunks(header, output, { counts, includeUsage }) };
  }

  async function handle(request: IncomingMessage): Promise<Reply> {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (request.method !== 'POST' || path !== '/v1/chat/completions') {
      return errorReply(404, `Unknown route ${request.method} ${path}`, 'not_found');
    }
    const body = await readJson(request);
    const parsed = chatCompletionRequestSchema.safeParse(body);
    if (!parsed.success) {
      return errorReply(400, `Invalid chat completion request: ${parsed.error.message}`, 'invalid_request');
    }
    // The rules a real server enforces: tool results paired with their calls, strict schemas valid.
    const broken = openAICompatibleDialect.check(body as Record<string, unknown>);
    if (broken !== undefined) return errorReply(400, broken, 'invalid_request');
    return answer(parsed.data);
  }

  const server = createServer((request, response) => {
    handle(request)
      .catch((error: unknown) => errorReply(500, String(error), 'internal_error'))
      .then((reply) => send(response, reply));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    remaining: () => cursor.remaining(),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      }),
  };
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

/** A JSON body, or the chunks of a server-sent event stream ended by `[DONE]`. */
type Reply = { status: number; body: unknown } | { status: number; events: object[] };

/** OpenAI's error body: `{ error: { message, type, param, code } }`. */
function errorReply(status: number, message: string, code: string): Reply {
  const type = status >= 500 ? 'server_error' : 'invalid_request_error';
  return { status, body: { error: { message, type, param: null, code } } };
}

function send(response: ServerResponse, reply: Reply): void {
  if ('body' in reply) {
    response.writeHead(reply.status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(reply.body));
    return;
  }
  response.writeHead(reply.status, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const event of reply.events) response.write(`data: ${JSON.stringify(event)}\n\n`);
  response.end('data: [DONE]\n\n');
}
