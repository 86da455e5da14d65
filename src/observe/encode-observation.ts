/**
 * The stored text of observation drafts, the inverse of `decodeObservation`. The text is exactly
 * `JSON.stringify(draft)` for a draft as `observe` makes it; only the work differs. A turn's drafts share their envelope (spec version,
 * thread and turn), so it is serialized once per encoder rather than once per draft, and each draft adds
 * its type, time, data and parent. A turn saves two observations per tool call, and the envelope was
 * most of their serializing (docs/decisions/0045-lighter-turn-records.md).
 */
import type { ObservationDraft } from '../spec/index.js';

export type ObservationEncoder = (draft: ObservationDraft) => string;

/** An encoder for one save: the envelope it serialized last is reused while the drafts share it. */
export function createObservationEncoder(): ObservationEncoder {
  let threadId: string | undefined;
  let turnId: string | undefined;
  let head = '';
  return (draft) => {
    if (!hasUsualShape(draft)) return JSON.stringify(draft);
    if (draft.threadId !== threadId || draft.turnId !== turnId) {
      threadId = draft.threadId;
      turnId = draft.turnId;
      head = `{"specVersion":1,"threadId":${JSON.stringify(threadId)},"turnId":${JSON.stringify(turnId)},"type":`;
    }
    let text = `${head}${JSON.stringify(draft.type)},"time":${draft.time},"data":${JSON.stringify(draft.data)}`;
    if (draft.parentId !== undefined) text += `,"parentId":${JSON.stringify(draft.parentId)}`;
    return `${text}}`;
  };
}

/**
 * A draft whose fields serialize as themselves (a finite time, object data, string ids). Any other draft is
 * serialized whole. The text holds the observation's own fields: a key a draft carries beyond them (none is
 * made with one) is not part of an observation and is not stored.
 */
function hasUsualShape(draft: ObservationDraft): boolean {
  return (
    draft.specVersion === 1 &&
    typeof draft.threadId === 'string' &&
    typeof draft.turnId === 'string' &&
    typeof draft.type === 'string' &&
    Number.isFinite(draft.time) &&
    typeof draft.data === 'object' &&
    draft.data !== null &&
    (draft.parentId === undefined || typeof draft.parentId === 'string')
  );
}
