/**
 * What settling one answered question gives the resumed run: the call's result, the note for the model,
 * what to remember for repeats and whether the run stops — or a new question. With the results people's
 * answers make that the settlements share.
 */
import type { AnsweredCall, SuspensionRecord, ToolCallResult } from '../../../spec/index.js';

export type Settlement =
  | { result: ToolCallResult; note: string; remember?: AnsweredCall; stop?: string }
  | { ask: string };

/**
 * A final `auth_error` for a call people refused or left out: it never runs. `refusal` marks a no to the
 * call's approval, with the person's reason.
 */
export function refused(
  question: SuspensionRecord,
  message: string,
  refusal?: { reason?: string },
): ToolCallResult {
  return {
    status: 'error',
    callId: question.callId as string,
    toolName: question.toolName as string,
    error: {
      category: 'auth_error',
      message,
      retryable: false,
      refusedBy: 'person',
      ...(refusal ? { refusal } : {}),
    },
    contextText: `Error (auth_error) from tool '${question.toolName}': ${message}`,
  };
}

/** An answer as the model reads it: a string as it is, anything else as JSON. */
export function textOf(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
