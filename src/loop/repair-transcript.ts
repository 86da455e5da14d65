/**
 * Before the run's first model call, its transcript is checked for unpaired tool calls and results (see
 * `pairToolResults`). An orphaned call is first looked up in the journal under its idempotency key, so
 * a result that was recorded is the one the model reads; only a call with no recorded result is
 * answered as interrupted. A repair is reported as a `transcript-repaired` event.
 */
import type { ToolCallResult } from '../spec/index.js';
import { findOrphanedToolCalls } from './clean-context.js';
import { emit, type SkillRun } from './internal/skill-run.js';
import { findOrphanedToolResults, pairToolResults, type RecordedToolResult } from './pair-tool-results.js';

export async function repairTranscript(run: SkillRun): Promise<void> {
  const orphanedCalls = findOrphanedToolCalls(run.messages);
  if (orphanedCalls.length === 0 && findOrphanedToolResults(run.messages).length === 0) return;
  const recorded = new Map<string, RecordedToolResult>();
  for (const callId of orphanedCalls) {
    const found = await readJournaledResult(run, callId);
    if (found) recorded.set(callId, found);
  }
  const repaired = pairToolResults(run.messages, recorded);
  if (!repaired) return;
  run.messages = repaired.messages;
  emit(run, {
    type: 'transcript-repaired',
    recorded: repaired.recorded,
    interrupted: repaired.interrupted,
    dropped: repaired.dropped,
  });
}

/** The finished result the journal holds for a call of this run, if any (a suspended one is not final). */
async function readJournaledResult(run: SkillRun, callId: string): Promise<RecordedToolResult | undefined> {
  const { store, threadId, turnId } = run.batch;
  if (!store) return undefined;
  const entry = await store.readJournal(`${threadId}:${turnId}:${callId}`);
  if (!entry?.result || (entry.status !== 'succeeded' && entry.status !== 'failed')) return undefined;
  try {
    const result = JSON.parse(entry.result) as ToolCallResult;
    if (typeof result.contextText !== 'string') return undefined;
    return { text: result.contextText, isError: result.status !== 'success' };
  } catch {
    return undefined;
  }
}
