/**
 * What one turn reports while it runs: OpenTelemetry spans (through `@opentelemetry/api` only; no SDK
 * in core) nested turn → flow → plan item → model call / tool call, named and attributed after the
 * GenAI semantic conventions; and live progress observations (id 0) for UIs and spinners. Parents are
 * passed explicitly, never through an ambient context: a model call is the child of the open flow it
 * names (`providerOptions.flowstack.flow`), a tool call of the innermost open flow or plan item. Every
 * string attribute that could carry user data passes the redactor; prompt and tool contents are only
 * recorded when `recordContent` is set.
 *
 * Longer than 400 lines: the open spans of one turn (turn, flows, plan items, model and tool calls) are
 * one piece of state that every reporting function here reads and changes; split, each file would need it all.
 */

import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider';
import {
  type Attributes,
  type Context,
  context,
  INVALID_SPAN_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { describeThrown, messageOfThrown, readThrownField } from '../errors/index.js';
import type { Observation, ObservationType } from '../spec/index.js';
import type { Clock } from '../util/index.js';
import { flowstackAttribute as fs, genAi, genAiOperation, genAiProviderName } from './gen-ai-attributes.js';
import { instrumentModel, type ModelCallRecord } from './internal/instrument-model.js';

export interface TurnTelemetryOptions {
  /** Defaults to the global tracer named `flowstack` (a no-op until an SDK registers a provider). */
  tracer?: Tracer;
  agentName: string;
  threadId: string;
  turnId: string;
  principal?: string;
  clock: Clock;
  redact: { text(text: string): string; value(value: unknown): unknown };
  /** Receives live progress observations (id 0) as they happen. */
  publish?: (observations: Observation[]) => void;
  /** Whether anyone listens to progress now; none are built while nobody does. */
  wantsProgress?: () => boolean;
  /** Record prompts, tool arguments and results (redacted, capped) as span attributes. Off by default. */
  recordContent?: boolean;
  /** The span the turn nests under; defaults to the active context's span, if any. */
  parent?: Context;
}

/** An open flow or plan item span. `end` is idempotent. */
export interface TelemetryScope {
  readonly id: string;
  end(result?: { status?: string; error?: unknown }): void;
}

/** A tool as telemetry needs it: any object with a name, a description and an `execute`. */
export interface InstrumentableTool {
  name: string;
  description: string;
  idempotent?: boolean;
  capability?: string;
  execute(input: unknown, context: { callId: string }): unknown;
}

/** One tool execution as telemetry sees it: the tool, its validated input and the call's id. */
export interface ObservedToolCall {
  tool: Omit<InstrumentableTool, 'execute'>;
  input: unknown;
  callId: string;
}

export interface TurnTelemetry {
  /** The model, reporting every call as a `chat` span and as progress. */
  wrapModel(model: LanguageModelV3): LanguageModelV3;
  /**
   * Runs one tool execution, reporting it as an `execute_tool` span and as progress. The tool pipeline
   * calls it around `execute` (`ToolBatchContext.observeExecution`), so the agent's tools are not
   * wrapped anew for every turn.
   */
  observeTool<T>(call: ObservedToolCall, execute: () => Promise<T> | T): Promise<T>;
  /** The tool, reporting every execution as an `execute_tool` span and as progress (`observeTool` inside). */
  wrapTool<T extends InstrumentableTool>(tool: T): T;
  startFlow(flow: { id: string; name: string }): TelemetryScope;
  startPlanItem(item: { id: string; description: string; planId?: string }): TelemetryScope;
  /** Ends the turn span and anything left open under it. */
  end(result: { status: string; error?: unknown }): void;
}

interface Scope {
  kind: 'turn' | 'flow' | 'plan-item';
  id: string;
  name: string;
  span: Span;
  /** The span's context; the parent's when nothing is recorded (no child span is ever started then). */
  context: Context;
  /** Set for scopes opened by `startFlow` and `startPlanItem`, which `end` closes if still open. */
  handle?: TelemetryScope;
}

const contentCap = 4_000;
/** The span of everything below an unsampled turn: it records nothing, so one serves every turn. */
const idleSpan = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

export function createTurnTelemetry(options: TurnTelemetryOptions): TurnTelemetry {
  return new TurnTelemetryRecorder(options);
}

/** One turn's telemetry. `observeTool` is bound once, since callers hand it on detached. */
class TurnTelemetryRecorder implements TurnTelemetry {
  readonly observeTool: TurnTelemetry['observeTool'];
  private readonly options: TurnTelemetryOptions;
  private readonly tracer: Tracer;
  private readonly turn: Scope;
  private readonly scopes: Scope[];
  /** An unsampled turn (or no SDK at all) records nothing below it either. */
  private readonly recording: boolean;
  /** Made at the first reported model call: a turn that records and publishes nothing never needs it. */
  private openCalls: Set<ModelCallRecord> | undefined;
  private ended = false;

  constructor(options: TurnTelemetryOptions) {
    this.options = options;
    this.tracer = options.tracer ?? trace.getTracer('flowstack');
    const attributes: Attributes = {
      [genAi.operationName]: genAiOperation.invokeAgent,
      [genAi.agentName]: options.agentName,
      [genAi.conversationId]: options.threadId,
      [fs.turnId]: options.turnId,
    };
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
      !this.recording && !this.wanted() ? settle(execute) : this.observeToolCall(call, execute);
  }

  wrapModel(model: LanguageModelV3): LanguageModelV3 {
    return instrumentModel(model, (call, mode) => this.startModelCall(call, mode, model));
  }

  wrapTool<T extends InstrumentableTool>(tool: T): T {
    const execute = tool.execute.bind(tool);
    const wrapped = (input: unknown, callContext: { callId: string }) =>
      this.observeTool({ tool, input, callId: callContext.callId }, () => execute(input, callContext));
    return { ...tool, execute: wrapped };
  }

  startFlow(flow: { id: string; name: string }): TelemetryScope {
    return this.openScope(
      'flow',
      flow.id,
      flow.name,
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
      'plan-item',
      item.id,
      item.description,
      `plan_item ${item.id}`,
      spanAttributes,
      fs.planItemStatus,
    );
  }

  end(result: { status: string; error?: unknown }): void {
    if (this.ended) return;
    this.ended = true;
    for (const record of [...(this.openCalls ?? [])])
      record.fail(new Error('The turn ended before the model call did.'));
    for (const scope of this.scopes.slice(1).reverse()) scope.handle?.end({ status: 'interrupted' });
    const turnSpan = this.turn.span;
    turnSpan.setAttribute(fs.turnStatus, result.status);
    if (result.error !== undefined) this.fail(turnSpan, result.error);
    else if (result.status === 'failed')
      turnSpan.setStatus({ code: SpanStatusCode.ERROR, message: 'The turn failed.' });
    turnSpan.end();
  }

  private startChild(name: string, kind: SpanKind, build: () => Attributes, parent: Scope): Span {
    return this.recording
      ? this.tracer.startSpan(name, { kind, attributes: build() }, parent.context)
      : idleSpan;
  }

  private innermost(flowName?: string): Scope {
    const scopes = this.scopes;
    if (flowName !== undefined) {
      for (let i = scopes.length - 1; i >= 0; i--) {
        const scope = scopes[i] as Scope;
        if (scope.kind === 'flow' && scope.name === flowName) return scope;
      }
    }
    return scopes.at(-1) ?? this.turn;
  }

  /** Whether progress is published now: its data is only built when it is. */
  private wanted(): boolean {
    return this.options.publish !== undefined && this.options.wantsProgress?.() !== false;
  }

  private progress(type: ObservationType, data: Record<string, unknown>, parent: Scope): void {
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

  private content(value: unknown): string {
    const { redact } = this.options;
    const text = typeof value === 'string' ? value : (JSON.stringify(redact.value(value)) ?? 'null');
    const redacted = redact.text(text);
    return redacted.length > contentCap ? `${redacted.slice(0, contentCap)}…` : redacted;
  }

  /** Ends an open flow or plan item (its handle's `end`, once). */
  closeScope(scope: Scope, statusAttribute: string, result: { status?: string; error?: unknown }): void {
    const scopes = this.scopes;
    const index = scopes.indexOf(scope);
    if (index > 0) scopes.splice(index, 1);
    if (result.status !== undefined) scope.span.setAttribute(statusAttribute, result.status);
    if (result.error !== undefined) this.fail(scope.span, result.error);
    scope.span.end();
  }

  private fail(span: Span, error: unknown): void {
    // A tool may throw anything, even a value that throws when read; the span must still end.
    const message = this.options.redact.text(describeThrown(error));
    const name = readThrownField(error, 'name');
    span.setAttribute(genAi.errorType, typeof name === 'string' && name !== '' ? name : 'error');
    span.addEvent('exception', { 'exception.message': message });
    span.setStatus({ code: SpanStatusCode.ERROR, message });
  }

  private openScope(
    kind: Scope['kind'],
    id: string,
    name: string,
    spanName: string,
    spanAttributes: Attributes,
    statusAttribute: string,
  ): TelemetryScope {
    const scopes = this.scopes;
    const parent = scopes.at(-1) ?? this.turn;
    const span = this.startChild(spanName, SpanKind.INTERNAL, () => spanAttributes, parent);
    const scope: Scope = {
      kind,
      id,
      name,
      span,
      context: this.recording ? trace.setSpan(parent.context, span) : parent.context,
      handle: undefined,
    };
    scopes.push(scope);
    const handle = new ScopeHandle(this, scope, statusAttribute);
    scope.handle = handle;
    return handle;
  }

  private startModelCall(
    call: LanguageModelV3CallOptions,
    mode: 'generate' | 'stream',
    model: LanguageModelV3,
  ): ModelCallRecord | undefined {
    // A call that no span records and no one listens to is not reported at all (its progress events
    // included: a listener that arrives while it runs sees the calls that start after).
    if (!this.recording && !this.wanted()) return undefined;
    const { threadId, recordContent } = this.options;
    const flowstack = (call.providerOptions?.flowstack ?? {}) as { phase?: unknown; flow?: unknown };
    const phase = typeof flowstack.phase === 'string' ? flowstack.phase : 'unknown';
    const flow = typeof flowstack.flow === 'string' ? flowstack.flow : undefined;
    const parent = this.innermost(flow);
    const span = this.startChild(
      `${genAiOperation.chat} ${model.modelId}`,
      SpanKind.CLIENT,
      () => {
        const spanAttributes: Attributes = {
          [genAi.operationName]: genAiOperation.chat,
          [genAi.providerName]: genAiProviderName(model.provider),
          [genAi.requestModel]: model.modelId,
          [genAi.conversationId]: threadId,
          [genAi.requestStream]: mode === 'stream',
          [fs.phase]: phase,
        };
        if (flow !== undefined) spanAttributes[fs.flowName] = flow;
        if (call.maxOutputTokens !== undefined) spanAttributes[genAi.requestMaxTokens] = call.maxOutputTokens;
        if (call.temperature !== undefined) spanAttributes[genAi.requestTemperature] = call.temperature;
        if (recordContent) spanAttributes[genAi.inputMessages] = this.content(call.prompt);
        return spanAttributes;
      },
      parent,
    );
    const base = flow !== undefined ? { phase, flow } : { phase };
    if (this.wanted())
      this.progress(
        'model-stream-start',
        { ...base, provider: model.provider, model: model.modelId },
        parent,
      );
    let done = false;
    const record: ModelCallRecord = {
      metadata: (meta) => {
        if (done) return;
        if (meta.id !== undefined) span.setAttribute(genAi.responseId, meta.id);
        if (meta.modelId !== undefined) span.setAttribute(genAi.responseModel, meta.modelId);
        if ((meta.id !== undefined || meta.modelId !== undefined) && this.wanted())
          this.progress(
            'model-stream-metadata',
            { ...base, responseId: meta.id, model: meta.modelId },
            parent,
          );
      },
      end: (result) => {
        if (done) return;
        done = true;
        this.openCalls?.delete(record);
        if (this.recording)
          span.setAttributes({
            [genAi.responseFinishReasons]: [result.finishReason],
            [genAi.usageInputTokens]: result.inputTokens,
            [genAi.usageOutputTokens]: result.outputTokens,
          });
        span.end();
        if (this.wanted()) this.progress('model-stream-end', { ...base, ...result }, parent);
      },
      fail: (error) => {
        if (done) return;
        done = true;
        this.openCalls?.delete(record);
        this.fail(span, error);
        span.end();
        const message = this.options.redact.text(messageOfThrown(error));
        if (this.wanted()) this.progress('model-stream-error', { ...base, message }, parent);
      },
    };
    this.openCalls ??= new Set();
    this.openCalls.add(record);
    return record;
  }

  private async observeToolCall<T>(call: ObservedToolCall, execute: () => Promise<T> | T): Promise<T> {
    const { tool, input, callId } = call;
    const { threadId, recordContent, redact, clock } = this.options;
    const parent = this.innermost();
    const span = this.startChild(
      `${genAiOperation.executeTool} ${tool.name}`,
      SpanKind.INTERNAL,
      () => {
        const spanAttributes: Attributes = {
          [genAi.operationName]: genAiOperation.executeTool,
          [genAi.toolName]: tool.name,
          [genAi.toolCallId]: callId,
          [genAi.toolDescription]: redactedDescription(tool, redact),
          [genAi.toolType]: 'function',
          [genAi.conversationId]: threadId,
        };
        if (tool.idempotent !== undefined) spanAttributes[fs.toolIdempotent] = tool.idempotent;
        if (tool.capability !== undefined) spanAttributes[fs.toolCapability] = tool.capability;
        if (recordContent) spanAttributes[genAi.toolCallArguments] = this.content(input);
        return spanAttributes;
      },
      parent,
    );
    const started = clock.now();
    // The arguments (redacted) let a live view show the call as it starts; built only when someone listens.
    if (this.wanted())
      this.progress('tool-call', { callId, toolName: tool.name, input: redact.value(input) }, parent);
    const finish = (status: 'success' | 'error') => {
      span.setAttribute(fs.toolStatus, status);
      span.end();
      this.progress(
        'tool-execution',
        { callId, toolName: tool.name, status, durationMs: clock.now() - started },
        parent,
      );
    };
    try {
      const output = await execute();
      if (recordContent && this.recording) span.setAttribute(genAi.toolCallResult, this.content(output));
      finish('success');
      return output;
    } catch (error) {
      this.fail(span, error);
      finish('error');
      throw error;
    }
  }
}

/** `run()` as a promise, whether it returns a value or a promise, rejects or throws. */
function settle<T>(run: () => Promise<T> | T): Promise<T> {
  try {
    return Promise.resolve(run());
  } catch (error) {
    return Promise.reject(error);
  }
}

/** A tool's description as spans carry it: redacted once per tool and redactor, not at every call. */
const descriptions = new WeakMap<object, WeakMap<object, string>>();

function redactedDescription(
  tool: Pick<InstrumentableTool, 'description'>,
  redact: { text(text: string): string },
): string {
  let byTool = descriptions.get(redact);
  if (!byTool) {
    byTool = new WeakMap();
    descriptions.set(redact, byTool);
  }
  let description = byTool.get(tool);
  if (description === undefined) {
    description = redact.text(tool.description);
    byTool.set(tool, description);
  }
  return description;
}

/** The handle of an open flow or plan item. */
class ScopeHandle implements TelemetryScope {
  readonly id: string;
  private readonly recorder: TurnTelemetryRecorder;
  private readonly scope: Scope;
  private readonly statusAttribute: string;
  private done = false;

  constructor(recorder: TurnTelemetryRecorder, scope: Scope, statusAttribute: string) {
    this.id = scope.id;
    this.recorder = recorder;
    this.scope = scope;
    this.statusAttribute = statusAttribute;
  }

  end(result: { status?: string; error?: unknown } = {}): void {
    if (this.done) return;
    this.done = true;
    this.recorder.closeScope(this.scope, this.statusAttribute, result);
  }
}
