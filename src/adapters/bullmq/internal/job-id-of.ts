import { createHash } from 'node:crypto';

/**
 * The BullMQ job id of a request id. BullMQ refuses ids that are integers or contain `:`; such request
 * ids are hashed, every other one is used as it is, so a job is easy to find from its request.
 */
export function jobIdOf(requestId: string): string {
  if (/^[A-Za-z0-9_.-]{1,200}$/.test(requestId) && !/^\d+$/.test(requestId)) return requestId;
  return `r-${createHash('sha256').update(requestId).digest('base64url').slice(0, 32)}`;
}
