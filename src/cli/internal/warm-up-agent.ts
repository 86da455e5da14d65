import type { Agent } from '../../agent/index.js';
import type { CliIo } from '../cli-io.js';

/**
 * Warms the process before it takes work (`agent.warmUp`, docs/decisions/0032). A dry run that could
 * not finish does not stop the command; it is said on stderr, since it points at a defect.
 */
export async function warmUpAgent(agent: Agent, io: CliIo, command: string): Promise<void> {
  const report = await agent.warmUp();
  if (!report.warmed)
    io.err(`flowstack ${command}: the warm-up did not finish (${report.reason}); going on.`);
}
