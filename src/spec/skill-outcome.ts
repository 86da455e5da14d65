/**
 * What a skill run ends with (seed 000 output contract). Exactly one outcome per run; nothing after it
 * runs. `suspended` is flowstack's addition: the run waits for a human before it can go on — a tool
 * needs approval or feedback, an error needs a person (escalation), a long task asks whether to
 * continue, or the user stopped it. A suspended run can be resumed from its checkpoint.
 */
import type { ToolErrorCategory } from './tool-spec.js';

/**
 * Why a skill failed: a tool error category, or the loop's own reasons — the model failed
 * (`model_error`), a step or turn bound was reached (`loop_limit`), the wall-clock or idle limit passed
 * (`time_limit`), or the circuit breaker gave up after repeated backtracks or failures (`circuit_open`).
 */
export type SkillFailureCategory =
  | ToolErrorCategory
  | 'model_error'
  | 'loop_limit'
  | 'time_limit'
  | 'circuit_open';

export type { SkillSuspensionKind } from './hitl-spec.js';

export type SkillOutcome =
  | {
      outcome: 'success';
      /** The structured result: a UI shows it in the display frame, later flows read it. */
      data: unknown;
      /**
       * The reply the user reads, in plain words (`finish_skill`'s `message`, or the model's plain-text
       * answer). Without it the reply is made from `data` — never by printing it as JSON.
       */
      message?: string;
      scratchpadEntries: string[];
    }
  | {
      outcome: 'failure';
      errorCategory: SkillFailureCategory;
      message: string;
      partialData: unknown;
    }
  | { outcome: 'uncertain'; reason: string; context: Record<string, unknown> }
  | {
      outcome: 'suspended';
      /** `tool`: the call waits for approval or feedback; `escalate`: its error needs a person. */
      kind: 'tool' | 'escalate';
      callId: string;
      toolName: string;
      reason: string;
    }
  | {
      outcome: 'suspended';
      /** `confirm-continue`: a long task asks whether to go on; `user-stop`: the user stopped it. */
      kind: 'confirm-continue' | 'user-stop';
      reason: string;
      /** Model calls made so far in this run, across resumes. */
      turns: number;
    };

export type SkillOutcomeKind = SkillOutcome['outcome'];
