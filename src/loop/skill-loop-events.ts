/**
 * What happened in a skill run, for history and observations. The caller records them after saving
 * (DESIGN.md invariant 4); `parentId` links each one to the flow or plan item the caller named.
 * Streamed deltas are live-only: they go to `onEvent` as they arrive and are not kept in `events`.
 */
import type { ToolCallResult } from '../spec/index.js';
import type { ReflectDecision } from './classify-tool-error.js';
import type { TerminationReason } from './should-terminate.js';

interface Linked {
  parentId?: string;
}

export type SkillLoopEvent = Linked &
  (
    | { type: 'thoughts'; text: string }
    | { type: 'text'; text: string }
    | { type: 'tool-call'; callId: string; toolName: string; input: string }
    | { type: 'tool-result'; result: ToolCallResult }
    | {
        type: 'react-retry';
        cause: 'transient' | 'truncated' | 'unparseable';
        attempt: number;
        message: string;
        /** Backoff before the retry, on the injected clock. */
        delayMs: number;
        /** Streamed output of the abandoned attempt that a live consumer should discard. */
        discardPartial: boolean;
      }
    | { type: 'reflect'; decision: ReflectDecision; errors: number }
    | { type: 'backtrack'; backtracks: number; summary: string; charsBefore: number; charsAfter: number }
    | { type: 'breaker'; level: 1 | 2; reason: string }
    | { type: 'tool-withdrawn'; toolName: string; failures: number }
    | { type: 'repeated-call'; callId: string; toolName: string; count: number }
    | { type: 'enforcement'; missing: string[]; retry: number; passed: boolean }
    | {
        type: 'transcript-repaired';
        /** Orphaned calls answered with the result their journal row holds. */
        recorded: string[];
        /** Orphaned calls answered with an error saying they were interrupted. */
        interrupted: string[];
        /** Results dropped because no call made them. */
        dropped: string[];
      }
    | { type: 'reflection-pass'; verdict: 'pass' | 'revise' | 'skipped'; issues: string[] }
    | { type: 'terminated'; reason: TerminationReason }
  );

/**
 * A streamed piece of the model's thinking or answer, delivered live only. `message`: the piece is of
 * `finish_skill`'s `message` argument (the reply) rather than of the model's text, so a reader starts a
 * new answer with it.
 */
export type SkillLoopDelta = Linked & {
  type: 'thoughts-delta' | 'text-delta';
  delta: string;
  message?: true;
};

export type SkillLoopLiveEvent = SkillLoopEvent | SkillLoopDelta;
