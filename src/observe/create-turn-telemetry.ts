/**
 * What one turn reports while it runs: OpenTelemetry spans (through `@opentelemetry/api` only; no SDK
 * in core) nested turn → flow → plan item → model call / tool call, named and attributed after the
 * GenAI semantic conventions; the GenAI client metrics; the turn's token usage; and live progress
 * observations (id 0) for UIs and spinners. Parents are passed explicitly, never through an ambient
 * context: a model call is the child of the open flow it names (`providerOptions.flowstack.flow`), a tool
 * call of the innermost open flow or plan item. Every string attribute that could carry user data passes
 * the redactor; prompts, answers and tool contents are only recorded when `recordContent` is set.
 * Model calls are reported in `internal/report-model-call.ts`, tool calls in `internal/report-tool-call.ts`.
 */

import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { Attributes, Span, SpanKind, Tracer } from '@opentelemetry/api';
import { describeThrown, readThrownField } from '../errors/index.js';
import type { Observation, ObservationType } from '../spec/index.js';
import { flowstackAttribute as fs, genAi, genAiOperation, genAiProviderName } from './gen-ai-attributes.js';
import type { ContentFilter } from './internal/gen-ai-messages.js';
import { type GenAiMetrics, genAiMetricsOf } from './internal/gen-ai-metrics.js';
import { instrumentModel, type ModelCallRecord } from './internal/instrument-model.js';
import { openTelemetry } from './internal/open-telemetry.js';
import { startModelCall } from './internal/report-model-call.js';
import { reportToolCall } from './internal/report-tool-call.js';
import type { Scope, TurnReporter } from './internal/turn-reporter.js';
import type {
  InstrumentableTool,
  TelemetryScope,
  TurnTelemetry,
  TurnTelemetryEnd,
  TurnTelemetryOptions,
} from './turn-telemetry-types.js';
import { createUsageTally, type TurnUsage, type UsageTally } from './turn-usage.js';

export type {
  InstrumentableTool,
  ObservedToolCall,
  TelemetryScope,
  TurnTelemetry,
  TurnTelemetryEnd,
  TurnTelemetryOptions,
} from './turn-telemetry-types.js';

const contentCap = 4_000;
/** The span of everything below an unsampled turn: it records nothing, so one serves every turn. */
let idleSpan: Span | undefined;

export function createTurnTelemetry(options: TurnTelemetryOptions): TurnTelemetry {
  return new TurnTelemetryRecorder(options);
}

/** One turn's telemetry. `observeTool` is bound once, since callers hand it on detached. */
class TurnTelemetryRecorder implements TurnTelemetry, TurnReporter {
  readonly observeTool: TurnTelemetry['observeTool'];
  readonly options: TurnTelemetryOptions;
  readonly recording: boolean;
  readonly metrics: GenAiMetrics;
  readonly tally: UsageTally;
  readonly openCalls = new Set<ModelCallRecord>();
  readonly filter: ContentFilter;
  private readonly tracer: Tracer;
  private readonly idleSpan: Span;
  private readonly turn: Scope;
  private readonly scopes: Scope[];
  private ended = false;

  constructor(options: TurnTelemetryOptions) {
    const { context, INVALID_SPAN_CONTEXT, SpanKind, trace } = openTelemetry();
    this.options = options;
    this.tracer = options.tracer ?? trace.getTracer('flowstack');
    idleSpan ??= trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
    this.idleSpan = idleSpan;
    this.metrics = genAiMetricsOf(options.meter);
    this.tally = createUsageTally(options.prices);
    this.filter = {
      text: (text) => this.capped(options.redact.text(text)),
      value: (value) => this.cappedValue(value),
    };
    const attributes: Attributes = {
      [genAi.operationName]: genAiOperation.invokeAgent,
      [genAi.agentName]: options.agentName,
      // Required on `invoke_agent`: the provider of the agent's model, as best known.
      [genAi.providerName]: options.model ? genAiProviderName(options.model.provider) : 'flowstack',
      [genAi.conversationId]: options.threadId,
      [genAi.sessionId]: options.threadId,
      [fs.turnId]: options.turnId,
    };
    if (options.model) attributes[genAi.requestModel] = options.model.modelId;
    if (options.principal !== undefined) attributes[fs.principal] = options.principal;
    const parentContext = options.parent ?? context.active();
    const turnSpan = this.tracer.startSpan(
      `${genAiOperation.invokeAgent} ${options.agentName}`,
      { kind: SpanKind.INTERNAL, attributes },
      parentContext,
    );
    this.recording = turnSpan.isRecording();
    this.turn = {
      kind: 'turn',
      id: options.turnId,
      name: options.agentName,
      span: turnSpan,
      context: this.recording ? trace.setSpan(parentContext, turnSpan) : parentContext,
    };
    this.scopes = [this.turn];
    this.observeTool = (call, execute) =>
      // Nothing to record and no one listening: the execution runs as it is.
      !this.recording && !this.wanted() ? settle(execute) : reportToolCall(this, call, execute);
  }

