/**
 * Splits text into at most `pieces` chunks, like a provider streams it: at word boundaries when
 * there are enough words, else evenly by characters (never inside a surrogate pair). Joining the
 * chunks gives the text back; empty text gives no chunks.
 */
export function splitText(text: string, pieces = 3): string[] {
  if (text === '') return [];
  const words = text.split(/(?<=\s)(?=\S)/);
  const units = words.length >= pieces ? words : Array.from(text);
  const size = Math.ceil(units.length / Math.min(pieces, units.length));
  const chunks: string[] = [];
  for (let start = 0; start < units.length; start += size)
    chunks.push(units.slice(start, start + size).join(''));
  return chunks;
}
