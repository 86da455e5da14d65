/**
 * Turns a suspended skill run into the questions people answer (seed 002 HITL V2): every call of the
 * step that waits — several approvals from one parallel batch, a blocking tool, an unknown outcome —
 * gets its own suspension with a runtime-made id, and the run's checkpoint is kept with them, so the run
 * goes on from exactly there once all are answered, after any number of restarts.
 */
import type { LanguageModelV3Message } from '@ai-sdk/provider';
import type { SkillLoopEvent, SkillLoopState } from '../../loop/index.js';
import type { SecretSealer } from '../../redact/index.js';
import type {
  JsonValue,
  SkillOutcome,
  SuspendedRun,
  SuspensionRecord,
  ToolCallResult,
} from '../../spec/index.js';
import type { ToolSet } from '../../tool/index.js';
import type { IdGenerator } from '../../util/index.js';
import { continueFeedback, createSuspension, type DescribedTool, escalationFeedback } from '../index.js';
import { sealedInputKey } from './internal/open-held-arguments.js';

export interface SuspendRunOptions {
  flowId: string;
  runTurnId: string;
  outcome: Extract<SkillOutcome, { outcome: 'suspended' }>;
  events: readonly SkillLoopEvent[];
  checkpoint?: { messages: readonly LanguageModelV3Message[]; state: SkillLoopState };
  ids: IdGenerator;
  now: number;
  redact: { value(value: unknown): unknown };
  /** How long an approval can be given. */
  approvalTtlMs?: number;
  /** Answers given earlier in the run, carried forward. */
  answered?: SuspendedRun['answered'];
  /** The tools the run could call: an approval shows a call's arguments in its tool's schema order. */
  tools?: ToolSet;
  /**
   * Seals the held calls' arguments that hold a secret (docs/decisions/0078); without it they are kept
   * as the model wrote them.
   */
  sealer?: SecretSealer;
}

export function suspendRun(options: SuspendRunOptions): SuspendedRun {
  const { outcome, flowId } = options;
  const messages = [...(options.checkpoint?.messages ?? [])];
  const suspensions: SuspensionRecord[] = [];
  if (outcome.kind === 'tool') {
    const waiting = new Set(lastStepCallIds(messages));
    const held = options.events.flatMap((e) =>
      e.type === 'tool-result' && e.result.status === 'suspended' && waiting.has(e.result.callId)
        ? [e.result]
        : [],
    ) as Extract<ToolCallResult, { status: 'suspended' }>[];
    for (const result of dedupe(held)) {
      const input = argumentsOf(messages, result.callId);
      suspensions.push(
        createSuspension(result, {
          id: options.ids('susp'),
          flowId,
          now: options.now,
          ...(options.approvalTtlMs !== undefined ? { ttlMs: options.approvalTtlMs } : {}),
          ...(input !== undefined ? { input: options.redact.value(input) } : {}),
          ...withTool(options.tools?.get(result.toolName)),
        }),
      );
    }
  }
  if (suspensions.length === 0) {
    const call = outcome.kind === 'tool' || outcome.kind === 'escalate' ? outcome : undefined;
    suspensions.push({
      specVersion: 1,
      id: options.ids('susp'),
      kind: outcome.kind === 'escalate' || outcome.kind === 'tool' ? 'escalation' : 'continue',
      status: 'open',
      flowId,
      ...(call ? { callId: call.callId, toolName: call.toolName } : {}),
      prompt: call ? `The call to ${call.toolName} needs you: ${outcome.reason}` : outcome.reason,
      feedback:
        outcome.kind === 'escalate' || outcome.kind === 'tool' ? escalationFeedback : continueFeedback,
      createdAt: options.now,
    });
  }
  const runsLater = new Set(
    suspensions.flatMap((s) => (s.callId !== undefined && callRunsLater.has(s.kind) ? [s.callId] : [])),
  );
  const saved = redactArgumentsExcept(messages, runsLater, options);
  return {
    specVersion: 1,
    flowId,
    runTurnId: options.runTurnId,
    skill: outcome.kind,
    reason: outcome.reason,
    messages: saved as unknown as JsonValue[],
    state: (options.checkpoint?.state ?? null) as unknown as JsonValue,
    suspensions,
    ...(options.answered && options.answered.length > 0 ? { answered: options.answered } : {}),
  };
}

