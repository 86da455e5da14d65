/**
 * Backtrack's context cleaning (seed 004): a polluted transcript of failed calls and long error
 * details is replaced by short error lines and one reflection summary saying what failed, why, and
 * what to try next — so the model is not steered by a pile of old errors, and pays for fewer tokens.
 * Pure. Tool calls and their results are never removed apart, so no call is left orphaned.
 */
import type { LanguageModelV3Message } from '@ai-sdk/provider';
import { measurePromptChars } from './estimate-prompt-tokens.js';
import { loopMessageKind, loopNote } from './skill-messages.js';

export interface CleanContextOptions {
  /** The reflection summary that replaces the error details; the only one left in the result. */
  summary: string;
  /** Characters an error result keeps (its first line, cut). */
  maxErrorChars: number;
}

export interface CleanContextResult {
  messages: LanguageModelV3Message[];
  charsBefore: number;
  charsAfter: number;
  /** Error results that were shortened. */
  shortenedErrors: number;
}

/** Shrinks error results to one line and leaves one reflection summary at the end; pure. */
export function cleanContext(
  messages: readonly LanguageModelV3Message[],
  options: CleanContextOptions,
): CleanContextResult {
  let shortenedErrors = 0;
  const shorten = (text: string): string => {
    const short = shortLine(text, options.maxErrorChars);
    if (short !== text) shortenedErrors += 1;
    return short;
  };
  const cleaned: LanguageModelV3Message[] = [];
  for (const message of messages) {
    if (loopMessageKind(message) === 'reflection-summary') continue;
    if (message.role === 'tool') {
      cleaned.push({
        ...message,
        content: message.content.map((part) => {
          if (part.type !== 'tool-result') return part;
          if (part.output.type === 'error-text')
            return { ...part, output: { ...part.output, value: shorten(part.output.value) } };
          if (part.output.type === 'error-json')
            return {
              ...part,
              output: { type: 'error-text' as const, value: shorten(JSON.stringify(part.output.value)) },
            };
          return part;
        }),
      });
    } else if (message.role === 'user' && loopMessageKind(message) === 'text-tool-results') {
      cleaned.push({
        ...message,
        content: message.content.map((part) =>
          part.type === 'text' && part.providerOptions?.flowstack?.status === 'error'
            ? { ...part, text: shorten(part.text) }
            : part,
        ),
      });
    } else cleaned.push(message);
  }
  cleaned.push(loopNote('reflection-summary', options.summary));
  return {
    messages: cleaned,
    charsBefore: measurePromptChars([...messages]),
    charsAfter: measurePromptChars(cleaned),
    shortenedErrors,
  };
}

/** Tool calls without a result anywhere after them (providers reject a prompt with one). */
export function findOrphanedToolCalls(messages: readonly LanguageModelV3Message[]): string[] {
  const answered = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'tool' && message.role !== 'assistant') continue;
    for (const part of message.content) if (part.type === 'tool-result') answered.add(part.toolCallId);
  }
  const orphans: string[] = [];
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const part of message.content)
      if (part.type === 'tool-call' && !answered.has(part.toolCallId)) orphans.push(part.toolCallId);
  }
  return orphans;
}

/** The first line of `text`, whitespace collapsed, cut to `max` characters. */
function shortLine(text: string, max: number): string {
  const line = (text.split('\n').find((l) => l.trim() !== '') ?? '').replace(/\s+/g, ' ').trim();
  if (line.length <= max && line === text) return text;
  return line.length <= max ? line : `${line.slice(0, Math.max(0, max - 1))}…`;
}
