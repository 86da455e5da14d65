/**
 * PEX step 4, completion: 3–5 short, reflective scratchpad snippets about what the flow found — the
 * skill's own entries first, then summaries made here from the slots and the result (never raw tool
 * output), so later flows and the reply can build on them.
 */
import { describeResult } from '../respond/index.js';
import type { FlowInstance, FlowSpec } from '../spec/index.js';

export const minCompletionSummaries = 3;
export const maxCompletionSummaries = 5;

export function summarizeCompletion(options: {
  spec: FlowSpec;
  flow: FlowInstance;
  data: unknown;
  skillEntries: readonly string[];
}): string[] {
  const { spec, flow, data } = options;
  const summaries = options.skillEntries
    .map((e) => e.trim())
    .filter((e) => e !== '')
    .slice(0, maxCompletionSummaries);
  const slots = Object.entries(flow.slots)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  const made = [
    `${spec.name} (${spec.intent}) completed${slots.length > 0 ? ` for ${slots.join(', ')}` : ''}.`,
    `Result: ${clip(describeResult(data), 300)}`,
  ];
  const shape = describeShape(data);
  if (shape) made.push(shape);
  else made.push(`Goal: ${spec.description}`);
  for (const summary of made) {
    if (summaries.length >= minCompletionSummaries) break;
    summaries.push(summary);
  }
  return summaries.slice(0, maxCompletionSummaries);
}

function describeShape(data: unknown): string | undefined {
  const record =
    data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
  const rows = Array.isArray(data)
    ? data
    : Array.isArray(record?.rows)
      ? (record?.rows as unknown[])
      : undefined;
  if (rows) {
    const first = rows[0];
    const columns = first && typeof first === 'object' ? Object.keys(first as object) : [];
    return `${rows.length} row${rows.length === 1 ? '' : 's'}${columns.length > 0 ? ` with columns ${columns.join(', ')}` : ''}.`;
  }
  const fields = record
    ? Object.keys(record).filter((k) => !['text', 'summary', 'message', 'answer'].includes(k))
    : [];
  if (fields.length > 0) return `Fields: ${fields.join(', ')}.`;
  return undefined;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
