/**
 * The texts the loop writes about its own progress, built from its state without a model call: the
 * reflection summary a backtrack leaves in context (what failed, why, what to try next), and the
 * graceful-failure outcome (what was done and what could not be).
 */
import type { SkillOutcome, ToolCallResult } from '../spec/index.js';
import type { ReflectDecision } from './classify-tool-error.js';
import { finishSkillToolName } from './finish-skill-tool.js';
import type { SkillLoopState } from './skill-loop-state.js';

/** The one reflection summary a backtrack leaves; it covers every backtrack of the run so far. */
export function describeBacktrack(options: {
  state: Pick<SkillLoopState, 'backtrackNotes'>;
  backtracks: number;
  maxBacktracks: number;
  decision: ReflectDecision;
  errors: readonly ToolCallResult[];
  alternatives: readonly string[];
  /** Whether the failed calls' details were shortened in context (the default); false says nothing of it. */
  shortened?: boolean;
}): { note: string; summary: string } {
  const failed = groupErrors(options.errors);
  const failedTools = [...new Set(options.errors.map((e) => e.toolName))];
  const note = `${failed.join('; ')} — ${options.decision.reason}`;
  const notes = [...options.state.backtrackNotes, note];
  const untried = options.alternatives.filter((name) => !failedTools.includes(name));
  const next =
    untried.length > 0
      ? `try ${untried.join(' or ')} instead of ${failedTools.join(', ')}, or the same tool with different arguments`
      : `change the arguments or the approach rather than repeating the failed call`;
  const lines = [
    `Reflection (backtrack ${options.backtracks} of at most ${options.maxBacktracks}).${options.shortened === false ? '' : ' The error details above were shortened.'}`,
    ...notes.map((n, i) => `- Attempt ${i + 1} failed: ${n}.`),
    `Next: ${next}. If nothing can do it, call ${finishSkillToolName} with outcome "failure" and say what is missing.`,
  ];
  return { note, summary: lines.join('\n') };
}

/** A failure that says what the run achieved and what it could not, with the results as partial data. */
export function gracefulFailure(options: {
  state: Pick<SkillLoopState, 'completed' | 'failures'>;
  category: Extract<SkillOutcome, { outcome: 'failure' }>['errorCategory'];
  headline: string;
  /** What the user can change so that it does not happen again (the option that raises a bound). */
  hint?: string;
}): Extract<SkillOutcome, { outcome: 'failure' }> {
  const { completed, failures } = options.state;
  const doneCounts = countBy(completed.map((c) => c.toolName));
  const done =
    doneCounts.length > 0
      ? doneCounts.map(([name, n]) => `${name} (${plural(n, 'call')})`).join(', ')
      : 'nothing yet';
  const failedByTool = new Map<string, { category: string; message: string; count: number }>();
  for (const f of failures) {
    const entry = failedByTool.get(f.toolName);
    failedByTool.set(f.toolName, {
      category: f.category,
      message: f.message,
      count: (entry?.count ?? 0) + 1,
    });
  }
  const notDone =
    failedByTool.size > 0
      ? [...failedByTool]
          .map(
            ([name, f]) =>
              `${name} failed ${plural(f.count, 'time')} (last: ${f.category}, ${cut(f.message, 120)})`,
          )
          .join('; ')
      : 'the task was not finished';
  return {
    outcome: 'failure',
    errorCategory: options.category,
    message: `${options.headline} Done: ${done}. Not done: ${notDone}.${options.hint ? ` ${options.hint}` : ''}`,
    partialData: {
      completed: completed.map((c) => ({ toolName: c.toolName, output: c.output })),
      failed: failures.map((f) => ({ toolName: f.toolName, category: f.category, message: f.message })),
    },
  };
}

function groupErrors(errors: readonly ToolCallResult[]): string[] {
  const byTool = new Map<string, string>();
  for (const e of errors) {
    if (e.status !== 'error') continue;
    byTool.set(e.toolName, `${e.toolName} (${e.error.category}: ${cut(e.error.message, 100)})`);
  }
  return [...byTool.values()];
}

function countBy(names: readonly string[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
  return [...counts];
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function cut(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}
