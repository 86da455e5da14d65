/**
 * The words a person reads for a tool call: the tool's title and its arguments' titles, taken from the
 * developer's tool definition (docs/decisions/0088). A tool whose description comes from a source the
 * agent does not trust is named by its name and its arguments by theirs, so a server's words never stand
 * in for what a person approves.
 */
import type { JsonSchema, ToolSpec } from '../spec/index.js';

/** What `describeCall` shows a call by. */
export interface CallWords {
  /** The tool's title ("Book a flight"); absent for a tool shown by its name. */
  title?: string;
  toolName: string;
  /** Argument name → the title a person reads ("flight_id" → "Flight"). */
  argumentTitles: Readonly<Record<string, string>>;
  /** The argument names in the input schema's order: the order a prompt shows them in. */
  argumentOrder: readonly string[];
}

/** The tool's spec fields the words come from. */
export type DescribedTool = Pick<ToolSpec, 'name' | 'description' | 'inputSchema'> &
  Partial<Pick<ToolSpec, 'title' | 'untrustedDescription'>>;

/** A title or an argument title longer than this is not a title: the name stands in. */
const maxTitleChars = 80;
/** An argument's title or description is shown only when it is this short (a label, not an explanation). */
const maxLabelChars = 40;

/** The words for calls of `tool`; a tool that is not known, or not trusted, is shown by its names. */
export function wordsOfTool(toolName: string, tool: DescribedTool | undefined): CallWords {
  const order = argumentOrderOf(tool?.inputSchema);
  if (!tool || tool.untrustedDescription === true)
    return { toolName, argumentTitles: {}, argumentOrder: order };
  const title = titleOf(tool);
  return {
    ...(title !== undefined ? { title } : {}),
    toolName,
    argumentTitles: argumentTitlesOf(tool.inputSchema, order),
    argumentOrder: order,
  };
}

/** How a call reads: `Book a flight (Flight: "LH123", Passenger: "Ana")`, or `book_flight (…)` by name. */
export function describeCall(words: CallWords, input: unknown): string {
  return `${words.title ?? words.toolName}${describeArguments(input, words)}`;
}

/** The tool's own name for what it does: its title, else its description's first sentence. */
export function titleOf(tool: Pick<DescribedTool, 'title' | 'description'>): string | undefined {
  const first = (tool.description ?? '').trim().split(/(?<=[.!?])\s|\n/)[0];
  const title = oneLine(tool.title) ?? oneLine(first?.replace(/[.!?]$/, ''));
  if (title === undefined) return undefined;
  // A long title is shown by its beginning: the arguments, not the title, carry what is approved.
  return title.length <= maxTitleChars ? title : `${title.slice(0, maxTitleChars - 1).trimEnd()}…`;
}

/**
 * The (redacted) arguments in a line a person can read before deciding: ` (To: "ana", Amount: 10, Memo:
 * "Rent for…the flat")`. Every argument is shown — in the order of the tool's input schema, so the model
 * cannot push `amount` or `to` out of sight behind a long `memo` — and only long values are shortened, in
 * the middle, keeping how they begin and end (docs/decisions/0056).
 */
function describeArguments(input: unknown, words: CallWords): string {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return '';
  const values = input as Record<string, unknown>;
  const order = words.argumentOrder;
  const ordered = [
    ...order.filter((name) => Object.hasOwn(values, name)),
    ...Object.keys(values).filter((name) => !order.includes(name)),
  ];
  if (ordered.length === 0) return '';
  const parts = ordered.map(
    (name) => `${words.argumentTitles[name] ?? name}: ${abbreviate(JSON.stringify(values[name]) ?? 'null')}`,
  );
  return ` (${parts.join(', ')})`;
}

/** The property names of a tool's input schema, in the order the schema lists them. */
export function argumentOrderOf(schema: JsonSchema | undefined): string[] {
  const properties = propertiesOf(schema);
  return properties ? Object.keys(properties) : [];
}

/**
 * Each argument's `title`, else its short `description`. Two arguments a person could not tell apart —
 * the same title, or a title that is another argument's name — are both shown by their names.
 */
function argumentTitlesOf(schema: JsonSchema, names: readonly string[]): Record<string, string> {
  const properties = propertiesOf(schema) ?? {};
  const titles = new Map<string, string>();
  for (const name of names) {
    const property = properties[name] as { title?: unknown; description?: unknown } | undefined;
    const label = oneLine(property?.title) ?? oneLine(property?.description)?.replace(/\.$/, '');
    if (label !== undefined && label.length <= maxLabelChars) titles.set(name, label);
  }
  const shown = names.map((name) => (titles.get(name) ?? name).toLowerCase());
  const clear = ([name, title]: [string, string]) => {
    const key = title.toLowerCase();
    const sameTitle = shown.filter((s) => s === key).length > 1;
    const anotherName = names.some((other) => other !== name && other.toLowerCase() === key);
    return !sameTitle && !anotherName;
  };
  return Object.fromEntries([...titles].filter(clear));
}

function propertiesOf(schema: JsonSchema | undefined): Record<string, unknown> | undefined {
  const properties = (schema as { properties?: unknown } | undefined)?.properties;
  return properties !== null && typeof properties === 'object' && !Array.isArray(properties)
    ? (properties as Record<string, unknown>)
    : undefined;
}

/** A text fit to stand for a name: one line, not empty. */
function oneLine(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  return text !== '' && !/[\n\r]/.test(text) ? text : undefined;
}

/** A value longer than this is shown by its beginning and its end. */
const maxValueChars = 80;

function abbreviate(text: string): string {
  if (text.length <= maxValueChars) return text;
  const half = Math.floor((maxValueChars - 1) / 2);
  return `${text.slice(0, half)}…${text.slice(text.length - half)}`;
}
