/**
 * The step output table (seed 002 `stepOutputs`): each finished item's full output, kept up to
 * `maxStepOutputChars`, appended to the thread history as a `step-output` row and read by every later
 * step and by synthesis. Long outputs keep their head and tail with a note of what was left out.
 */
import type { StepOutputEntry, TodoItem, ToolCallResult } from '../spec/index.js';

export interface CreateStepOutputOptions {
  planId: string;
  item: TodoItem;
  /** The step's own answer (the skill's success data, or the failure message). */
  result: unknown;
  /** Tool results of the item's run, in call order; their full (redacted) outputs are kept. */
  toolResults: readonly ToolCallResult[];
  maxChars: number;
  now: number;
}

export function createStepOutput(options: CreateStepOutputOptions): StepOutputEntry {
  const sections = [renderValue(options.result)];
  const tools = options.toolResults.filter((r) => r.toolName !== 'update_plan');
  if (tools.length > 0) {
    sections.push(
      `Tool results:\n${tools
        .map(
          (r) =>
            `- ${r.toolName} (${r.status}): ${r.status === 'success' ? renderValue(r.output) : r.contextText}`,
        )
        .join('\n')}`,
    );
  }
  const { text, omitted } = keepHeadAndTail(sections.join('\n\n'), options.maxChars);
  return {
    planId: options.planId,
    itemId: options.item.id,
    description: options.item.description,
    stepType: options.item.stepType,
    status: options.item.status,
    output: text,
    omittedChars: omitted,
    completedAt: options.now,
  };
}

/** The latest entry per item, in the order the items finished. */
export function latestStepOutputs(entries: readonly StepOutputEntry[]): Map<string, StepOutputEntry> {
  const latest = new Map<string, StepOutputEntry>();
  for (const entry of entries) {
    latest.delete(entry.itemId);
    latest.set(entry.itemId, entry);
  }
  return latest;
}

/** The outputs as a prompt section, each under its item's id and description. */
export function renderStepOutputs(entries: Iterable<StepOutputEntry>): string {
  const blocks = [...entries].map((e) => `### ${e.itemId} (${e.status}): ${e.description}\n${e.output}`);
  return blocks.length === 0 ? '(no step has finished yet)' : blocks.join('\n\n');
}

function renderValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const text = ['text', 'summary', 'answer', 'message']
      .map((k) => record[k])
      .find((v) => typeof v === 'string');
    const rest = Object.fromEntries(
      Object.entries(record).filter(([k]) => !['text', 'summary', 'answer', 'message'].includes(k)),
    );
    const json = Object.keys(rest).length > 0 ? JSON.stringify(rest) : '';
    return [text, json].filter((part) => typeof part === 'string' && part !== '').join('\n');
  }
  return JSON.stringify(value) ?? '';
}

function keepHeadAndTail(text: string, max: number): { text: string; omitted: number } {
  if (text.length <= max) return { text, omitted: 0 };
  const note = (n: number) => `\n…[${n} characters of this step's output omitted]…\n`;
  const room = Math.max(0, max - note(text.length).length);
  const head = Math.ceil(room * 0.75);
  const tail = room - head;
  const omitted = text.length - head - tail;
  return { text: `${text.slice(0, head)}${note(omitted)}${text.slice(text.length - tail)}`, omitted };
}
