/**
 * A string pattern matches as a substring, a RegExp by `test`. `lastIndex` is reset first so that a
 * global or sticky RegExp matches the same way on every call.
 */
export function matchesText(pattern: string | RegExp | undefined, text: string | undefined): boolean {
  if (pattern === undefined) return true;
  if (text === undefined) return false;
  if (typeof pattern === 'string') return text.includes(pattern);
  pattern.lastIndex = 0;
  return pattern.test(text);
}
