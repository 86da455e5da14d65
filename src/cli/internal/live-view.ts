/**
 * What the agent is doing, on stderr while a turn runs: a spinner line for model and tool calls
 * (drawn only on a terminal), and the plan's items with their statuses whenever they change.
 */
import type { Agent } from '../../agent/index.js';
import type { Observation } from '../../spec/index.js';
import { type PlanView, reducePlan } from '../../ui/index.js';
import type { CliIo } from '../cli-io.js';

const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const marks: Record<string, string> = {
  completed: '✔',
  in_progress: '▶',
  failed: '✖',
  cancelled: '–',
  waiting: '⏸',
};

export interface LiveView {
  stop(): void;
}

export function startLiveView(agent: Pick<Agent, 'subscribe'>, io: CliIo, threadId: string): LiveView {
  let text = '';
  let frame = 0;
  let plan: PlanView | undefined;
  let drawn = false;
  const clear = () => {
    if (drawn) io.errWrite('\r\x1b[2K');
    drawn = false;
  };
  const draw = () => {
    if (!io.interactive || text === '') return;
    io.errWrite(`\r\x1b[2K${frames[frame % frames.length]} ${text}`);
    drawn = true;
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
        const line = describeProgress(observation);
        if (line !== undefined) {
          text = line;
          draw();
        }
        return;
      }
      const next = reducePlan(plan, observation);
      if (next !== plan && next) {
        clear();
        io.err(`Plan${next.title ? `: ${next.title}` : ''} (${next.items.length} steps)`);
        for (const item of next.items) io.err(`  ${marks[item.status] ?? '○'} ${item.description}`);
        draw();
      }
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
  const where = typeof data.flow === 'string' ? ` (${data.flow})` : '';
  if (observation.type === 'model-stream-start')
    return data.phase === 'predict' ? 'Understanding the message…' : `Thinking${where}…`;
  if (observation.type === 'tool-call') return `Running ${String(data.toolName)}…`;
  if (observation.type === 'tool-execution')
    return `${String(data.toolName)} ${data.status === 'success' ? 'done' : 'failed'}`;
  return undefined;
}
