/**
 * The data-only contract of a tool, version 1. Tool definitions in code (`defineTool`) and manifest
 * files both produce this shape; the safety pipeline reads nothing else.
 */
import type { FileTouchSpec } from './file-snapshot-spec.js';
import type { BlockingToolSpec, FeedbackSchema } from './hitl-spec.js';
import type { JsonSchema } from './json-schema.js';

/** How much harm a tool can do; decides audit, simulation and default rate limits (DESIGN.md §4–§5). */
export type CapabilityLevel = 'safe' | 'controlled' | 'restricted' | 'privileged';

export const capabilityLevels: readonly CapabilityLevel[] = [
  'safe',
  'controlled',
  'restricted',
  'privileged',
];

/** The six error categories a tool result can carry (DESIGN.md §4). */
export type ToolErrorCategory =
  | 'validation_error'
  | 'auth_error'
  | 'not_found'
  | 'rate_limit'
  | 'timeout'
  | 'server_error';

export interface RateLimitSpec {
  /** Calls allowed per window. */
  limit: number;
  /** Window length in milliseconds (default one hour). */
  windowMs: number;
}

export interface ToolSpecV1 {
  readonly specVersion: 1;
  id: string;
  name: string;
  description: string;
  /**
   * What a person reads for the tool when a call waits for their yes: a short action such as "Book a
   * flight". Without it, the first sentence of `description` (docs/decisions/0088).
   */
  title?: string;
  /**
   * `true` when `description` and the titles in `inputSchema` come from a source the agent does not trust
   * (an MCP server without `trust: 'trusted'`): an approval prompt then names the tool and its arguments as
   * they are, so those words never stand in for what a person approves (docs/decisions/0088).
   */
  untrustedDescription?: boolean;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  /** Safe to run twice with the same arguments; only idempotent tools are retried or re-run on resume. */
  idempotent: boolean;
  timeoutMs: number;
  capability: CapabilityLevel;
  accessesPrivateData: boolean;
  receivesUntrustedInput: boolean;
  communicatesExternally: boolean;
  requiresApproval: boolean;
  /** Attempts after the first, idempotent tools only. */
  maxRetries: number;
  rateLimit?: RateLimitSpec;
  cacheTtlMs?: number;
  /**
   * Whether calls may run beside the other calls the model issued in the same step; only `false` stops
   * it (the call runs alone, after the calls before it and before the calls after it). Independent of
   * `idempotent`. Calls sharing an explicit `parallelGroup` run concurrently whatever this says.
   */
  parallel?: boolean;
  /**
   * A blocking tool (seed 002 HITL): every call waits for a person, and the person's answer, checked
   * against `feedback`, is the call's result. The tool's `execute` is never run.
   */
  blocking?: BlockingToolSpec;
  /**
   * The arguments that name the files a call changes (seed 004 state consistency): before the call
   * runs, those files are snapshotted; if it fails, a person may roll them back.
   */
  touches?: FileTouchSpec;
}

export type ToolSpec = ToolSpecV1;

/** One call the model asked for. `input` is the raw argument text as the model produced it. */
export interface ToolCallRequest {
  callId: string;
  toolName: string;
  input: string;
  /** Calls sharing a group may run concurrently. */
  parallelGroup?: string;
}

export interface ToolError {
  category: ToolErrorCategory;
  message: string;
  retryable: boolean;
  /** How many times the tool ran before giving up, when it ran more than once. */
  attempts?: number;
  /** A person refused the call (an approval said no): final, never escalated to a person again. */
  refusedBy?: 'person';
  /**
   * A person's no to the call's approval (not a call they left out after an interruption), with the reason
   * they gave (redacted), if any: a run that ends on it is answered as their decision (docs/decisions/0088).
   */
  refusal?: { reason?: string };
}

/**
 * Why a call waits for a human. `approval`: the safety pipeline needs a yes before the call runs;
 * `feedback`: the tool asks the user, whose answer is its result; `outcome_unknown`: the call started
 * before an interruption and left no result, and its tool cannot tell what happened; `rollback`: the call
 * failed after changing files it declared, and a person chooses to roll back, keep or continue.
 */
export type ToolSuspensionKind = 'approval' | 'feedback' | 'outcome_unknown' | 'rollback' | (string & {});

/** The settled result of one call, always returned (never thrown) by the pipeline. */
export type ToolCallResult =
  | {
      status: 'success';
      callId: string;
      toolName: string;
      /** Redacted output as stored in full. */
      output: unknown;
      /** Redacted, size-capped text that enters the model context. */
      contextText: string;
      /**
       * Set when `contextText` was cut: the reference under which the full redacted result is stored
       * (the call's idempotency key; read it back with `readToolResult`).
       */
      outputRef?: string;
      /** The anticipatory simulation of a `restricted` or `privileged` call (advisory, redacted). */
      simulation?: string;
    }
  | {
      status: 'error';
      callId: string;
      toolName: string;
      error: ToolError;
      contextText: string;
      outputRef?: string;
      simulation?: string;
    }
  | {
      status: 'suspended';
      callId: string;
      toolName: string;
      kind: ToolSuspensionKind;
      /** Why the call waits for a human, e.g. which trifecta rule asked for approval. */
      reason: string;
      /** The approval binds to these exact arguments (`stableHash` of the parsed input). */
      argsHash: string;
      /** The call's idempotency key; an approval is looked up under it. */
      idempotencyKey: string;
      contextText: string;
      /** The answer the call takes (`feedback`); approvals and unknown outcomes have their own. */
      feedback?: FeedbackSchema;
      /** `rollback`: the snapshot of the files the failed call changed. */
      fileSnapshotId?: string;
      /** `rollback`: the error the call failed with (its result once the person decided). */
      failure?: ToolError;
    };
