import type { AgentLimits } from './agent-types.js';

/** The turn's bounds (DESIGN.md §5), overridable per agent. */
export const defaultAgentLimits: AgentLimits = {
  maxInputChars: 32_000,
  maxStackDepth: 8,
  maxSkillIterations: 5,
  maxSkillIterationsComplex: 20,
  maxFlowsPerTurn: 8,
  maxToolResultChars: 1_500,
  recentMessages: 6,
  leaseTtlMs: 5 * 60_000,
};