/**
 * The questions whose call may still run with the arguments the model wrote: an approval, an outcome a
 * person settles (a re-run), a rollback question. Their arguments must come back exactly as written, so
 * where they hold a secret the checkpoint keeps them sealed beside their redacted form (see
 * `sealHeldInput`); the arguments of every other call there — calls that already ran, a blocking tool's
 * call, which never runs — are saved redacted (DESIGN.md invariant 8), like the history rows of the same
 * calls.
 */
const callRunsLater = new Set(['approval', 'outcome_unknown', 'rollback']);

function redactArgumentsExcept(
  messages: readonly LanguageModelV3Message[],
  held: ReadonlySet<string>,
  options: Pick<SuspendRunOptions, 'redact' | 'sealer'>,
): LanguageModelV3Message[] {
  const { redact, sealer } = options;
  return messages.map((message) => {
    if (message.role !== 'assistant') return message;
    if (!message.content.some((p) => p.type === 'tool-call' && (!held.has(p.toolCallId) || sealer)))
      return message;
    const content = message.content.map((part) => {
      if (part.type !== 'tool-call') return part;
      if (!held.has(part.toolCallId)) return { ...part, input: redactInput(part.input, redact) };
      return sealer ? sealHeldInput(part, redact, sealer) : part;
    });
    return { ...message, content };
  });
}

/**
 * A held call whose arguments hold a secret keeps them redacted in `input` — what the transcript shows —
 * and sealed in its flowstack provider options, which `openHeldArguments` turns back into the arguments
 * as written when the run goes on. Arguments without a secret are kept as they are.
 */
function sealHeldInput(
  part: Extract<LanguageModelV3Message, { role: 'assistant' }>['content'][number] & { type: 'tool-call' },
  redact: { value(value: unknown): unknown },
  sealer: SecretSealer,
) {
  const redacted = redactInput(part.input, redact);
  if (JSON.stringify(redacted) === JSON.stringify(part.input)) return part;
  return {
    ...part,
    input: redacted,
    providerOptions: {
      ...part.providerOptions,
      flowstack: {
        ...part.providerOptions?.flowstack,
        [sealedInputKey]: sealer.seal(JSON.stringify(part.input)),
      },
    },
  };
}

/** Argument text is redacted as the data it encodes, so that a whole value under a secret-named key goes. */
function redactInput(input: unknown, redact: { value(value: unknown): unknown }): unknown {
  if (typeof input !== 'string') return redact.value(input);
  try {
    return JSON.stringify(redact.value(JSON.parse(input)));
  } catch {
    return redact.value(input);
  }
}

/** The reply of a waiting run: each open question, one numbered line each when there are several. */
export function describeWaiting(run: SuspendedRun): string {
  const open = run.suspensions.filter((s) => s.status === 'open');
  if (open.length === 1) return `Waiting for you: ${open[0]?.prompt}`;
  // Numbered, so a chat answer can say which one it answers ("yes to 2").
  return [`Waiting for you (${open.length} questions):`, ...open.map((s, i) => `${i + 1}. ${s.prompt}`)].join(
    '\n',
  );
}

/** The tool a held call is for, when the run knows it: its prompt is in the tool's words. */
function withTool(tool: DescribedTool | undefined): { tool?: DescribedTool } {
  return tool ? { tool } : {};
}

/** What the API shows of a question (no checkpoint, nothing internal). */
export function describeSuspension(record: SuspensionRecord) {
  const { specVersion: _v, answer: _a, ...shown } = record;
  return shown;
}

/** The call ids answered by the checkpoint's last tool message: the step that suspended. */
function lastStepCallIds(messages: readonly LanguageModelV3Message[]): string[] {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as LanguageModelV3Message;
    if (message.role === 'tool')
      return message.content.flatMap((p) => (p.type === 'tool-result' ? [p.toolCallId] : []));
  }
  return [];
}

function dedupe<T extends { callId: string }>(results: readonly T[]): T[] {
  const seen = new Set<string>();
  return results.filter((r) => {
    if (seen.has(r.callId)) return false;
    seen.add(r.callId);
    return true;
  });
}

function argumentsOf(messages: readonly LanguageModelV3Message[], callId: string): unknown {
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const part of message.content)
      if (part.type === 'tool-call' && part.toolCallId === callId) return part.input;
  }
  return undefined;
}
