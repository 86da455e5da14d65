/**
 * `createServer()`: the agent behind an HTTP API (Hono on `@hono/node-server`): threads and turns,
 * the observation stream as server-sent events, suspensions, rollback, the audit log, an OpenAPI
 * document, the web page and, when configured, the A2A endpoint. Every `/v1` route but the OpenAPI
 * document needs a bearer token; errors are problem details.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { createErrorReceiver } from '../observe/index.js';
import { randomIdGenerator, systemClock } from '../util/index.js';
import { createTokenAuth } from './auth/create-token-auth.js';
import { createOpenApiDocument } from './openapi-document.js';
import { problem, problemResponse, toProblem } from './problem-details.js';
import { mountA2A } from './routes/a2a-routes.js';
import { registerAuditRoutes } from './routes/audit-routes.js';
import { registerChatRoutes } from './routes/chat-routes.js';
import { registerDeleteRoutes } from './routes/delete-routes.js';
import { registerEventRoutes } from './routes/event-routes.js';
import { registerFrameRoutes } from './routes/frame-routes.js';
import { registerThreadRoutes } from './routes/thread-routes.js';
import { registerTurnRoutes } from './routes/turn-routes.js';
import { mountUi } from './routes/ui-routes.js';
import type { ServerContext, ServerEnv, ServerOptions } from './server-types.js';
import { createTurnRunner } from './turn-runner.js';

export interface FlowstackServer {
  /** The Hono app, for mounting in another app or calling `app.request()` in tests. */
  app: Hono<ServerEnv>;
  /** Starts listening (default 127.0.0.1, a free port when `port` is 0 or left out). */
  listen(options?: { port?: number; hostname?: string }): Promise<{ url: string }>;
  /** Ends open streams, cancels running turns and stops listening. Does not close the agent. */
  close(): Promise<void>;
}

/** Default request body bound (a 32,000-character message is at most 128 KiB of UTF-8). */
export const defaultMaxBodyBytes = 256 * 1024;

/**
 * @example
 * const server = createServer({ agent, auth: { tokens: parseTokenList(process.env.FLOWSTACK_TOKENS ?? '') } });
 * const { url } = await server.listen({ port: 3000 });
 */
export function createServer(options: ServerOptions): FlowstackServer {
  const clock = options.clock ?? systemClock;
  const shutdown = new AbortController();
  // Behind a turn queue a thread's later messages wait their turn on the queue instead of being refused.
  const runner = createTurnRunner({ clock, queued: options.turns !== undefined });
  // Streams wake on this process's agent (stored events and live progress), on a cross-process fan-out
  // when one is given (events committed by other processes), and on this server's own turn events.
  const sources = [
    options.agent.subscribe,
    ...(options.subscribe ? [options.subscribe] : []),
    ...(options.fanout ? [options.fanout.subscribe] : []),
    runner.subscribe,
  ];
  // This process's events go to the other processes: stored ones after their save, progress live.
  const stopRelays = options.fanout
    ? [options.agent.subscribe, runner.subscribe].map((subscribe) =>
        options.fanout?.relay(subscribe, { progress: true }),
      )
    : [];
  const context: ServerContext = {
    agent: options.agent,
    turns: options.turns ?? { send: (turn) => options.agent.send(turn) },
    runner,
    subscribe: (listener, subscribeOptions) => {
      const stops = sources.map((subscribe) => subscribe(listener, subscribeOptions));
      return () => {
        for (const stop of stops) stop();
      };
    },
    pollIntervalMs: options.pollIntervalMs,
    heartbeatMs: options.heartbeatMs ?? 15_000,
    maxBodyBytes: options.maxBodyBytes ?? defaultMaxBodyBytes,
    ids: options.ids ?? randomIdGenerator,
    clock,
    onError: createErrorReceiver({
      onError: options.onError,
      logger: options.logger,
      message: 'The server failed to answer a request (500).',
    }),
    shutdown: shutdown.signal,
  };
  const stopNotingProgress = options.agent.subscribe((o) => runner.noteProgress(o), { progress: true });
  const authenticate =
    'authenticate' in options.auth ? options.auth.authenticate : createTokenAuth(options.auth.tokens);

  const app = new Hono<ServerEnv>();
  app.onError((error) => problemResponse(toProblem(error, context.onError)));
  app.notFound((c) => problemResponse(problem(404, 'not_found', `No route ${c.req.method} ${c.req.path}.`)));
  app.get('/healthz', (c) => c.json({ ok: true }));
  app.get('/v1/openapi.json', (c) => c.json(createOpenApiDocument({ serverUrl: new URL(c.req.url).origin })));
  app.use('/v1/*', async (c, next) => {
    const principal = authenticate(c.req.header('authorization'));
    if (principal === undefined)
      return problemResponse(problem(401, 'unauthorized', 'Send Authorization: Bearer <token>.'), {
        'WWW-Authenticate': 'Bearer realm="flowstack"',
      });
    c.set('principal', principal);
    await next();
  });
  // Every route that takes a body reads at most `maxBodyBytes` of it, counted as it streams in: a larger
  // declared length is refused before reading, a chunked body as soon as it passes the limit.
  const limitBody = bodyLimit({
    maxSize: context.maxBodyBytes,
    onError: () =>
      problemResponse(
        problem(413, 'body_too_large', `The body is larger than ${context.maxBodyBytes} bytes.`),
      ),
  });
  // Every route, `/a2a` and routes added later included; on `/v1` it runs after the bearer check above.
  app.use('*', limitBody);
  registerThreadRoutes(app, context);
  registerDeleteRoutes(app, context);
  registerTurnRoutes(app, context);
  registerEventRoutes(app, context);
  registerFrameRoutes(app, context);
  registerAuditRoutes(app, context);
  registerChatRoutes(app, context);
  if (options.a2a) mountA2A(app, context, { ...options.a2a, authenticate });
  if (options.ui !== false) mountUi(app);

  let listening: ReturnType<typeof serve> | undefined;
  return {
    app,
    listen(listenOptions = {}) {
      return new Promise((resolve, reject) => {
        const hostname = listenOptions.hostname ?? '127.0.0.1';
        const server = serve(
          { fetch: app.fetch, port: listenOptions.port ?? 0, hostname },
          (info: AddressInfo) => {
            const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
            resolve({ url: `http://${host}:${info.port}` });
          },
        );
        server.once('error', reject);
        listening = server;
      });
    },
    async close() {
      shutdown.abort();
      stopNotingProgress();
      for (const stop of stopRelays) stop?.();
      await runner.close();
      const server = listening;
      listening = undefined;
      if (!server) return;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
      });
    },
  };
}
