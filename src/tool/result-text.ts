/**
 * The JSON text of a tool call's result, made once per result object. The journal writes it as the call's
 * row, and the skill loop's reflect phase measures the output against it. A result is not changed once a
 * stage has returned it (a stage that alters one returns a copy, as `capResultSize` does), so the text
 * made first stays true.
 */
import type { ToolCallResult } from '../spec/index.js';

const texts = new WeakMap<ToolCallResult, string>();

export function resultText(result: ToolCallResult): string {
  let text = texts.get(result);
  if (text === undefined) {
    text = JSON.stringify(result);
    texts.set(result, text);
  }
  return text;
}
