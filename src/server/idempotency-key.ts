/**
 * The `Idempotency-Key` request header of the routes that start a turn
 * (draft-ietf-httpapi-idempotency-key-header). The key becomes the turn's request id (`agent.send`'s
 * `requestId`), so a retry after a lost answer or a crash is answered once (DESIGN.md invariant 5): a
 * request that finished answers its result again, one whose process died is replayed, and nothing it
 * completed runs twice. The request id is derived from the principal, the thread and the key, so one
 * client's keys never meet another's, and a turn queue's job ids stay unique across threads.
 */
import { createHash } from 'node:crypto';
import { problem, problemResponse } from './problem-details.js';

export const idempotencyKeyHeader = 'Idempotency-Key';

/** Keys a client may send: 1–255 visible ASCII characters (a UUID fits). */
const keyPattern = /^[\x21-\x7e]{1,255}$/;

/** The key of the request, none when the header is absent, or the 400 of a malformed one. */
export function readIdempotencyKey(
  header: string | undefined,
): { ok: true; key?: string } | { ok: false; response: Response } {
  if (header === undefined) return { ok: true };
  // A structured-field string ("…") as the draft writes it, or the bare key most clients send.
  const key = /^"(.*)"$/.exec(header.trim())?.[1] ?? header.trim();
  if (keyPattern.test(key)) return { ok: true, key };
  return {
    ok: false,
    response: problemResponse(
      problem(400, 'invalid_idempotency_key', 'An Idempotency-Key has 1–255 visible ASCII characters.'),
    ),
  };
}

/** The request id of a key: the same for a retry by the same principal on the same thread, and only then. */
export function requestIdOfKey(options: { principal: string; threadId: string; key: string }): string {
  return `http-${digest([options.principal, options.threadId, options.key])}`;
}

/**
 * The id of the thread a `POST /v1/threads` with this key starts: a retry lands on the same thread, so
 * it replays the first attempt instead of starting a second thread with the same message.
 */
export function threadIdOfKey(options: { principal: string; key: string }): string {
  return `thread-${digest(['new-thread', options.principal, options.key])}`;
}

function digest(parts: string[]): string {
  // Each part's length first, so that no two lists of parts run together into the same text.
  const text = parts.map((part) => `${part.length}:${part}`).join('');
  return createHash('sha256').update(text).digest('base64url').slice(0, 32);
}
