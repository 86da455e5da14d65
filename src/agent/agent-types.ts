/**
 * The agent's handle: what `createAgent` returns.
 */

import type { FileSnapshotSweep, RollbackOptions } from '../consistency/index.js';
import type { SubscribeObservations } from '../observe/index.js';
import type { DeleteThreadOptions, ResumeOptions, SendOptions } from '../options/index.js';
import type { WarmUpReport } from '../replay/index.js';
import type { RollbackReport, StateStore } from '../spec/index.js';
import type { ThreadView, TurnResult, TurnStreamPart } from '../turn/index.js';

/** What `agent.deleteThread` removed. */
export interface DeletedThread {
  threadId: string;
  /** How many file snapshots of the thread were removed with it. */
  fileSnapshots: number;
}

export interface Agent {
  /** Runs one turn on a thread; an unknown thread id starts a new thread. */
  send(options: SendOptions): Promise<TurnResult>;
  /**
   * Runs one turn as `send` does, yielding it as it happens: reply and thinking deltas (redacted, live
   * only), tool calls starting and ending, flow and plan changes, the questions it leaves, and last the
   * `finish` part with the `TurnResult`. Its model calls stream even when the agent's do not. Leaving
   * the loop early (or `signal`) stops the turn as a user's stop does; the loop ends once it has settled.
   *
   * @example
   * for await (const part of agent.stream({ threadId: 't1', text: 'Weather in Oslo?' })) {
   *   if (part.type === 'text-delta') process.stdout.write(part.delta);
   *   if (part.type === 'finish') console.log('\n', part.result.status);
   * }
   */
  stream(options: SendOptions): AsyncIterable<TurnStreamPart>;
  /**
   * Answers one question of a waiting run: an approval (approve, edit the arguments, reject with a
   * reason), a blocking tool's feedback, an unknown outcome. Throws `SuspensionError` (unknown id,
   * answered, expired, answer that does not fit) or `ThreadNotFoundError`, changing nothing.
   */
  resume(options: ResumeOptions): Promise<TurnResult>;
  /** Reads a thread; throws `ThreadNotFoundError` when there is none. */
  readThread(threadId: string): Promise<ThreadView>;
  /**
   * Restores the files one tool call changed, from the snapshot taken before it ran (by `snapshotId` or
   * `callId`). Idempotent: run again, it returns the same report; interrupted, it carries on. Throws
   * `ThreadNotFoundError`, `ThreadBusyError` (a turn is running), `InputError` or `FileSnapshotError`
   * (unknown snapshot, path out of the root, corrupt snapshot) — having changed nothing.
   */
  rollback(options: RollbackOptions): Promise<RollbackReport>;
  /**
   * Deletes a thread whole: its snapshot, history, journal, observations, file snapshots and the
   * schedules that send to it, in the store and the snapshot folder; its audit rows stay with their
   * summaries erased (docs/decisions/0076). Throws `ThreadNotFoundError` (unknown, or another
   * principal's), `ThreadBusyError` (a turn runs) or `ConfigurationError` (a store that cannot delete).
   * Files the thread's tools changed stay as they are.
   *
   * @example
   * await agent.deleteThread({ threadId: 't1', principal: 'alice' });
   */
  deleteThread(options: DeleteThreadOptions): Promise<DeletedThread>;
  /**
   * Listens to observations after they are saved (by thread and type), and to live progress (id 0)
   * when `progress` is set.
   */
  subscribe: SubscribeObservations;
  readonly store: StateStore;
  /**
   * Runs a dry turn loop once per process, on a store of its own of this agent's store's kind (a private
   * in-memory SQLite database for the SQLite store, else a memory store; none of this agent's flows,
   * tools, model or store is used), then builds this agent's tools' schema checks (each tool's parser is
   * run once on an empty object, its verdict dropped; no tool is called), so that the first real turn —
   * often a crashed worker's turn taken over — does not pay for code running for the first time. Call it
   * when a worker starts, before it takes work; `flowstack serve` and `flowstack worker` do. Never fails:
   * a dry run that could not finish says why in its report (docs/decisions/0032, 0090).
   */
  warmUp(): Promise<WarmUpReport>;
  /**
   * Applies the file snapshot retention (`files.keep`) to every thread that has snapshots, including
   * threads that no longer take new ones (after a call, the pipeline checks only its own thread).
   * Without retention (`keep: false`) it removes nothing. `flowstack serve` and `flowstack worker` run
   * it when they start and every hour.
   */
  sweepFileSnapshots(): Promise<FileSnapshotSweep>;
  close(): Promise<void>;
}
