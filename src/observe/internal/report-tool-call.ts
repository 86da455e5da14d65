/**
 * One tool execution as a turn reports it: an `execute_tool` span (arguments and result when content is
 * recorded) and `tool-call` / `tool-execution` progress for those who listen.
 */
import type { Attributes } from '@opentelemetry/api';
import { flowstackAttribute as fs, genAi, genAiOperation } from '../gen-ai-attributes.js';
import type { InstrumentableTool, ObservedToolCall } from '../turn-telemetry-types.js';
import { openTelemetry } from './open-telemetry.js';
import type { TurnReporter } from './turn-reporter.js';

export async function reportToolCall<T>(
  reporter: TurnReporter,
  call: ObservedToolCall,
  execute: () => Promise<T> | T,
): Promise<T> {
  const { tool, input, callId } = call;
  const { threadId, recordContent, redact, clock } = reporter.options;
  const parent = reporter.innermost();
  const span = reporter.startChild(
    `${genAiOperation.executeTool} ${tool.name}`,
    openTelemetry().SpanKind.INTERNAL,
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
      if (recordContent) spanAttributes[genAi.toolCallArguments] = reporter.content(input);
      return spanAttributes;
    },
    parent,
  );
  const started = clock.now();
  // The arguments (redacted) let a live view show the call as it starts; built only when someone listens.
  if (reporter.wanted())
    reporter.progress('tool-call', { callId, toolName: tool.name, input: redact.value(input) }, parent);
  const finish = (status: 'success' | 'error') => {
    span.setAttribute(fs.toolStatus, status);
    span.end();
    reporter.progress(
      'tool-execution',
      { callId, toolName: tool.name, status, durationMs: clock.now() - started },
      parent,
    );
  };
  try {
    const output = await execute();
    if (recordContent && reporter.recording)
      span.setAttribute(genAi.toolCallResult, reporter.content(output));
    finish('success');
    return output;
  } catch (error) {
    reporter.fail(span, error);
    finish('error');
    throw error;
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
