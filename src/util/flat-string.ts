/**
 * Returns `text` stored as one flat string. V8 builds a long string — the output of `JSON.stringify`
 * past a few dozen characters, a key or message put together with `+` or a template — as a rope: a tree
 * of pieces that stays a tree until something reads it as a whole. A rope kept for long (a row in the
 * memory store, a transcript message) costs a heap object per piece, and every garbage collection visits
 * them all. Converting the text to a number makes V8 flatten it in place (the collector then drops the
 * pieces); the conversion itself fails at once on anything that is not a number and costs one copy.
 */
export function flatString(text: string): string {
  Number(text);
  return text;
}
