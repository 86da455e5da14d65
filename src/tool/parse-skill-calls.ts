/**
 * The text skill-call protocol, for models without native tool calling (seed 003):
 * `<skill>name(a="x", n=3)</skill>`, and calls inside `<parallel>…</parallel>` share a parallel group.
 * Arguments are named Python or JSON literals, read by a scanner rather than `eval`, so strings may
 * hold `)`, quotes or `</skill>`. A call that cannot be read becomes a failed entry with the problem,
 * which `executeSkillCalls` answers to the model as a validation error; the other calls still run.
 */
import type { IdGenerator } from '../util/index.js';
import { parseLiteralArguments } from './internal/parse-literal-arguments.js';

export interface ParseSkillCallsOptions {
  /**
   * Makes call ids. They must be unique within a turn, because the idempotency key is thread + turn +
   * call id (docs/decisions/0003). Without it the entries carry no `callId` and the caller assigns
   * them (the skill loop does; `executeSkillCalls` makes random ones).
   */
  ids?: IdGenerator;
  /** Calls read from one text at most; the rest become one failed entry (default 32). */
  maxCalls?: number;
}

/**
 * One call found in the text: read (its arguments as JSON text, ready for `executeToolBatch`), or not
 * read, with the `problem` to tell the model. The shape of the skill loop's `parseTextToolCalls` seam.
 */
export type ParsedSkillCall =
  | { toolName: string; input: string; callId?: string; parallelGroup?: string }
  | {
      /** The name, when it could be read. */
      toolName: string;
      problem: string;
      callId?: string;
      /** The start of the malformed call as written (at most 200 characters). */
      source: string;
    };

export interface ParsedSkillText {
  /** The text outside the calls and tags, trimmed. */
  text: string;
  /** Every call in order of appearance, read or not. */
  calls: ParsedSkillCall[];
}

const toolName = /[A-Za-z_][A-Za-z0-9_.-]*/y;

/**
 * @example
 * parseSkillCalls('Checking both.<parallel><skill>price(coin="BTC")</skill><skill>price(coin="ETH")</skill></parallel>');
 * // { text: 'Checking both.', calls: [{ toolName: 'price', input: '{"coin":"BTC"}', parallelGroup: 'parallel-1' }, …] }
 */
export function parseSkillCalls(text: string, options: ParseSkillCallsOptions = {}): ParsedSkillText {
  const ids = options.ids;
  const maxCalls = options.maxCalls ?? 32;
  const calls: ParsedSkillCall[] = [];
  let prose = '';
  let group: string | undefined;
  let groups = 0;
  let skipped = 0;
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf('<', i);
    if (open < 0) {
      prose += text.slice(i);
      break;
    }
    prose += text.slice(i, open);
    if (isTag(text, open, '<skill>')) {
      if (calls.length >= maxCalls) {
        skipped++;
        const close = findTag(text, open, '</skill>');
        i = close < 0 ? text.length : close + 8;
        continue;
      }
      const parsed = readCall(text, open, ids, group);
      calls.push(parsed.call);
      i = parsed.end;
    } else if (isTag(text, open, '<parallel>')) {
      group = `parallel-${++groups}`;
      i = open + 10;
    } else if (isTag(text, open, '</parallel>')) {
      group = undefined;
      i = open + 11;
    } else {
      prose += '<';
      i = open + 1;
    }
  }
  if (skipped > 0) {
    calls.push({
      ...(ids ? { callId: ids('call') } : {}),
      toolName: '',
      problem: `${skipped} more calls were not run: at most ${maxCalls} calls are read from one reply`,
      source: '',
    });
  }
  return { text: prose.trim(), calls };
}

function readCall(
  text: string,
  open: number,
  ids: IdGenerator | undefined,
  group: string | undefined,
): { call: ParsedSkillCall; end: number } {
  const id = ids ? { callId: ids('call') } : {};
  let name = '';
  const failed = (problem: string) => {
    const close = findTag(text, open + 7, '</skill>');
    const end = close < 0 ? text.length : close + 8;
    const source = text.slice(open, Math.min(end, open + 200));
    return { call: { ...id, toolName: name, problem, source }, end };
  };
  let i = skipSpace(text, open + 7);
  toolName.lastIndex = i;
  const match = toolName.exec(text);
  if (!match) return failed('expected a tool name after <skill>');
  name = match[0];
  i = skipSpace(text, i + name.length);
  if (text[i] !== '(') return failed(`expected '(' after the tool name '${name}'`);
  const args = parseLiteralArguments(text, i + 1);
  if (!args.ok) return failed(args.problem);
  i = skipSpace(text, args.end);
  if (!isTag(text, i, '</skill>')) return failed(`expected </skill> after the call to '${name}'`);
  const call: ParsedSkillCall = { ...id, toolName: name, input: JSON.stringify(args.args) };
  if (group !== undefined) call.parallelGroup = group;
  return { call, end: i + 8 };
}

function isTag(text: string, at: number, tag: string): boolean {
  return text.slice(at, at + tag.length).toLowerCase() === tag;
}

/** The next `tag` (any case) at or after `from`, or -1. */
function findTag(text: string, from: number, tag: string): number {
  for (let at = text.indexOf('<', from); at >= 0; at = text.indexOf('<', at + 1))
    if (isTag(text, at, tag)) return at;
  return -1;
}

function skipSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && /\s/.test(text[i] as string)) i++;
  return i;
}
