/**
 * The one formula for every wait before a retry (docs/decisions/0087-logger-and-jittered-backoff.md):
 * exponential, capped, then "equal jitter" — a random share of up to half the wait is taken off it. Many
 * callers that failed together (a provider's rate limit, a restarted Redis) thus come back spread over
 * the second half of their wait instead of all at once, while each still waits at least half of it and
 * never longer than the cap. The random source is injected as the clock is: a test that gives `() => 0`
 * gets the plain exponential delays.
 */

/** Numbers in [0, 1), as `Math.random` gives; injected so that tests get exact delays. */
export type RandomSource = () => number;

/** `Math.random`: the random source when none is injected. */
export const systemRandom: RandomSource = () => Math.random();

/**
 * `ms` less a random share of up to half of it: a whole number in (ms / 2, ms]. A source that returns
 * something outside [0, 1) is held to it, so a wait never grows past `ms` nor turns negative.
 */
export function jitterDelayMs(ms: number, random: RandomSource = systemRandom): number {
  const drawn = random();
  const share = Number.isFinite(drawn) ? Math.min(1, Math.max(0, drawn)) : 0;
  return Math.max(0, ms - Math.floor((ms / 2) * share));
}

/** The wait before retry number `attempt` (1-based). */
export interface BackoffDelayOptions {
  attempt: number;
  /** The wait before the first retry; doubled for each retry after it. */
  baseMs: number;
  /** The longest wait, before jitter. */
  maxMs: number;
  random?: RandomSource;
}

/** `baseMs` doubled per attempt, capped at `maxMs`, with equal jitter: in (capped / 2, capped]. */
export function backoffDelayMs(options: BackoffDelayOptions): number {
  const { attempt, baseMs, maxMs } = options;
  const capped = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return jitterDelayMs(capped, options.random);
}
