/**
 * The reply to a run that ended because a person said no to a call: their decision, said back in plain
 * words — what was not done, named by the tool's title, and the reason they gave — rather than an error
 * (docs/decisions/0088). The model still reads the refusal in its transcript; this is what the user reads.
 */
import { type DescribedTool, wordsOfTool } from '../hitl/index.js';

/** One refused call: the tool it was for and the person's reason, if any. */
export interface Refusal {
  toolName: string;
  reason?: string;
}

/**
 * `OK, I did not go ahead with "Book a flight" (too expensive).` — each refused action once, in the order
 * they were refused; a tool the agent does not trust the words of is named by its name.
 *
 * @example
 * describeRefusals([{ toolName: 'book_flight', reason: 'too expensive' }], (name) => tools.get(name));
 */
export function describeRefusals(
  refusals: readonly Refusal[],
  toolOf: (toolName: string) => DescribedTool | undefined,
): string {
  const named = refusals.map(({ toolName, reason }) => {
    const words = wordsOfTool(toolName, toolOf(toolName));
    return `"${words.title ?? toolName}"${reason ? ` (${reason})` : ''}`;
  });
  const distinct = [...new Set(named)];
  const listed =
    distinct.length <= 1
      ? (distinct[0] ?? 'that')
      : `${distinct.slice(0, -1).join(', ')} or ${distinct.at(-1)}`;
  return `OK, I did not go ahead with ${listed}.`;
}
