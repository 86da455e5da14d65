/**
 * What the reporting functions of one turn share: its open spans (turn, flows, plan items), whether
 * anything records or listens, and the helpers that make a span attribute or a progress observation.
 */
import type { Attributes, Context, Span, SpanKind } from '@opentelemetry/api';
import type { ObservationType } from '../../spec/index.js';
import type { TelemetryScope, TurnTelemetryOptions } from '../turn-telemetry-types.js';
import type { UsageTally } from '../turn-usage.js';
import type { ContentFilter } from './gen-ai-messages.js';
import type { GenAiMetrics } from './gen-ai-metrics.js';
import type { ModelCallRecord } from './instrument-model.js';

/** An open turn, flow or plan item span. */
export interface Scope {
  kind: 'turn' | 'flow' | 'plan-item';
  id: string;
  name: string;
  span: Span;
  /** The span's context; the parent's when nothing is recorded (no child span is ever started then). */
  context: Context;
  /** Set for scopes opened by `startFlow` and `startPlanItem`, which `end` closes if still open. */
  handle?: TelemetryScope | undefined;
}

export interface TurnReporter {
  readonly options: TurnTelemetryOptions;
  /** An unsampled turn (or no SDK at all) records nothing below it either. */
  readonly recording: boolean;
  readonly metrics: GenAiMetrics;
  /** What the turn's model calls used. */
  readonly tally: UsageTally;
  /** Model calls under way, which the end of the turn fails if they are still open. */
  readonly openCalls: Set<ModelCallRecord>;
  /** Redacts and caps what content recording puts on spans. */
  readonly filter: ContentFilter;
  startChild(name: string, kind: SpanKind, build: () => Attributes, parent: Scope): Span;
  /** The innermost open flow named `flowName`, else the innermost open scope. */
  innermost(flowName?: string): Scope;
  /** Whether progress is published now: its data is only built when it is. */
  wanted(): boolean;
  progress(type: ObservationType, data: Record<string, unknown>, parent: Scope): void;
  /** A value as one redacted, capped string attribute. */
  content(value: unknown): string;
  /** Marks the span as failed with the thrown value's name and redacted message. */
  fail(span: Span, error: unknown): void;
}
