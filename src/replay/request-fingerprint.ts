/**
 * What a model request looks like, in a few characters: a recorded answer is used on replay only when the
 * request still fits it, so a changed prompt or tool set asks the model again instead of replaying an
 * answer given to another question.
 */
import type { LanguageModelV3CallOptions, LanguageModelV3Message } from '@ai-sdk/provider';
import { stableHash } from '../util/index.js';

/**
 * What must be the same for a recorded answer to fit: the number of prompt messages, the size of the
 * last one and the tools offered (a short hash of their names, which keeps the journal row small). Enough
 * to tell a replayed call from a different one without storing the prompt.
 */
export function fingerprintOf(call: LanguageModelV3CallOptions): string {
  const tools = call.tools ? toolsHash(call.tools) : '';
  return `${call.prompt.length}:${lastMessageSize(call)}:${tools}:${call.responseFormat?.type ?? 'text'}`;
}

/**
 * Whether an answer recorded by an earlier version fits this call: its fingerprint named the tools in
 * full, or measured the last message as its JSON text. Only a turn interrupted before an upgrade and
 * resumed after it has such rows, so this is asked only when a stored answer's fingerprint differs.
 */
export function fitsOlderFingerprint(recorded: string, call: LanguageModelV3CallOptions): boolean {
  const last = call.prompt.at(-1);
  const head = `${call.prompt.length}:${last ? JSON.stringify(last.content).length : 0}:`;
  const format = `:${call.responseFormat?.type ?? 'text'}`;
  const tools = !call.tools
    ? ''
    : recorded.includes(':#')
      ? toolsHash(call.tools)
      : call.tools.map((t) => t.name).join(',');
  return recorded === `${head}${tools}${format}`;
}

/**
 * The size of the prompt's last message: the length of its texts, ids and tool names, and of the JSON of
 * any other value.
 */
function lastMessageSize(call: LanguageModelV3CallOptions): number {
  const last = call.prompt.at(-1);
  if (!last) return 0;
  // A system message's content is its text; every other message's is a list of parts.
  if (typeof last.content === 'string') return last.content.length;
  let size = 0;
  for (const part of last.content) size += partSize(part);
  return size;
}

function partSize(part: Exclude<LanguageModelV3Message['content'], string>[number]): number {
  const p = part as Partial<
    Record<'type' | 'text' | 'toolCallId' | 'toolName' | 'input' | 'output', unknown>
  >;
  switch (p.type) {
    case 'text':
    case 'reasoning':
      return 1 + valueSize(p.text);
    case 'tool-call':
      return 1 + valueSize(p.toolCallId) + valueSize(p.toolName) + valueSize(p.input);
    case 'tool-result': {
      const output = p.output as { type?: unknown; value?: unknown } | undefined;
      return (
        1 +
        valueSize(p.toolCallId) +
        valueSize(p.toolName) +
        valueSize(output?.type) +
        valueSize(output?.value)
      );
    }
    default:
      return 1 + valueSize(part);
  }
}

function valueSize(value: unknown): number {
  return typeof value === 'string' ? value.length : (JSON.stringify(value)?.length ?? 0);
}

/** The hash of each list of offered tools: a run offers the same list at every step. */
const hashedTools = new WeakMap<readonly { name: string }[], string>();

/** The offered tools, as `#` and a 12-hex hash of their names. */
function toolsHash(tools: readonly { name: string }[]): string {
  let hash = hashedTools.get(tools);
  if (hash === undefined) {
    hash = `#${stableHash(tools.map((t) => t.name).join(',')).slice(0, 12)}`;
    hashedTools.set(tools, hash);
  }
  return hash;
}
