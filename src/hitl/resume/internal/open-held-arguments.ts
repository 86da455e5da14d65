/**
 * Gives a suspended run's held calls back the arguments the model wrote, from the sealed copy the
 * checkpoint keeps beside their redacted form (docs/decisions/0078). A copy sealed under a key this
 * process does not have stays redacted, and its call is named so that it is never run with a redaction
 * marker in place of the real value.
 */
import type { LanguageModelV3Message } from '@ai-sdk/provider';
import type { SecretSealer } from '../../../redact/index.js';

/** Where in a tool-call part's `providerOptions.flowstack` the sealed arguments are kept. */
export const sealedInputKey = 'sealedInput';

export interface OpenedHeldArguments {
  messages: LanguageModelV3Message[];
  /** Calls whose arguments could not be opened: only their redacted form is known. */
  unopened: Set<string>;
}

export function openHeldArguments(
  messages: readonly LanguageModelV3Message[],
  sealer: SecretSealer | undefined,
): OpenedHeldArguments {
  const unopened = new Set<string>();
  const opened = messages.map((message) => {
    if (message.role !== 'assistant') return message;
    if (!message.content.some((part) => part.type === 'tool-call' && sealedOf(part) !== undefined))
      return message;
    const content = message.content.map((part) => {
      const sealed = part.type === 'tool-call' ? sealedOf(part) : undefined;
      if (part.type !== 'tool-call' || sealed === undefined) return part;
      const { [sealedInputKey]: _sealed, ...flowstack } = part.providerOptions?.flowstack ?? {};
      const { flowstack: _own, ...others } = part.providerOptions ?? {};
      const providerOptions = Object.keys(flowstack).length > 0 ? { ...others, flowstack } : others;
      const rest = { ...part, providerOptions };
      if (Object.keys(providerOptions).length === 0)
        delete (rest as { providerOptions?: unknown }).providerOptions;
      const text = sealer?.open(sealed);
      if (text === undefined) {
        unopened.add(part.toolCallId);
        return rest;
      }
      return { ...rest, input: JSON.parse(text) as unknown };
    });
    return { ...message, content } as LanguageModelV3Message;
  });
  return { messages: opened, unopened };
}

function sealedOf(part: { providerOptions?: { flowstack?: Record<string, unknown> } }): string | undefined {
  const sealed = part.providerOptions?.flowstack?.[sealedInputKey];
  return typeof sealed === 'string' ? sealed : undefined;
}
