/**
 * RES (seed 000): turns what the flows of a turn produced into the reply the user reads — the
 * ambiguity (a question) first, then each part's text, with display frames alongside. Parts marked
 * silent (Plan and Internal flows that keep going) add no text of their own.
 */
import type { DisplayFrame } from './display-frame.js';

export interface ReplyPart {
  text: string;
  frame?: DisplayFrame;
  /** A Plan or Internal flow with keepGoing: its frame (if any) is kept, its text is not said. */
  silent?: boolean;
}

export interface ComposedReply {
  text: string;
  frames: DisplayFrame[];
}

export function composeReply(parts: readonly ReplyPart[], question?: string): ComposedReply {
  const texts = parts
    .filter((p) => !p.silent)
    .map((p) => p.text.trim())
    .filter((t) => t !== '');
  const frames = parts.flatMap((p) => (p.frame ? [p.frame] : []));
  const warnings = frames.flatMap((f) =>
    f.warning && !texts.some((t) => t.includes(f.warning as string)) ? [f.warning] : [],
  );
  const ordered = question ? [question, ...texts, ...warnings] : [...texts, ...warnings];
  return { text: ordered.join('\n\n'), frames };
}
