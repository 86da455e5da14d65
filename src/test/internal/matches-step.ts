import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import type { ScriptStepMatch } from '../script-step.js';
import { matchesText } from './matches-text.js';
import type { CallContext } from './read-call-context.js';

/** Whether every condition of `match` holds for this call; no `match` matches every call. */
export function matchesStep(
  match: ScriptStepMatch | undefined,
  context: CallContext,
  options: LanguageModelV3CallOptions,
): boolean {
  if (match === undefined) return true;
  if (match.phase !== undefined && match.phase !== context.phase) return false;
  if (match.flow !== undefined && match.flow !== context.flow) return false;
  // Read only when matched on: the context reads the last user text when first asked.
  if (match.lastUser !== undefined && !matchesText(match.lastUser, context.lastUser)) return false;
  return match.prompt === undefined || match.prompt(options);
}
