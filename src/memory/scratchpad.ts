/**
 * The session scratchpad (seed 000 memory manager): at most 64 short snippets, least recently used
 * first. Writing or reading an entry makes it the most recent; a write past the bound evicts the least
 * recently used. Pure functions: each returns a new list.
 */
import { defaultBounds, type ScratchpadEntry } from '../spec/index.js';

/** Default bound on scratchpad entries: the one table's (`defaultBounds`, DESIGN.md §5). */
export const defaultScratchpadSize = defaultBounds.limits.maxScratchpadEntries;

/** Longest snippet kept, in characters; the scratchpad holds summaries, not tool output. */
export const maxScratchpadTextChars = 2_000;

export interface ScratchpadWrite {
  /** Entries with the same key are replaced; defaults to a key made from the source and position. */
  key?: string;
  text: string;
  source: string;
  time: number;
}

/** Writes one entry as the most recent, evicting the least recently used past `maxEntries`. */
export function writeScratchpad(
  entries: readonly ScratchpadEntry[],
  write: ScratchpadWrite,
  options: { maxEntries?: number } = {},
): ScratchpadEntry[] {
  const max = options.maxEntries ?? defaultScratchpadSize;
  const text =
    write.text.length > maxScratchpadTextChars
      ? `${write.text.slice(0, maxScratchpadTextChars)}…`
      : write.text;
  const key = write.key ?? `${write.source}:${write.time}:${entries.length}`;
  const kept = entries.filter((e) => e.key !== key);
  return [...kept, { key, text, source: write.source, time: write.time }].slice(-max);
}

/**
 * Reads entries (all, or those with the given keys or source), newest first, at most `limit`; the
 * entries read become the most recently used.
 */
export function readScratchpad(
  entries: readonly ScratchpadEntry[],
  query: { keys?: readonly string[]; source?: string; limit?: number } = {},
): { found: ScratchpadEntry[]; entries: ScratchpadEntry[] } {
  const matches = entries.filter(
    (e) =>
      (query.keys === undefined || query.keys.includes(e.key)) &&
      (query.source === undefined || e.source === query.source),
  );
  const found = matches.slice(-(query.limit ?? entries.length)).reverse();
  const touched = new Set(found.map((e) => e.key));
  const next = [...entries.filter((e) => !touched.has(e.key)), ...[...found].reverse()];
  return { found, entries: next };
}
