/**
 * Loads a thread's snapshot and recent conversation. A corrupt or newer-version snapshot raises a
 * `SnapshotError` and is left as it is.
 */
import { createThreadSnapshot } from '../flow/index.js';
import type { ObservationDraft, StateStore, ThreadSnapshot } from '../spec/index.js';
import { decodeSnapshot } from '../store/index.js';
import type { ConversationMessage } from './turn-types.js';

/**
 * A thread as loaded for a turn; `carried` holds what closing its interrupted turn reported, to be saved
 * with the next commit.
 */
export interface LoadedThread {
  snapshot: ThreadSnapshot;
  version: number;
  carried?: ObservationDraft[];
}

export async function loadThread(
  store: StateStore,
  threadId: string,
): Promise<{ snapshot: ThreadSnapshot; version: number } | undefined> {
  const stored = await store.loadThread(threadId);
  if (!stored) return undefined;
  return { snapshot: decodeSnapshot(threadId, stored.data), version: stored.version };
}

export async function loadOrCreateThread(
  store: StateStore,
  threadId: string,
  principal?: string,
): Promise<{ snapshot: ThreadSnapshot; version: number }> {
  return (
    (await loadThread(store, threadId)) ?? { snapshot: createThreadSnapshot(threadId, principal), version: 0 }
  );
}

/** The last `limit` user and assistant messages of a thread, oldest first. */
export async function readRecentMessages(
  store: StateStore,
  snapshot: ThreadSnapshot,
  limit: number,
): Promise<ConversationMessage[]> {
  // Messages are interleaved with tool rows; reading a window several times the limit is enough in practice
  // and keeps the cost independent of the thread's length.
  const afterSeq = Math.max(0, snapshot.historySeq - limit * 8);
  const rows = await store.readHistory(snapshot.threadId, { afterSeq });
  const messages: ConversationMessage[] = [];
  for (const row of rows) {
    if (row.kind !== 'message') continue;
    const data = JSON.parse(row.data) as { role: 'user' | 'assistant'; text: string };
    messages.push({ seq: row.seq, role: data.role, text: data.text, turnId: row.turnId });
  }
  return messages.slice(-limit);
}
