/**
 * One kept copy of texts that many live objects hold equal: a skill's system prompt is composed afresh for
 * every skill run, and with many runs in flight each held its own copy of the same few hundred characters.
 * The table is bounded: when it is full it is emptied and fills again with the texts in use, so texts that
 * differ per run (slot values in a prompt) cost a lookup and are never kept for long.
 */
export interface TextInterner {
  /** The kept text equal to `text`, or `text` itself (now kept) when none is. */
  intern(text: string): string;
  readonly size: number;
}

export function createTextInterner(options: { maxEntries: number; maxLength: number }): TextInterner {
  const kept = new Map<string, string>();
  return {
    intern(text) {
      if (text.length > options.maxLength) return text;
      const hit = kept.get(text);
      if (hit !== undefined) return hit;
      if (kept.size >= options.maxEntries) kept.clear();
      kept.set(text, text);
      return text;
    },
    get size() {
      return kept.size;
    },
  };
}
