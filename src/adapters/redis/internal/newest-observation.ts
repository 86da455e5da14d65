import { decodeObservation, observationPageSize } from '../../../observe/index.js';
import type { Observation, StateStore } from '../../../spec/index.js';

/** The thread's newest stored observation if it is newer than `afterId`, read page by page from there. */
export async function newestObservation(
  store: Pick<StateStore, 'readObservations'>,
  threadId: string,
  afterId: number,
): Promise<Observation | undefined> {
  let last: Awaited<ReturnType<StateStore['readObservations']>>[number] | undefined;
  for (;;) {
    const rows = await store.readObservations(threadId, {
      afterId: last?.id ?? afterId,
      limit: observationPageSize,
    });
    last = rows.at(-1) ?? last;
    if (rows.length < observationPageSize) return last ? decodeObservation(last) : undefined;
  }
}
