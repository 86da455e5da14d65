/**
 * When a failed model call is worth calling again, and how long to wait first. Rate limits, timeouts
 * and server errors are transient; a bad request or a refused key is not. The AI SDK's
 * `APICallError.isRetryable` decides where the provider raised one; a `Retry-After` header is
 * honoured up to the backoff cap.
 */
import { APICallError } from '@ai-sdk/provider';
import { backoffDelayMs, type RandomSource } from '../util/index.js';
import type { SkillLoopLimits } from './skill-loop-limits.js';

const transientStatuses = new Set([408, 409, 425, 429]);

/** A rate limit, timeout, conflict or server error: worth calling again after a wait. */
export function isRetryableModelError(error: unknown): boolean {
  if (APICallError.isInstance(error)) return error.isRetryable;
  if (typeof error !== 'object' || error === null) return false;
  const record = error as Record<string, unknown>;
  if (record.name === 'TimeoutError') return true;
  const status = record.statusCode ?? record.status;
  if (typeof status === 'number') return transientStatuses.has(status) || status >= 500;
  const nested = record.error as Record<string, unknown> | undefined;
  return [record.type, nested?.type, record.code].some(
    (type) => typeof type === 'string' && /overloaded|rate_limit|server_error|timeout/i.test(type),
  );
}

/**
 * The wait before retry number `attempt` (1-based): `backoffMs` doubled per attempt, capped at
 * `maxBackoffMs`, with equal jitter (`backoffDelayMs`: between half of it and all of it), or the
 * provider's `Retry-After` when it asks for longer (still capped).
 */
export function modelRetryDelayMs(options: {
  attempt: number;
  error: unknown;
  limits: Pick<SkillLoopLimits, 'backoffMs' | 'maxBackoffMs'>;
  /** Draws the jitter; `Math.random` when left out. */
  random?: RandomSource | undefined;
}): number {
  const { attempt, limits } = options;
  const jittered = backoffDelayMs({
    attempt,
    baseMs: limits.backoffMs,
    maxMs: limits.maxBackoffMs,
    ...(options.random ? { random: options.random } : {}),
  });
  const asked = retryAfterMs(options.error);
  return asked === undefined ? jittered : Math.min(limits.maxBackoffMs, Math.max(jittered, asked));
}

function retryAfterMs(error: unknown): number | undefined {
  if (!APICallError.isInstance(error)) return undefined;
  const headers = error.responseHeaders ?? {};
  const ms = headers['retry-after-ms'];
  if (ms !== undefined && Number.isFinite(Number(ms))) return Number(ms);
  const seconds = headers['retry-after'];
  if (seconds !== undefined && Number.isFinite(Number(seconds))) return Number(seconds) * 1000;
  return undefined;
}
