/**
 * What one PEX `execute()` of the active flow returns (seed 000): the next dialogue state and what
 * happened, as data. Each phase of `executeFlow` either ends the run with one of these kinds or hands its
 * part of the shared base to the next phase.
 */
import type { LanguageModelV3Message } from '@ai-sdk/provider';
import type { DialogueState, FallbackTarget, InternalFlowRequest } from '../flow/index.js';
import type { SkillLoopEvent, SkillLoopResult, SkillLoopState } from '../loop/index.js';
import type { CreatedFrame } from '../respond/index.js';
import type { PendingQuestion, ScratchpadEntry, SkillOutcome } from '../spec/index.js';
import type { CheckProblem } from './check-flow.js';
import type { VerifyProblem } from './verify-flow.js';

/** What every kind of execution carries. */
export interface ExecutionBase {
  state: DialogueState;
  scratchpad: ScratchpadEntry[];
  events: SkillLoopEvent[];
  /** Slots the model filled from context during slot review. */
  filled: string[];
  /** Tools whose approval the trifecta gate forced. */
  gated: string[];
  /** The skill run's checkpoint (its messages and loop state), when the skill ran: a suspended run resumes from it. */
  checkpoint?: { messages: LanguageModelV3Message[]; state: SkillLoopState };
  /** Required-tool validation of a success (seed 002 TAEF), when required tools were given. */
  validation?: SkillLoopResult['validation'];
}

export type FlowExecution = ExecutionBase &
  (
    | { kind: 'blocked'; problems: CheckProblem[] }
    | { kind: 'ask'; question: PendingQuestion }
    | {
        kind: 'completed';
        outcome: Extract<SkillOutcome, { outcome: 'success' }>;
        frame?: CreatedFrame;
        text?: string;
        verify: VerifyProblem[];
        schedule: InternalFlowRequest[];
      }
    | {
        kind: 'failed';
        outcome: Extract<SkillOutcome, { outcome: 'failure' }>;
        frame?: CreatedFrame;
        text?: string;
      }
    | {
        /**
         * The skill ended without a call a person said no to: the flow ends as they decided, and `text` says
         * what was not done and why (docs/decisions/0088). Not a failure of the agent.
         */
        kind: 'declined';
        outcome: Extract<SkillOutcome, { outcome: 'failure' }>;
        text: string;
      }
    | { kind: 'uncertain'; outcome: Extract<SkillOutcome, { outcome: 'uncertain' }> }
    | { kind: 'suspended'; outcome: Extract<SkillOutcome, { outcome: 'suspended' }> }
    | { kind: 'fallback'; target: FallbackTarget; outcome: SkillOutcome }
  );