  wrapModel(model: LanguageModelV3): LanguageModelV3 {
    return instrumentModel(model, (call, mode) => startModelCall(this, call, mode, model));
  }

  wrapTool<T extends InstrumentableTool>(tool: T): T {
    const execute = tool.execute.bind(tool);
    const wrapped = (input: unknown, callContext: { callId: string }) =>
      this.observeTool({ tool, input, callId: callContext.callId }, () => execute(input, callContext));
    return { ...tool, execute: wrapped };
  }

  startFlow(flow: { id: string; name: string }): TelemetryScope {
    return this.openScope(
      { kind: 'flow', id: flow.id, name: flow.name },
      `${genAiOperation.invokeWorkflow} ${flow.name}`,
      {
        [genAi.operationName]: genAiOperation.invokeWorkflow,
        [genAi.workflowName]: flow.name,
        [genAi.conversationId]: this.options.threadId,
        [fs.flowName]: flow.name,
        [fs.flowId]: flow.id,
      },
      fs.flowOutcome,
    );
  }

  startPlanItem(item: { id: string; description: string; planId?: string }): TelemetryScope {
    const spanAttributes: Attributes = {
      [fs.planItemId]: item.id,
      [fs.planItemDescription]: this.options.redact.text(item.description),
      [genAi.conversationId]: this.options.threadId,
    };
    if (item.planId !== undefined) spanAttributes[fs.planId] = item.planId;
    return this.openScope(
      { kind: 'plan-item', id: item.id, name: item.description },
      `plan_item ${item.id}`,
      spanAttributes,
      fs.planItemStatus,
    );
  }

  usage(): TurnUsage {
    return this.tally.total();
  }

  end(result: TurnTelemetryEnd): void {
    if (this.ended) return;
    this.ended = true;
    for (const record of [...this.openCalls])
      record.fail(new Error('The turn ended before the model call did.'));
    for (const scope of this.scopes.slice(1).reverse()) scope.handle?.end({ status: 'interrupted' });
    const turnSpan = this.turn.span;
    if (this.recording) turnSpan.setAttributes(this.turnEndAttributes(result));
    if (result.error !== undefined) this.fail(turnSpan, result.error);
    else if (result.status === 'failed')
      turnSpan.setStatus({ code: openTelemetry().SpanStatusCode.ERROR, message: 'The turn failed.' });
    turnSpan.end();
  }

  startChild(name: string, kind: SpanKind, build: () => Attributes, parent: Scope): Span {
    return this.recording
      ? this.tracer.startSpan(name, { kind, attributes: build() }, parent.context)
      : this.idleSpan;
  }

  innermost(flowName?: string): Scope {
    const scopes = this.scopes;
    if (flowName !== undefined) {
      for (let i = scopes.length - 1; i >= 0; i--) {
        const scope = scopes[i] as Scope;
        if (scope.kind === 'flow' && scope.name === flowName) return scope;
      }
    }
    return scopes.at(-1) ?? this.turn;
  }

  wanted(): boolean {
    return this.options.publish !== undefined && this.options.wantsProgress?.() !== false;
  }

  progress(type: ObservationType, data: Record<string, unknown>, parent: Scope): void {
    const { publish, wantsProgress, threadId, turnId, clock } = this.options;
    if (!publish || wantsProgress?.() === false) return;
    const observation: Observation = {
      specVersion: 1,
      id: 0,
      threadId,
      turnId,
      type,
      time: clock.now(),
      data,
    };
    if (parent.kind !== 'turn') observation.parentId = parent.id;
    publish([observation]);
  }

