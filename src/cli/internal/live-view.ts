/**
 * What the agent is doing, on stderr while a turn runs (results stay alone on stdout):
 * - on a terminal, a spinner line for model and tool calls, cleared before anything else is printed,
 *   and the plan drawn once and redrawn in place as its items move;
 * - elsewhere (a pipe, a log), each step as one plain line, and the plan once, then one line per item
 *   that changed.
 * A finished tool call leaves a line in both, so the progress stays readable after the turn.
 */
import type { Agent } from '../../agent/index.js';
import type { Observation } from '../../spec/index.js';
import { type PlanView, reducePlan } from '../../ui/index.js';
import type { CliIo } from '../cli-io.js';

const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
// Marks every terminal font has (no emoji such as the pause sign).
const marks: Record<string, string> = {
  completed: '✔',
  in_progress: '▶',
  failed: '✖',
  cancelled: '–',
  waiting: '‖',
};

export interface LiveView {
  /** Clears the spinner and stops following; call it before printing the turn. */
  stop(): void;
}

export function startLiveView(agent: Pick<Agent, 'subscribe'>, io: CliIo, threadId: string): LiveView {
  let text = '';
  let frame = 0;
  let plan: PlanView | undefined;
  let spinnerDrawn = false;
  // Lines of the plan block right above the spinner (a terminal redraws them in place).
  let planLines = 0;
  let planBlock: string[] = [];
  let lastLine = '';
  const clear = () => {
    if (spinnerDrawn) io.errWrite('\r\x1b[2K');
    spinnerDrawn = false;
  };
  const draw = () => {
    if (!io.interactive || text === '') return;
    io.errWrite(`\r\x1b[2K${frames[frame % frames.length]} ${text}`);
    spinnerDrawn = true;
  };
  /** A line that stays: the spinner goes first; on a terminal the plan stays the last block, below it. */
  const printLine = (line: string) => {
    clear();
    if (io.interactive && planLines > 0) {
      io.errWrite(`\x1b[${planLines}A\r\x1b[J`);
      io.err(line);
      for (const planLine of planBlock) io.err(planLine);
    } else io.err(line);
    draw();
  };
  const showPlan = (next: PlanView) => {
    const block = [
      `Plan${next.title ? `: ${next.title}` : ''} (${next.items.length} steps)`,
      ...next.items.map((item) => `  ${marks[item.status] ?? '○'} ${item.description}`),
    ];
    clear();
    if (io.interactive) {
      // Up to the plan's first line and clear down, then draw it again as it is now.
      if (planLines > 0) io.errWrite(`\x1b[${planLines}A\r\x1b[J`);
      for (const line of block) io.err(line);
      planLines = block.length;
      planBlock = block;
    } else if (!plan || plan.planId !== next.planId) {
      for (const line of block) io.err(line);
    } else {
      const before = new Map(plan.items.map((item) => [item.id, item.status]));
      for (const item of next.items)
        if (before.get(item.id) !== item.status)
          io.err(`  ${marks[item.status] ?? '○'} ${item.description} (${item.status.replace('_', ' ')})`);
    }
    draw();
  };
  const timer = io.interactive
    ? setInterval(() => {
        frame += 1;
        draw();
      }, 100)
    : undefined;
  timer?.unref?.();
  const unsubscribe = agent.subscribe(
    (observation: Observation) => {
      if (observation.id === 0) {
        const finished = describeFinishedCall(observation);
        if (finished !== undefined) printLine(finished);
        const line = describeProgress(observation);
        if (line === undefined) return;
        text = line;
        if (io.interactive) draw();
        else if (line !== lastLine) io.err(line);
        lastLine = line;
        return;
      }
      const next = reducePlan(plan, observation);
      if (next && next !== plan) showPlan(next);
      plan = next;
    },
    { threadId, progress: true },
  );
  return {
    stop() {
      if (timer) clearInterval(timer);
      unsubscribe();
      clear();
    },
  };
}

function describeProgress(observation: Observation): string | undefined {
  const data = observation.data;
  const where = typeof data.flow === 'string' ? ` (${words(data.flow)})` : '';
  if (observation.type === 'model-stream-start')
    return data.phase === 'predict' ? 'Understanding the message…' : `Thinking${where}…`;
  if (observation.type === 'tool-call') return `Running ${words(data.toolName)}…`;
  return undefined;
}

function describeFinishedCall(observation: Observation): string | undefined {
  if (observation.type !== 'tool-execution') return undefined;
  const { toolName, status } = observation.data;
  return status === 'success' ? `✔ ${words(toolName)}` : `✖ ${words(toolName)} (${String(status)})`;
}

/** A flow's or tool's name in words: `find_flights` → `find flights`. */
function words(name: unknown): string {
  return String(name ?? '').replace(/[_-]+/g, ' ');
}
