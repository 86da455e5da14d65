import { messageOfThrown } from '../../errors/index.js';
import type { RateLimitDecision, RateLimitSpec, ToolCallResult } from '../../spec/index.js';
import { createMemoryRateLimiter } from '../create-memory-rate-limiter.js';
import type { ToolBatchContext } from '../tool-batch-context.js';
import type { ToolCallState } from '../tool-call-state.js';
import { toolDefaults } from '../tool-defaults.js';
import type { ToolDefinition } from '../tool-definition.js';
import { errorResult } from '../tool-results.js';
import type { StageAnswer } from '../tool-stage.js';

/** Used when a batch brings no limiter, so that limits hold across the batches of one process. */
const processLimiter = createMemoryRateLimiter();

/**
 * Takes one unit from each limit that applies to the call: the tool's own `rateLimit`, and its
 * level's (`toolDefaults.levelRateLimits`, overridable per batch), each counted per rate-limit scope
 * (the principal by default). A call over a limit gets a `rate_limit` error saying when to try again;
 * a limiter that cannot answer refuses the call (fails closed).
 */
export function limitRate(state: ToolCallState): StageAnswer<ToolCallResult | undefined> {
  const { tool, batch } = state;
  if (!tool) return undefined;
  const scope = batch.rateLimitScope ?? batch.principal ?? '*';
  const levelLimit = levelLimitOf(batch, tool);
  const limits: [string, RateLimitSpec, string][] = [];
  if (tool.rateLimit) limits.push([`tool:${tool.name}:${scope}`, tool.rateLimit, `'${tool.name}'`]);
  if (levelLimit) limits.push([`level:${tool.capability}:${scope}`, levelLimit, `${tool.capability} tools`]);
  return limits.length === 0 ? undefined : consumeLimits(state, limits);
}

async function consumeLimits(
  state: ToolCallState,
  limits: readonly [key: string, limit: RateLimitSpec, what: string][],
): Promise<ToolCallResult | undefined> {
  const { batch } = state;
  const limiter = batch.rateLimiter ?? processLimiter;
  const now = batch.clock.now();
  for (const [key, limit, what] of limits) {
    let decision: RateLimitDecision;
    try {
      decision = await limiter.consume({ key, limit: limit.limit, windowMs: limit.windowMs, now });
    } catch (error) {
      const detail = batch.redact.text(messageOfThrown(error));
      return errorResult(
        state,
        'rate_limit',
        `The rate limiter cannot answer (${detail}), so the call was not run.`,
        false,
      );
    }
    if (!decision.allowed) {
      return errorResult(
        state,
        'rate_limit',
        `Rate limit reached: ${what} may run ${limit.limit} times per ${describeWindow(limit.windowMs)}. ` +
          `Try again in ${describeDuration(decision.retryAfterMs)} or do without this call.`,
      );
    }
  }
  return undefined;
}

function levelLimitOf(batch: ToolBatchContext, tool: ToolDefinition): RateLimitSpec | null | undefined {
  const level = tool.capability;
  return batch.rateLimits && level in batch.rateLimits
    ? batch.rateLimits[level]
    : toolDefaults.levelRateLimits[level];
}

function describeWindow(ms: number): string {
  if (ms === 3_600_000) return 'hour';
  if (ms === 60_000) return 'minute';
  return describeDuration(ms);
}

function describeDuration(ms: number): string {
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return plural(ms / 3_600_000, 'hour');
  if (ms >= 60_000) return plural(Math.ceil(ms / 60_000), 'minute');
  return plural(Math.ceil(ms / 1000), 'second');
}

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}
