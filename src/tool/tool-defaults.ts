/**
 * Every default and bound of the tool pipeline, declared once (DESIGN.md §5, invariant 9). A tool
 * overrides its own fields; a batch overrides the rest through its `ToolBatchContext`.
 */
import type { CapabilityLevel, RateLimitSpec } from '../spec/index.js';

const hour = 60 * 60 * 1000;

export const toolDefaults = {
  /** A tool's timeout when its definition gives none (manifest entries must give one). */
  timeoutMs: 30_000,
  /** Largest timeout a tool may declare: `setTimeout` overflows past 2^31 − 1 ms. */
  maxTimeoutMs: 2 ** 31 - 1,
  /** Attempts after the first for idempotent tools: 3 attempts in all. */
  maxRetries: 2,
  /** Exponential backoff between attempts: 1 s, 2 s, 4 s … at most 30 s, each with equal jitter (half to all of it). */
  retryBaseDelayMs: 1_000,
  retryMaxDelayMs: 30_000,
  capability: 'safe' as CapabilityLevel,
  /** Calls of one batch running at the same time. */
  maxConcurrency: 8,
  /** Characters of one result that enter the model context (head + tail). */
  maxContextChars: 1_500,
  /** Largest argument text accepted from the model; longer text is refused unparsed. */
  maxArgumentChars: 256 * 1024,
  /** Characters of redacted input and output kept in an audit row. */
  auditSummaryChars: 500,
  /** How long an anticipatory simulation is reused for the same redacted call. */
  simulationTtlMs: 5 * 60 * 1000,
  /** How long the pipeline waits for a simulation before going on without it. */
  simulationTimeoutMs: 10_000,
  /** Calls per hour for each level unless the batch says otherwise (seed 003); `safe` is unlimited. */
  levelRateLimits: {
    controlled: { limit: 100, windowMs: hour },
    restricted: { limit: 30, windowMs: hour },
    privileged: { limit: 20, windowMs: hour },
  } as Readonly<Partial<Record<CapabilityLevel, RateLimitSpec>>>,
} as const;
