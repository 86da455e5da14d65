/**
 * Built-in fast paths (seed 003 decision layer): the common messages every agent answers without a
 * model call — a greeting, thanks, a request for help ("what can you do"), stop or cancel, yes or no to a
 * pending confirmation, "repeat that", "undo" and "where are we" (the status of the work or the plan).
 */
import { readConfirmation } from '../policy/index.js';

export type BuiltInFastPath =
  | 'greeting'
  | 'thanks'
  | 'help'
  | 'cancel'
  | 'confirm'
  | 'repeat'
  | 'undo'
  | 'status';

export type BuiltInDecision =
  | { builtIn: 'greeting' | 'thanks' | 'help' | 'repeat' | 'undo' | 'status' }
  | { builtIn: 'cancel' }
  | { builtIn: 'confirm'; answer: 'yes' }
  /** A no to the confirmation, with the reason the person gave ("no, too expensive"). */
  | { builtIn: 'confirm'; answer: 'no'; reason?: string };

const patterns: Array<[Exclude<BuiltInFastPath, 'confirm'>, RegExp]> = [
  ['cancel', /^(?:stop|cancel|cancel (?:that|it|this)|never ?mind|forget (?:it|that)|abort|quit)[.! ]*$/i],
  [
    'repeat',
    /^(?:repeat(?: that| it| please)?|say (?:that|it) again|come again|pardon|what did you (?:just )?say)[.!? ]*$/i,
  ],
  ['undo', /^(?:undo(?: that| it| this)?|go back|revert (?:that|it))[.! ]*$/i],
  [
    'status',
    /^(?:status|(?:what(?:'s| is) the )?status(?: of the plan)?|where are we(?: at)?|how far along are you|what are you (?:doing|working on)|progress)[.!?]*$/i,
  ],
  [
    'greeting',
    /^(?:hi|hello|hey|hiya|howdy|greetings|good (?:morning|afternoon|evening))(?: there)?[.!,]*(?: how are you\??)?$/i,
  ],
  [
    'thanks',
    /^(?:thanks|thank you|thx|ty|cheers|many thanks|much appreciated)(?: (?:a lot|so much|very much))?[.!]*$/i,
  ],
  ['help', /^(?:help|help me|\?|what can you do|what do you do|how can you help(?: me)?)[.!?]*$/i],
];

/** The built-in fast path a message takes, if any. `confirming` says a confirmation is pending. */
export function matchBuiltInFastPath(
  text: string,
  options: { confirming: boolean },
): BuiltInDecision | undefined {
  const trimmed = text.trim();
  if (options.confirming) {
    const answer = readConfirmation(trimmed);
    if (answer) return { builtIn: 'confirm', ...answer };
  }
  for (const [builtIn, pattern] of patterns) if (pattern.test(trimmed)) return { builtIn };
  return undefined;
}
