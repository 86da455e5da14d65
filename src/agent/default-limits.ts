import { defaultSkillLoopLimits } from '../loop/index.js';
import type { AgentLimits } from './agent-types.js';

/** The turn's bounds (DESIGN.md §5), overridable per agent. Skill loop bounds come from `src/loop`. */
export const defaultAgentLimits: AgentLimits = {
  maxInputChars: 32_000,
  maxStackDepth: 8,
  maxSkillIterations: defaultSkillLoopLimits.simple.maxIterations,
  maxSkillIterationsComplex: defaultSkillLoopLimits.complex.maxIterations,
  maxFlowsPerTurn: 8,
  maxToolResultChars: 1_500,
  recentMessages: 6,
  leaseTtlMs: 30_000,
  maxTurnAttempts: 3,
  maxScratchpadEntries: 64,
  maxBackgroundFlows: 8,
};
