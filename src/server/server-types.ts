/**
 * What the HTTP server is made of: the agent it serves, how it authenticates, and its bounds.
 */
import type { Agent, ResumeOptions, SendOptions, TurnResult } from '../agent/index.js';

export type { ResumeOptions };

import type { SubscribeObservations } from '../observe/index.js';
import type { Clock, IdGenerator } from '../util/index.js';
import type { Authenticate } from './auth/create-token-auth.js';
import type { TokenTable } from './auth/parse-token-list.js';
import type { TurnRunner } from './turn-runner.js';

/** Restoring the files of one snapshot a thread's failed or aborted work left (DESIGN.md §6). */
export interface RollbackOptions {
  threadId: string;
  /** One of the thread's file snapshots (`readThread(id).fileSnapshots`). */
  snapshotId: string;
  principal?: string;
}

/**
 * The agent as the server uses it. `rollback` comes with file snapshots; an agent without it answers
 * 501 on the rollback route.
 */
export type ServerAgent = Agent & {
  rollback?: (options: RollbackOptions) => Promise<unknown>;
};

/**
 * Where the server's turns run when not in this process: a turn queue (`createTurnQueue` of
 * `flowstack/bullmq`) has this shape, so API processes enqueue turns and wait for a worker's answer.
 */
export interface TurnSender {
  send(options: Pick<SendOptions, 'threadId' | 'text' | 'principal' | 'signal'>): Promise<TurnResult>;
}

export interface ServerOptions {
  agent: ServerAgent;
  /** Send new messages here instead of to `agent.send` (scale-out: a turn queue). Reads stay on the agent. */
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
  /** Re-read the store for events from other processes this often (ms) on open streams; off by default. */
  pollIntervalMs?: number;
  /** A comment line is written to idle event streams this often (ms; default 15 s). */
  heartbeatMs?: number;
  clock?: Clock;
  ids?: IdGenerator;
  /** Receives internal errors (500s), whose details are not sent to clients. Defaults to console.error. */
  onError?: (error: unknown) => void;
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
