/**
 * What one skill-loop invocation returns: its one outcome, the messages and events it added, and the
 * control state a suspended run resumes from.
 */
import type { LanguageModelV3Message } from '@ai-sdk/provider';
import type { SkillOutcome } from '../spec/index.js';
import type { SkillLoopEvent } from './skill-loop-events.js';
import type { SkillLoopState } from './skill-loop-state.js';

export interface SkillLoopResult {
  outcome: SkillOutcome;
  /** Messages the loop added to the prompt (assistant steps, tool results, its own notes). */
  messages: LanguageModelV3Message[];
  events: SkillLoopEvent[];
  /** Model calls (react phases) in this invocation. */
  iterations: number;
  inputTokens: number;
  outputTokens: number;
  /** The run's control state: with `messages`, the checkpoint a suspended run resumes from. */
  state: SkillLoopState;
  /** Required-tool validation of a success: `passed: false` when it was taken after the last enforcement. */
  validation?: { requiredTools: string[]; missing: string[]; passed: boolean };
}
