/**
 * The micro-benchmarks' jobs and reports: the per-call cost of flowstack's tool safety pipeline
 * (`executeToolBatch`, issue 3), the prompt tokens that context cleaning saves after a backtrack
 * (`runSkillLoop`, issue 4), and the latency streaming adds to a reply's first token (issue 30). Kept apart from `../jobs.ts` so that the main scenarios can change freely.
 */

/** Which tool runs through the pipeline, and whether a store takes journal and audit rows. */
export type PipelineToolKind =
  /** `capability: 'safe'`, idempotent, no store: no journal, no audit, no rate limit. */
  | 'safe-no-store'
  /** `capability: 'safe'`, idempotent, memory store: journal (read, start, finish); no audit, no rate limit. */
  | 'safe'
  /** `capability: 'controlled'`, not idempotent, memory store: journal, audit row, level rate limit. */
  | 'controlled';

export interface PipelineJob {
  tool: PipelineToolKind;
  /** Calls per batch; more than one share one `parallelGroup`. */
  calls: number;
  warmupBatches: number;
  batches: number;
  /** Time each stage of the pipeline (self time per stage) instead of the plain batch. */
  breakdown: boolean;
}

export interface PipelineReport {
  job: PipelineJob;
  /** Per call: the batch's wall time ÷ calls, one sample per batch, in microseconds. */
  wallMicros: number[];
  /** Per call: the process's CPU time (user + system) during the batch ÷ calls, in microseconds. */
  cpuMicros: number[];
  /** What taking the two clock readings around a batch costs by itself (median, µs). */
  timerMicros: number;
  /** Per stage, in pipeline order: median self time per call (µs), when `breakdown` was set. */
  stages?: { name: string; selfMicros: number; entered: number }[];
  nodeVersion: string;
}

/** The prompt of the model call after the backtrack, with and without context cleaning. */
export interface BacktrackTokensReport {
  /** `estimatePromptTokens` of the prompt the model received after the backtrack. */
  cleanedTokens: number;
  rawTokens: number;
  /** `measurePromptChars` of the same prompts. */
  cleanedChars: number;
  rawChars: number;
  /** The input tokens the scripted model reported for that call (its own four-characters estimate). */
  cleanedReported: number;
  rawReported: number;
  /** Messages in each prompt. */
  cleanedMessages: number;
  rawMessages: number;
  /** Index (0-based) of the model call measured: the first one after the backtrack. */
  callIndex: number;
  /** Both runs ended with the same outcome (`success`), with the same tool calls. */
  outcomes: { cleaned: string; raw: string };
  /** Whether a second run of each gave exactly the same counts. */
  repeatable: boolean;
}

/** The added latency to first token, through the HTTP API's event stream (`measure-first-token.ts`). */
export interface FirstTokenJob {
  warmupTurns: number;
  turns: number;
  /** Pause of the model double between two deltas, in milliseconds. */
  gapMs: number;
}

export interface FirstTokenReport {
  job: FirstTokenJob;
  /** Per measured turn: from the model handing over the reply's first delta to the client reading it (ms). */
  millis: number[];
  nodeVersion: string;
}
