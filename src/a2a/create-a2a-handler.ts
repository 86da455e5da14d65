/**
 * The A2A endpoint as fetch-style handlers (framework-free): the agent card, and the JSON-RPC
 * transport of the official `@a2a-js/sdk` (`SendMessage`, `SendStreamingMessage`, `GetTask`,
 * `CancelTask`, `SubscribeToTask` …) whose streaming methods answer as server-sent events. The HTTP
 * server authenticates the caller and passes the principal in.
 */
import type { AgentCard } from '@a2a-js/sdk';
import type { JsonRpcTransportHandler, TaskStore } from '@a2a-js/sdk/server';
import type { Clock, IdGenerator } from '../util/index.js';
import type { A2ATurnPort } from './a2a-turn-port.js';
import { createA2AExecutor } from './create-a2a-executor.js';
import { type A2ATaskMethods, createStoredTaskStore } from './internal/create-stored-task-store.js';
import { a2aServerSdk, loadA2ASdk, loadA2AServerSdk } from './internal/load-a2a-sdk.js';

export interface A2AHandlerOptions {
  port: A2ATurnPort;
  card: AgentCard;
  ids: IdGenerator;
  clock: Clock;
}

export interface A2AHandler {
  readonly card: AgentCard;
  /** Answers one JSON-RPC request (a JSON body, or an SSE stream for the streaming methods). */
  handleJsonRpc(request: Request, options: { principal?: string }): Promise<Response>;
}

export function createA2AHandler(options: A2AHandlerOptions): A2AHandler {
  const executor = createA2AExecutor({ port: options.port, ids: options.ids, clock: options.clock });
  // The SDK loads with the first request, so that a server nobody calls over A2A never loads it.
  let transport: JsonRpcTransportHandler | undefined;
  return {
    card: options.card,
    async handleJsonRpc(request, { principal }) {
      const { A2A_VERSION_HEADER, Extensions } = await loadA2ASdk();
      const {
        DefaultRequestHandler,
        InMemoryTaskStore,
        JsonRpcTransportHandler,
        ServerCallContext,
        validateVersion,
      } = await loadA2AServerSdk();
      transport ??= new JsonRpcTransportHandler(
        new DefaultRequestHandler(options.card, taskStoreOf(options.port.store, InMemoryTaskStore), executor),
      );
      const user = principal === undefined ? undefined : { isAuthenticated: true, userName: principal };
      const context = new ServerCallContext({
        ...(user ? { user } : {}),
        requestedVersion: request.headers.get(A2A_VERSION_HEADER) ?? undefined,
        requestedExtensions: Extensions.parseServiceParameter(
          request.headers.get('A2A-Extensions') ?? undefined,
        ),
      });
      const body = await request.text();
      let answer: Awaited<ReturnType<JsonRpcTransportHandler['handle']>>;
      try {
        validateVersion(context.requestedVersion, options.card, 'JSONRPC');
        answer = await transport.handle(body, context);
      } catch (error) {
        answer = {
          jsonrpc: '2.0',
          id: readId(body),
          error: JsonRpcTransportHandler.mapToJSONRPCError(error),
        };
      }
      if (!isAsyncIterable(answer)) return Response.json(answer);
      return new Response(toEventStream(answer, readId(body)), {
        headers: {
          'content-type': 'text/event-stream',
          'cache-control': 'no-cache',
          'x-accel-buffering': 'no',
        },
      });
    },
  };
}

/**
 * Tasks live in the agent's store when it keeps them, so that a task waiting for input is answered after
 * a restart; a store without the methods (a custom one) leaves them in this process's memory.
 */
function taskStoreOf(store: A2ATurnPort['store'], InMemory: new () => TaskStore): TaskStore {
  const { saveA2ATask, loadA2ATask, listA2ATasks } = store;
  if (!saveA2ATask || !loadA2ATask || !listA2ATasks) return new InMemory();
  const methods: A2ATaskMethods = {
    saveA2ATask: saveA2ATask.bind(store),
    loadA2ATask: loadA2ATask.bind(store),
    listA2ATasks: listA2ATasks.bind(store),
  };
  return createStoredTaskStore(methods);
}

function toEventStream(
  events: AsyncIterable<unknown>,
  id: string | number | null,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = events[Symbol.asyncIterator]();
  return new ReadableStream({
    async pull(controller) {
      try {
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(`data: ${JSON.stringify(next.value)}\n\n`));
      } catch (error) {
        const { JsonRpcTransportHandler } = a2aServerSdk();
        const payload = { jsonrpc: '2.0', id, error: JsonRpcTransportHandler.mapToJSONRPCError(error) };
        controller.enqueue(encoder.encode(`event: error\ndata: ${JSON.stringify(payload)}\n\n`));
        controller.close();
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

function readId(body: string): string | number | null {
  try {
    const id = (JSON.parse(body) as { id?: unknown }).id;
    return typeof id === 'string' || typeof id === 'number' ? id : null;
  } catch {
    return null;
  }
}
