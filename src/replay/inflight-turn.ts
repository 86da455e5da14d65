/**
 * The record of a turn under way, saved in the snapshot (`extensions.turn`) from the turn's first
 * commit to its last. A process that dies mid-turn leaves it behind; the next call on the thread finds
 * it and runs the same turn again under the same turn id, replaying the model's recorded answers and
 * the journaled tool results (docs/decisions/0017-replayable-turns.md). Also the log of the last
 * request ids, so a request delivered twice runs once.
 */
import { createHash } from 'node:crypto';
import { InputError } from '../errors/index.js';
import type { ReplyPart } from '../respond/index.js';
import type { JournalEntry, StateStore, ThreadSnapshot } from '../spec/index.js';
import type { TurnResult, TurnStatus } from '../turn/index.js';
import { record, type TurnState } from '../turn/index.js';
import { modelAnswerToolName } from './record-model-calls.js';

export interface InflightTurn {
  turnId: string;
  /** The caller's id of the request, when it gave one. */
  requestId?: string;
  /** The fingerprint of the request's message (`fingerprintRequest`), so that a reused id is caught. */
  requestHash?: string;
  /** The user's message (already redacted). */
  text: string;
  /** History seq of the user's message, saved with the turn's first commit. */
  messageSeq: number;
  startedAt: number;
  /** `routing` until the run's first save; a turn resumed in `running` skips routing. */
  phase: 'routing' | 'running';
  /** How many times the turn was started; one more on each resume. */
  attempts: number;
  /** Model calls made per asker at the last save (see `recordModelCalls`). */
  modelCalls?: Record<string, number>;
  /** The suspension this turn answers (`agent.resume`); such a turn skips routing. */
  answers?: string;
  /** What the turn had to say at its last save; a replay starts from it, since saved work is not redone. */
  replyParts?: ReplyPart[];
}

/** What a finished request answered, kept so that the same request id gets the same answer. */
export interface AnsweredRequest {
  requestId: string;
  /** The fingerprint of the request's message; absent in threads saved before it was kept. */
  requestHash?: string;
  turnId: string;
  status: TurnStatus;
  reply: string;
}

/** Request ids remembered per thread. */
export const rememberedRequests = 32;

export function interruptedTurnOf(snapshot: ThreadSnapshot): InflightTurn | undefined {
  const turn = snapshot.extensions.turn as InflightTurn | undefined;
  return turn && typeof turn.turnId === 'string' ? turn : undefined;
}

export function findRequest(snapshot: ThreadSnapshot, requestId: string): AnsweredRequest | undefined {
  const log = snapshot.extensions.requests as AnsweredRequest[] | undefined;
  return log?.find((r) => r.requestId === requestId);
}

/**
 * A fingerprint of a request's message (the raw text, before redaction, so that two messages differing
 * only in a secret differ here too; a one-way hash keeps the secret itself off the disk).
 */
export function fingerprintRequest(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

/**
 * Refuses a request id that was given before with another message: the caller reused a key, and
 * answering with the other message's turn (or replaying it) would be wrong either way.
 */
export function assertSameRequest(
  earlier: { requestId?: string; requestHash?: string },
  requestHash: string | undefined,
): void {
  if (earlier.requestHash === undefined || requestHash === undefined || earlier.requestHash === requestHash)
    return;
  throw new InputError({
    reason: 'request_reused',
    message: `The request id '${earlier.requestId ?? ''}' was already used for another message on this thread; send a new id for a new message.`,
  });
}

/** The answer of a request that already ran: the same reply, the thread as it is now. */
export function repeatedResult(
  threadId: string,
  answered: AnsweredRequest,
  snapshot: ThreadSnapshot,
): TurnResult {
  const result: TurnResult = {
    threadId,
    turnId: answered.turnId,
    status: answered.status,
    reply: answered.reply,
    frames: [],
    stack: snapshot.stack,
    observations: [],
  };
  if (snapshot.pending) result.pending = snapshot.pending;
  return result;
}

/**
 * Marks the turn as under way (a new one records the user's message; a resumed one counts one more
 * attempt). The caller saves it before anything else happens.
 */
export function startInflight(
  turn: TurnState,
  text: string,
  options: { requestId?: string; requestHash?: string; interrupted?: InflightTurn; answers?: string },
): InflightTurn {
  const { interrupted } = options;
  const inflight: InflightTurn = interrupted
    ? { ...interrupted, attempts: interrupted.attempts + 1 }
    : {
        turnId: turn.turnId,
        text,
        messageSeq: turn.snapshot.historySeq + turn.history.length + 1,
        startedAt: turn.clock.now(),
        // An answer goes straight on with the waiting run: there is nothing to route.
        phase: options.answers !== undefined ? 'running' : 'routing',
        attempts: 1,
        ...(options.requestId !== undefined ? { requestId: options.requestId } : {}),
        ...(options.requestId !== undefined && options.requestHash !== undefined
          ? { requestHash: options.requestHash }
          : {}),
        ...(options.answers !== undefined ? { answers: options.answers } : {}),
      };
  if (!interrupted) record(turn, 'message', { role: 'user', text });
  turn.snapshot.extensions = { ...turn.snapshot.extensions, turn: inflight };
  return inflight;
}

/**
 * Writes the in-flight record for a save in the middle of the turn: the turn is past routing, and a
 * replay counts on from these model calls and says again what the saved part of the turn said.
 */
export function noteRunning(
  turn: TurnState,
  inflight: InflightTurn,
  modelCalls: Record<string, number>,
): void {
  turn.snapshot.extensions = {
    ...turn.snapshot.extensions,
    turn: {
      ...inflight,
      phase: 'running',
      modelCalls,
      ...(turn.replyParts.length > 0 ? { replyParts: turn.replyParts } : {}),
    },
  };
}

/** Clears the in-flight record and logs the request's answer, for the turn's last commit. */
export function endInflight(
  turn: TurnState,
  inflight: InflightTurn,
  answer: { status: TurnStatus; reply: string },
): void {
  const { turn: _done, ...extensions } = turn.snapshot.extensions;
  if (inflight.requestId !== undefined) {
    const log = (extensions.requests as AnsweredRequest[] | undefined) ?? [];
    extensions.requests = [
      ...log.filter((r) => r.requestId !== inflight.requestId),
      {
        requestId: inflight.requestId,
        ...(inflight.requestHash !== undefined ? { requestHash: inflight.requestHash } : {}),
        turnId: inflight.turnId,
        ...answer,
      },
    ].slice(-rememberedRequests);
  }
  turn.snapshot.extensions = extensions;
}

/** Tool calls of a turn that started and recorded no result: their effect is unknown. */
export async function unfinishedCalls(
  store: StateStore,
  threadId: string,
  turnId: string,
): Promise<JournalEntry[]> {
  const prefix = `${threadId}:${turnId}:`;
  return (await store.listJournal(threadId, { keyPrefix: prefix })).filter(
    (e) => e.key.startsWith(prefix) && e.status === 'started' && e.toolName !== modelAnswerToolName,
  );
}
