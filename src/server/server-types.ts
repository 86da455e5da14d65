/**
 * What the HTTP server is made of: the agent it serves, how it authenticates, and its bounds.
 */
import type { Agent, ResumeOptions, RollbackOptions, SendOptions, TurnResult } from '../agent/index.js';

export type { ResumeOptions, RollbackOptions };

import type { SubscribeObservations } from '../observe/index.js';
import type { Logger } from '../spec/index.js';
import type { Clock, IdGenerator } from '../util/index.js';
import type { Authenticate } from './auth/create-token-auth.js';
import type { TokenTable } from './auth/parse-token-list.js';
import type { TurnRunner } from './turn-runner.js';

/**
 * The agent as the server uses it. `createAgent`'s agents roll back file snapshots; another agent (a
 * stand-in, a proxy) may leave `rollback` out, and the rollback route then answers 501.
 */
export type ServerAgent = Omit<Agent, 'rollback' | 'stream' | 'deleteThread'> & {
  rollback?: (options: RollbackOptions) => Promise<unknown>;
  deleteThread?: Agent['deleteThread'];
};

/**
 * Where the server's turns run when not in this process: a turn queue (`createTurnQueue` of
 * `flowstack/bullmq`) has this shape, so API processes enqueue turns and wait for a worker's answer.
 */
export interface TurnSender {
  /**
   * `stream` asks for live deltas on the thread's events; a sender that cannot stream may ignore it.
   * `requestId` (from an Idempotency-Key) must reach `agent.send` unchanged.
   */
  send(
    options: Pick<SendOptions, 'threadId' | 'text' | 'principal' | 'signal' | 'stream' | 'requestId'>,
  ): Promise<TurnResult>;
}

export interface ServerOptions {
  agent: ServerAgent;
  /**
   * Send new messages here instead of to `agent.send` (scale-out: a turn queue). Reads stay on the agent.
   * It must run each thread's turns in the order they were sent, as the BullMQ turn queue does: a message
   * that arrives while the thread's turn runs is sent on too and waits its turn, instead of a 409.
   * A request with an `Idempotency-Key` carries a `requestId` derived from it, which must reach
   * `agent.send` unchanged.
   */
  turns?: TurnSender;
  /** Bearer tokens → principals, or a function that authenticates an `Authorization` header. */
  auth: { tokens: TokenTable } | { authenticate: Authenticate };
  /** Largest request body accepted, in bytes (default 256 KiB). */
  maxBodyBytes?: number;
  /** Serve the web page at `/` (default true). */
  ui?: boolean;
  /** The A2A endpoint (agent card at `/.well-known/agent-card.json`, JSON-RPC at `/a2a`); off when left out. */
  a2a?: A2AServerOptions;
  /**
   * More signals for event streams, besides the agent's own: a cross-process fan-out (Redis) plugs in
   * here, so that events committed by other processes reach this server's streams. It is always called
   * with a `threadId`; what it delivers only wakes the stream, which reads the store (ADR 0012).
   */
  subscribe?: SubscribeObservations;
  /**
   * A cross-process fan-out (`createRedisEventFanout` from `flowstack/redis`): the server relays its
   * agent's observations and live progress to it, and its streams wake on what other processes (API
   * servers, workers) publish, so that a client on any process sees every event of its thread.
   */
  fanout?: EventFanout;
  /** Re-read the store for events from other processes this often (ms) on open streams; off by default. */
  pollIntervalMs?: number;
  /** A comment line is written to idle event streams this often (ms; default 15 s). */
  heartbeatMs?: number;
  clock?: Clock;
  ids?: IdGenerator;
  /**
   * Receives internal errors (500s), whose details are not sent to clients. Without it they go to
   * `logger` (as `error`, redacted).
   */
  onError?: (error: unknown) => void;
  /**
   * Where the server's own diagnostics go (`Logger`, pino's interface): internal errors as `error`.
   * Default: warnings and errors to standard error. With `onError` too,
   * both are told.
   */
  logger?: Logger;
}

/** What the server needs of a cross-process fan-out of observations. */
export interface EventFanout {
  /** Observations other processes published. */
  subscribe: SubscribeObservations;
  /** Publishes what `subscribe` delivers until the returned stop is called. */
  relay(subscribe: SubscribeObservations, options?: { progress?: boolean }): () => void;
}

export interface A2AServerOptions {
  name: string;
  description: string;
  version?: string;
  /** Where clients reach this server; defaults to the origin of the first A2A request. */
  baseUrl?: string;
  /** The skills the card lists, typically one per user-facing flow. */
  skills?: ReadonlyArray<{ id: string; name?: string; description: string; examples?: string[] }>;
}

/** Everything a route needs. */
export interface ServerContext {
  agent: ServerAgent;
  /** Runs a new message's turn: the agent's `send`, or the turn queue given as `turns`. */
  turns: TurnSender;
  runner: TurnRunner;
  subscribe: SubscribeObservations;
  pollIntervalMs: number | undefined;
  heartbeatMs: number;
  maxBodyBytes: number;
  ids: IdGenerator;
  clock: Clock;
  onError: (error: unknown) => void;
  /** Aborted when the server closes; open streams end with it. */
  shutdown: AbortSignal;
}

/** Hono's per-request variables. */
export type ServerEnv = { Variables: { principal: string } };
