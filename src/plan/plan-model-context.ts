/**
 * What every model call of the plan loop shares: the model, the persona, the recent conversation, and
 * how to call (streaming, cancellation).
 */
import type { LanguageModelV3, LanguageModelV3Prompt } from '@ai-sdk/provider';

export interface PlanModelContext {
  model: LanguageModelV3;
  persona: string;
  /** Recent conversation, ending with the user's latest message. */
  conversation: LanguageModelV3Prompt;
  stream?: boolean;
  signal?: AbortSignal;
}

/** The call options of `callStructured` that come from the context. */
export function modelCallOptions(context: PlanModelContext): {
  model: LanguageModelV3;
  stream?: boolean;
  signal?: AbortSignal;
} {
  return {
    model: context.model,
    ...(context.stream ? { stream: true } : {}),
    ...(context.signal ? { signal: context.signal } : {}),
  };
}
