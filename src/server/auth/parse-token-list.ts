/**
 * Reads bearer tokens and the principals they stand for from configuration text:
 * `alice=<token>,bob=<token>` (commas or new lines; `#` starts a comment), as in `FLOWSTACK_TOKENS` or a
 * tokens file. Every problem is reported at once.
 */
import { ConfigurationError } from '../../errors/index.js';

/** Tokens shorter than this are refused: a bearer token is a password. */
export const minTokenLength = 16;

/** Token → principal. */
export type TokenTable = ReadonlyMap<string, string>;

export function parseTokenList(text: string, source = 'FLOWSTACK_TOKENS'): TokenTable {
  const table = new Map<string, string>();
  const problems: string[] = [];
  const entries = text
    .split(/[,\n]/)
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => line !== '');
  for (const [index, entry] of entries.entries()) {
    const separator = entry.indexOf('=');
    const principal = separator > 0 ? entry.slice(0, separator).trim() : '';
    const token = separator > 0 ? entry.slice(separator + 1).trim() : '';
    if (!/^[\w.@-]{1,128}$/.test(principal)) {
      problems.push(
        `entry ${index + 1}: expected <principal>=<token> with a principal of letters, digits, . _ @ -`,
      );
      continue;
    }
    if (token.length < minTokenLength) {
      problems.push(
        `entry ${index + 1} (${principal}): the token must have at least ${minTokenLength} characters`,
      );
      continue;
    }
    if (table.has(token)) problems.push(`entry ${index + 1} (${principal}): the token is already used`);
    table.set(token, principal);
  }
  if (problems.length > 0) throw new ConfigurationError({ message: `${source} is invalid.`, problems });
  return table;
}
