/**
 * The durable record of one delegation, kept in the tool journal under `<idempotency key>#a2a`. Its row
 * is started before the message is sent, so a crash can never make the same delegation go out twice:
 * a started row without a task id means "maybe sent", and is reconciled with the remote agent first.
 */
import type { StateStore } from '../../spec/index.js';
import { stableHash } from '../../util/index.js';
import type { DelegationOutcome } from '../delegation-outcome.js';

export interface DelegationRecord {
  agentId: string;
  contextId: string;
  taskId?: string;
  /** Answers the user sent to the remote task's questions. */
  replies: number;
  /** Set once the task reached a terminal state. */
  outcome?: DelegationOutcome;
  /** The last question the task asked, while it waits. */
  question?: string;
}

export function recordKeyOf(idempotencyKey: string): string {
  return `${idempotencyKey}#a2a`;
}

/** The remote ids a delegation uses, derived from its key so that a re-send is recognisable. */
export function delegationIds(idempotencyKey: string, reply = 0): { contextId: string; messageId: string } {
  const base = `flowstack-${stableHash(idempotencyKey)}`;
  return { contextId: base, messageId: `${base}-${reply}` };
}

export async function readDelegation(
  store: StateStore,
  idempotencyKey: string,
): Promise<{ started: boolean; record?: DelegationRecord }> {
  const entry = await store.readJournal(recordKeyOf(idempotencyKey));
  if (!entry) return { started: false };
  return entry.result === undefined ? { started: true } : { started: true, record: JSON.parse(entry.result) };
}

export async function saveDelegation(
  store: StateStore,
  idempotencyKey: string,
  record: DelegationRecord,
  now: number,
): Promise<void> {
  await store.journalFinish({
    key: recordKeyOf(idempotencyKey),
    status: record.outcome?.status === 'failed' ? 'failed' : 'succeeded',
    result: JSON.stringify(record),
    finishedAt: now,
  });
}
