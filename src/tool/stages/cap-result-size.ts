import type { ToolStage } from '../tool-pipeline.js';

/**
 * Keeps a long result's head and tail in the model context with a note of what was left out; the full
 * (redacted) result stays in the returned `output` and in the journal. Runs after redaction, so no cut
 * can split a secret past the redactor.
 */
export const capResultSize: ToolStage = async (state, next) => {
  const result = await next(state);
  const max = state.batch.maxContextChars;
  const text = result.contextText;
  if (text.length <= max) return result;
  const head = Math.ceil(max * 0.67);
  const tail = max - head;
  const omitted = text.length - head - tail;
  const note = `\n…[${omitted} characters omitted; the full result of call ${result.callId} is stored]…\n`;
  return { ...result, contextText: `${text.slice(0, head)}${note}${text.slice(text.length - tail)}` };
};
