/**
 * What a skill run ends with (seed 000 output contract). Exactly one outcome per run; nothing after it
 * runs. `suspended` is flowstack's addition: a tool needs a human before the skill can go on.
 */
import type { ToolErrorCategory } from './tool-spec.js';

export type SkillOutcome =
  | { outcome: 'success'; data: unknown; scratchpadEntries: string[] }
  | {
      outcome: 'failure';
      errorCategory: ToolErrorCategory | 'model_error' | 'loop_limit';
      message: string;
      partialData: unknown;
    }
  | { outcome: 'uncertain'; reason: string; context: Record<string, unknown> }
  | { outcome: 'suspended'; callId: string; toolName: string; reason: string };

export type SkillOutcomeKind = SkillOutcome['outcome'];
