/** The first stop character found at or after `from` (-1: none before `searchedTo`). */
export interface StopMemo {
  readonly from: number;
  readonly found: number;
  readonly searchedTo: number;
}

/** Index of the first `stop` character in [from, limit), or -1; amortised over increasing `from`. */
export function findStop(
  stop: RegExp,
  text: string,
  from: number,
  limit: number,
  memo: Map<RegExp, StopMemo>,
): number {
  const to = Math.min(limit, text.length);
  if (from >= to) return -1;
  const known = memo.get(stop);
  let start = from;
  if (known !== undefined && from >= known.from) {
    if (known.found >= from) return known.found < to ? known.found : -1;
    if (known.found < 0) {
      if (known.searchedTo >= to) return -1;
      start = Math.max(from, known.searchedTo);
    }
  }
  stop.lastIndex = 0;
  const match = stop.exec(text.slice(start, to));
  const found = match === null ? -1 : start + match.index;
  memo.set(stop, { from, found, searchedTo: found >= 0 ? found : to });
  return found;
}
