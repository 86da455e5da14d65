/**
 * What every call of one batch shares: the tools offered, where journal and audit rows go, and the
 * services of the safety stages (rate limiter, simulator, approval lookup). Only the first block is
 * required; every service left out is either off (simulation, approvals) or has an in-process default
 * (the rate limiter), and every bound left out comes from `toolDefaults`.
 */

import type { FileSnapshotService } from '../consistency/index.js';
import type { SecretSealer } from '../redact/index.js';
import type {
  ApprovalLookup,
  CapabilityLevel,
  Logger,
  RateLimiter,
  RateLimitSpec,
  SimulationCache,
  StateStore,
  TaintOrigin,
  ToolCallResult,
  ToolSpec,
} from '../spec/index.js';
import type { Clock, RandomSource } from '../util/index.js';
import type { ToolSet } from './tool-definition.js';

/** Removes secrets from text and from values (DESIGN.md invariant 8). */
export interface Redactor {
  text(text: string): string;
  value(value: unknown): unknown;
}

/**
 * Whether content from a tool that `receivesUntrustedInput` is in the model context of this skill run.
 * One object per turn in an agent (per run elsewhere), shared by its batches: the pipeline sets it after a
 * batch whose results carry such content, the agent seeds it with what the thread's context still holds
 * from earlier turns, and while it is set every `communicatesExternally` call needs approval.
 */
export interface TaintState {
  tainted: boolean;
  /** The tools whose results tainted the context, in order. */
  sources: string[];
  /**
   * The calls that brought the content, in order, with how it reaches the run when it is not its own
   * (kept by `createTaintState` and the pipeline; a state made by hand may leave it out).
   */
  origins?: TaintSource[];
}

/** One origin of a run's taint (see `TaintState.origins`). */
export interface TaintSource extends TaintOrigin {
  /** How content from an earlier turn reaches this run, e.g. "the conversation history"; absent: this turn. */
  via?: string;
}

/** Creates the taint state of a new skill run (pass `tainted: true` when the context starts untrusted). */
export function createTaintState(initial?: Partial<TaintState>): TaintState {
  const origins = [...(initial?.origins ?? [])];
  const sources = [...(initial?.sources ?? [])];
  for (const origin of origins) if (!sources.includes(origin.tool)) sources.push(origin.tool);
  return { tainted: (initial?.tainted ?? false) || origins.length > 0, sources, origins };
}

/** Notes that the result of `origin`'s call brought untrusted content into the context. */
export function addTaintSource(taint: TaintState, origin: TaintSource): void {
  taint.tainted = true;
  if (!taint.sources.includes(origin.tool)) taint.sources.push(origin.tool);
  taint.origins ??= [];
  const known = taint.origins.find((o) => o.callId === origin.callId && o.turnId === origin.turnId);
  if (!known) taint.origins.push(origin);
  // Content an earlier turn brought in that is now in this run's own transcript (a resumed run) is this
  // run's: what the run writes carries it on.
  else if (origin.via === undefined) delete known.via;
}

/**
 * The taint state of a transcript: tainted when it holds a result of a tool that receives untrusted
 * input. A run resumed from its checkpoint starts from this, so a suspension does not wash the taint out.
 */
export function taintFromTranscript(
  messages: readonly { role: string; content: unknown }[],
  tools: ToolSet,
  turnId = '',
): TaintState {
  const taint = createTaintState();
  for (const message of messages) {
    if (message.role !== 'tool' || !Array.isArray(message.content)) continue;
    for (const part of message.content as { type?: unknown; toolName?: unknown; toolCallId?: unknown }[]) {
      const tool = typeof part.toolName === 'string' ? tools.get(part.toolName) : undefined;
      if (part.type !== 'tool-result' || !tool?.receivesUntrustedInput) continue;
      const callId = typeof part.toolCallId === 'string' ? part.toolCallId : '';
      addTaintSource(taint, { tool: tool.name, callId, turnId });
    }
  }
  return taint;
}

/** See `ToolBatchContext.observeExecution`. */
export type ExecutionObserver = (
  call: { tool: ToolSpec; input: unknown; callId: string },
  execute: () => Promise<unknown>,
) => Promise<unknown>;

/** What a simulator is asked: the tool and the call's arguments, already redacted. */
export interface SimulationRequest {
  tool: ToolSpec;
  redactedInput: unknown;
  signal: AbortSignal;
}

/** Predicts a call's outcome and risks in a few sentences (seed 003 anticipatory simulation). */
export type Simulator = (request: SimulationRequest) => Promise<string | undefined>;

