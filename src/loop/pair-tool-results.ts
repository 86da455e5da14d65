/**
 * Pairs every tool call of a transcript with exactly one result before the model reads it: providers
 * refuse a request holding a call without its result, or a result without its call. A transcript the
 * loop wrote itself is always paired; one from elsewhere may not be — a checkpoint imported or written
 * by another version, or a run whose process died between a call and its result outside the journal.
 * Pure: the recorded results are looked up by the caller (the journal) and passed in.
 */
import type { LanguageModelV3Message } from '@ai-sdk/provider';
import { findOrphanedToolCalls } from './clean-context.js';

type ToolMessage = Extract<LanguageModelV3Message, { role: 'tool' }>;
type ToolResultPart = Extract<ToolMessage['content'][number], { type: 'tool-result' }>;

/** A result found for an orphaned call (in the journal): its text, and whether it was an error. */
export interface RecordedToolResult {
  text: string;
  isError: boolean;
}

export interface PairToolResultsResult {
  messages: LanguageModelV3Message[];
  /** Calls answered with their recorded result. */
  recorded: string[];
  /** Calls answered with an error saying they were interrupted. */
  interrupted: string[];
  /** Results dropped because no call of the transcript made them. */
  dropped: string[];
}

/** What an orphaned call with no recorded result is answered with. */
export const interruptedResultText =
  'This call was interrupted before its result was recorded, so whether it took effect is unknown. ' +
  'Check before calling it again.';

/** Results whose call is nowhere in the transcript (providers reject them as much as orphaned calls). */
export function findOrphanedToolResults(messages: readonly LanguageModelV3Message[]): string[] {
  const called = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const part of message.content) if (part.type === 'tool-call') called.add(part.toolCallId);
  }
  const orphans: string[] = [];
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    for (const part of message.content)
      if (part.type === 'tool-result' && !called.has(part.toolCallId)) orphans.push(part.toolCallId);
  }
  return orphans;
}

/**
 * The transcript with each orphaned call answered right after the assistant message that made it (its
 * recorded result when there is one, else an interruption error) and each result without a call
 * dropped; `undefined` when nothing needed repair.
 */
export function pairToolResults(
  messages: readonly LanguageModelV3Message[],
  recorded: ReadonlyMap<string, RecordedToolResult> = new Map(),
): PairToolResultsResult | undefined {
  const orphanedCalls = new Set(findOrphanedToolCalls(messages));
  const orphanedResults = new Set(findOrphanedToolResults(messages));
  if (orphanedCalls.size === 0 && orphanedResults.size === 0) return undefined;
  const result: PairToolResultsResult = { messages: [], recorded: [], interrupted: [], dropped: [] };
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as LanguageModelV3Message;
    if (message.role === 'tool') {
      const kept = message.content.filter((part) => {
        if (part.type !== 'tool-result' || !orphanedResults.has(part.toolCallId)) return true;
        result.dropped.push(part.toolCallId);
        return false;
      });
      if (kept.length > 0) result.messages.push({ ...message, content: kept });
      continue;
    }
    result.messages.push(message);
    if (message.role !== 'assistant') continue;
    const answers: ToolResultPart[] = [];
    for (const part of message.content) {
      if (part.type !== 'tool-call' || !orphanedCalls.has(part.toolCallId)) continue;
      const found = recorded.get(part.toolCallId);
      (found ? result.recorded : result.interrupted).push(part.toolCallId);
      const text = found?.text ?? interruptedResultText;
      answers.push({
        type: 'tool-result',
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        output: found && !found.isError ? { type: 'text', value: text } : { type: 'error-text', value: text },
      });
    }
    if (answers.length === 0) continue;
    // The answers join the tool message that follows the call, or make one of their own.
    const next = messages[index + 1];
    if (next?.role === 'tool') {
      const kept = next.content.filter(
        (part) => part.type !== 'tool-result' || !orphanedResults.has(part.toolCallId),
      );
      for (const part of next.content)
        if (part.type === 'tool-result' && orphanedResults.has(part.toolCallId))
          result.dropped.push(part.toolCallId);
      result.messages.push({ ...next, content: [...kept, ...answers] });
      index += 1;
    } else result.messages.push({ role: 'tool', content: answers });
  }
  return result;
}
