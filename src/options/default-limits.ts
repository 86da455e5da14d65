import { defaultBounds } from '../spec/index.js';
import type { AgentLimits } from '../turn/index.js';

/** The turn's bounds by default: the `limits` row of the one table (`defaultBounds`, DESIGN.md §5). */
export const defaultAgentLimits: Readonly<Omit<AgentLimits, 'approvalTtlMs'>> = defaultBounds.limits;

export { defaultBounds };
