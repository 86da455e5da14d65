/**
 * Reads a thread's stored observations after an id, page by page, decoded. The replay half of every
 * stream: what a subscriber missed is read from the store, never from memory.
 */
import type { Observation, StateStore } from '../spec/index.js';
import { decodeObservation } from './decode-observation.js';

/** Rows fetched per store query while replaying. */
export const observationPageSize = 500;

export interface ReplayObservationsOptions {
  /** Only observations with a greater id; 0 (the default) reads from the start. */
  afterId?: number;
  /** Stop after this many; all when left out. */
  limit?: number;
  pageSize?: number;
}

export async function* replayObservations(
  store: Pick<StateStore, 'readObservations'>,
  threadId: string,
  options: ReplayObservationsOptions = {},
): AsyncGenerator<Observation> {
  let afterId = options.afterId ?? 0;
  let left = options.limit ?? Number.POSITIVE_INFINITY;
  const pageSize = options.pageSize ?? observationPageSize;
  while (left > 0) {
    const rows = await store.readObservations(threadId, { afterId, limit: Math.min(pageSize, left) });
    for (const row of rows) {
      afterId = row.id;
      left -= 1;
      yield decodeObservation(row);
    }
    if (rows.length < Math.min(pageSize, left + rows.length)) return;
  }
}

/** The id of the thread's newest stored observation, 0 when it has none. */
export async function lastObservationId(
  store: Pick<StateStore, 'readObservations'>,
  threadId: string,
): Promise<number> {
  let last = 0;
  for (;;) {
    const rows = await store.readObservations(threadId, { afterId: last, limit: observationPageSize });
    const tail = rows.at(-1);
    if (!tail) return last;
    last = tail.id;
    if (rows.length < observationPageSize) return last;
  }
}
