/**
 * A thread's title for a list of threads: its first message, on one line and cut to a glance's length,
 * so that a person finds a conversation by what they asked rather than by an id.
 */
import type { StateStore } from '../../spec/index.js';

const titleLength = 60;

/** The first user message of the thread, shortened; undefined when it has none yet. */
export async function readThreadTitle(store: StateStore, threadId: string): Promise<string | undefined> {
  // The first message opens the history; a few rows are enough to find it.
  for (const row of await store.readHistory(threadId, { limit: 4 })) {
    if (row.kind !== 'message') continue;
    const { role, text } = JSON.parse(row.data) as { role?: string; text?: unknown };
    if (role !== 'user' || typeof text !== 'string') continue;
    const line = text.replace(/\s+/g, ' ').trim();
    return line.length > titleLength ? `${line.slice(0, titleLength - 1).trimEnd()}…` : line;
  }
  return undefined;
}