/** Which capability levels a batch may use and which need a human's yes. */
export interface CapabilityPolicy {
  /** Calls to tools above this level are refused (`auth_error`). Default: every level is allowed. */
  maxLevel?: CapabilityLevel;
  /** Calls at this level or above need approval. Default: none by level alone. */
  approvalFrom?: CapabilityLevel;
}

export interface ToolBatchContext {
  tools: ToolSet;
  threadId: string;
  /** The turn the calls belong to; part of every idempotency key. */
  turnId: string;
  clock: Clock;
  /** Journal and audit go here when given. */
  store?: StateStore;
  principal?: string;
  /** Cancels every call of the batch. */
  signal?: AbortSignal;
  /** Characters of one result that enter the model context (head + tail). */
  maxContextChars: number;
  /** Redacts secrets before anything is stored or shown to the model (DESIGN.md invariant 8). */
  redact: Redactor;
  /**
   * Seals the arguments of a call held for later (an approval, an unknown outcome, a rollback question)
   * in the suspended run's checkpoint, so the store never holds them raw (docs/decisions/0078). Without
   * it, such arguments are kept as the model wrote them.
   */
  sealer?: SecretSealer;

  /** Answers whether a call that needs approval has one; without it such a call always suspends. */
  approvals?: ApprovalLookup;
  /** The run's (in an agent: the turn's) taint state; without it taint is tracked for this batch only. */
  taint?: TaintState;
  capabilities?: CapabilityPolicy;
  /** Defaults to one in-memory limiter shared by the process. */
  rateLimiter?: RateLimiter;
  /** Per-level limits replacing `toolDefaults.levelRateLimits`; `null` lifts a level's limit. */
  rateLimits?: Partial<Record<CapabilityLevel, RateLimitSpec | null>>;
  /** Whose calls are counted together: defaults to the principal, else one global count. */
  rateLimitScope?: string;
  /** Keeps results of idempotent tools that declare `cacheTtlMs`; nothing is cached without it. */
  resultCache?: SimulationCache;
  /** Runs anticipatory simulations of `restricted` and `privileged` calls; off when absent. */
  simulate?: Simulator;
  simulationTimeoutMs?: number;
  maxConcurrency?: number;
  /**
   * Runs around every execution of a tool (not around answers from the journal, the cache or a person):
   * the agent's turn telemetry reports each one as a span and as progress through it. It must call
   * `execute` once and return (or throw) what it returns.
   */
  observeExecution?: ExecutionObserver;
  /**
   * What the caller hands the tools of its own run, read by a tool with `runScopeOf(context)`: flowstack's
   * component tools find their flow run's workspace here, so they are defined once, not per run.
   */
  runScope?: object;
  retry?: { baseDelayMs?: number; maxDelayMs?: number };
  /** Draws the jitter of retry waits (`Math.random` when left out); injected as the clock is. */
  random?: RandomSource;
  /**
   * Where the pipeline's warnings go (a tool that timed out) and its retries as `info`; records carry
   * the thread, turn, tool and call. Nothing is logged without it. The agent gives its own, redacted.
   */
  logger?: Logger;
  /**
   * What people already answered in this run (DESIGN.md invariant 6): a blocking tool called again gets
   * the answer it got, an approved or refused call repeated with the same arguments gets its settled
   * result — neither runs nor asks again.
   */
  answered?: AnsweredCalls;
  /**
   * Set by a caller whose turn began in this process under a new id, so that nothing can be journaled
   * under it but what this process journals (see {@link FreshJournal}). Calls of that turn whose keys
   * are not in it skip the journal read before they run.
   */
  freshJournal?: FreshJournal | undefined;
  /**
   * Where the files of tools that declare `touches` are snapshotted before their calls run (seed 004).
   * Without it such a call is refused rather than run unprotected.
   */
  files?: FileSnapshotService;
}

/**
 * The keys journaled so far under a turn that began in this process with a new id. A call of that turn
 * (`ToolBatchContext.turnId` equal to `turnId`; a resumed run's batch carries its own run's turn id) whose
 * key is not here has no journal row to replay, so the pipeline does not read one: a store read less per
 * call. Starting the call still goes through `journalStart`, which returns any row that is there after
 * all (a process that took the thread over), and that row is honoured as if it had been read.
 */
export interface FreshJournal {
  turnId: string;
  keys: Set<string>;
}

/** The journal for a turn that begins now under `turnId`. */
export function createFreshJournal(turnId: string): FreshJournal {
  return { turnId, keys: new Set() };
}

/** The answers of a resumed run, looked up by the pipeline (see `ToolBatchContext.answered`). */
export interface AnsweredCalls {
  forTool(toolName: string): ToolCallResult | undefined;
  forCall(toolName: string, argsHash: string): ToolCallResult | undefined;
}
