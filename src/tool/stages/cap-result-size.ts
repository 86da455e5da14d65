import type { ToolCallResult } from '../../spec/index.js';
import { idempotencyKeyOf, type ToolCallState } from '../tool-call-state.js';

/**
 * Keeps a long result's head and tail in the model context with a note of what was left out and the
 * reference under which the full redacted result is stored (the journal; `readToolResult` reads it
 * back). Runs after redaction, so no cut can split a secret past the redactor. Then appends the
 * anticipatory simulation, if any, so that the cut never removes it.
 */
export function capResultSize(state: ToolCallState, result: ToolCallResult): ToolCallResult {
  const max = state.batch.maxContextChars;
  const text = result.contextText;
  let capped: ToolCallResult = result;
  if (text.length > max && result.status !== 'suspended') {
    const stored = state.batch.store !== undefined && state.toolContent;
    const ref = idempotencyKeyOf(state);
    const head = Math.ceil(max * 0.67);
    const tail = max - head;
    const omitted = text.length - head - tail;
    const where = stored ? `; the full result is stored as ref "${ref}"` : '';
    const note = `\n…[${omitted} of ${text.length} characters omitted${where}]…\n`;
    capped = {
      ...result,
      contextText: `${text.slice(0, head)}${note}${text.slice(text.length - tail)}`,
      ...(stored ? { outputRef: ref } : {}),
    };
  }
  if (capped.status !== 'suspended' && capped.simulation)
    capped = {
      ...capped,
      contextText: `${capped.contextText}\n[ANTICIPATORY SIMULATION]: ${capped.simulation}`,
    };
  return capped;
}