  content(value: unknown): string {
    const { redact } = this.options;
    const text = typeof value === 'string' ? value : (JSON.stringify(redact.value(value)) ?? 'null');
    return this.capped(redact.text(text));
  }

  fail(span: Span, error: unknown): void {
    // A tool may throw anything, even a value that throws when read; the span must still end.
    const message = this.options.redact.text(describeThrown(error));
    const name = readThrownField(error, 'name');
    span.setAttribute(genAi.errorType, typeof name === 'string' && name !== '' ? name : '_OTHER');
    span.addEvent('exception', { 'exception.message': message });
    span.setStatus({ code: openTelemetry().SpanStatusCode.ERROR, message });
  }

  /** Ends an open flow or plan item (its handle's `end`, once). */
  closeScope(scope: Scope, statusAttribute: string, result: { status?: string; error?: unknown }): void {
    const index = this.scopes.indexOf(scope);
    if (index > 0) this.scopes.splice(index, 1);
    if (result.status !== undefined) scope.span.setAttribute(statusAttribute, result.status);
    if (result.error !== undefined) this.fail(scope.span, result.error);
    scope.span.end();
  }

  private turnEndAttributes(result: TurnTelemetryEnd): Attributes {
    const usage = this.tally.total();
    const attributes: Attributes = {
      [fs.turnStatus]: result.status,
      [genAi.usageInputTokens]: usage.inputTokens,
      [genAi.usageOutputTokens]: usage.outputTokens,
    };
    if (usage.cacheReadTokens > 0) attributes[genAi.usageCacheReadInputTokens] = usage.cacheReadTokens;
    if (usage.cacheWriteTokens > 0) attributes[genAi.usageCacheCreationInputTokens] = usage.cacheWriteTokens;
    if (this.options.recordContent) {
      if (result.input !== undefined)
        attributes[genAi.inputMessages] = JSON.stringify([
          { role: 'user', parts: [{ type: 'text', content: this.filter.text(result.input) }] },
        ]);
      if (result.reply !== undefined)
        attributes[genAi.outputMessages] = JSON.stringify([
          {
            role: 'assistant',
            parts: [{ type: 'text', content: this.filter.text(result.reply) }],
            finish_reason: result.status === 'failed' ? 'error' : 'stop',
          },
        ]);
    }
    return attributes;
  }

  private openScope(
    named: Pick<Scope, 'kind' | 'id' | 'name'>,
    spanName: string,
    spanAttributes: Attributes,
    statusAttribute: string,
  ): TelemetryScope {
    const parent = this.scopes.at(-1) ?? this.turn;
    const span = this.startChild(spanName, openTelemetry().SpanKind.INTERNAL, () => spanAttributes, parent);
    const scope: Scope = {
      kind: named.kind,
      id: named.id,
      name: named.name,
      span,
      context: this.recording ? openTelemetry().trace.setSpan(parent.context, span) : parent.context,
      handle: undefined,
    };
    this.scopes.push(scope);
    scope.handle = createScopeHandle(scope, (result) => this.closeScope(scope, statusAttribute, result));
    return scope.handle;
  }

  private capped(text: string): string {
    return text.length > contentCap ? `${text.slice(0, contentCap)}…` : text;
  }

  /** A value redacted, kept whole while small, else as its capped JSON text. */
  private cappedValue(value: unknown): unknown {
    const redacted = this.options.redact.value(value);
    const text = typeof redacted === 'string' ? redacted : JSON.stringify(redacted);
    if (text === undefined || text.length <= contentCap) return redacted;
    return this.capped(this.options.redact.text(text));
  }
}

/** The handle of an open flow or plan item: `end` closes it once. */
function createScopeHandle(
  scope: Scope,
  close: (result: { status?: string; error?: unknown }) => void,
): TelemetryScope {
  let done = false;
  return {
    id: scope.id,
    end(result = {}) {
      if (done) return;
      done = true;
      close(result);
    },
  };
}

/** `run()` as a promise, whether it returns a value or a promise, rejects or throws. */
function settle<T>(run: () => Promise<T> | T): Promise<T> {
  try {
    return Promise.resolve(run());
  } catch (error) {
    return Promise.reject(error);
  }
}
