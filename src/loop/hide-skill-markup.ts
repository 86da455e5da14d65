/**
 * The live text of a model that writes its tool calls in text (`toolCalling: 'text'`): the prose reaches
 * the reader as it is written, the `<skill>…</skill>` calls and `<parallel>` tags do not. A piece that
 * could still become a tag is held back until it is decided. Quoting inside a call is not read: a call
 * whose string holds `</skill>` may show its tail live; the stored reply is read by `parseSkillCalls`.
 */

/** Filters one answer's deltas; `end()` releases what was held back. */
export interface SkillMarkupFilter {
  push(delta: string): string;
  end(): string;
}

const tags = ['<skill>', '<parallel>', '</parallel>'] as const;

export function createSkillMarkupFilter(): SkillMarkupFilter {
  let held = '';
  let inCall = false;
  const drain = (final: boolean): string => {
    let out = '';
    for (;;) {
      if (inCall) {
        const close = held.toLowerCase().indexOf('</skill>');
        if (close < 0) {
          // Keep only what could be the start of the closing tag.
          held = held.slice(Math.max(0, held.length - 7));
          return out;
        }
        held = held.slice(close + 8);
        inCall = false;
        continue;
      }
      const open = held.indexOf('<');
      if (open < 0) {
        out += held;
        held = '';
        return out;
      }
      out += held.slice(0, open);
      held = held.slice(open);
      const lower = held.toLowerCase();
      const tag = tags.find((t) => lower.startsWith(t));
      if (tag === '<skill>') {
        held = held.slice(tag.length);
        inCall = true;
        continue;
      }
      if (tag !== undefined) {
        held = held.slice(tag.length);
        continue;
      }
      if (!final && tags.some((t) => t.startsWith(lower))) return out;
      out += '<';
      held = held.slice(1);
    }
  };
  return {
    push: (delta) => {
      held += delta;
      return drain(false);
    },
    end: () => {
      const out = inCall ? '' : drain(true);
      held = '';
      inCall = false;
      return out;
    },
  };
}
