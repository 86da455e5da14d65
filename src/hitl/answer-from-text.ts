/**
 * Reads a chat message as the answer to an open question, so a person can answer in words ("yes",
 * "no, use the other card", "2026-12-05", "the second one") as well as through the API. Returns
 * `undefined` when the message does not answer the question; it is then routed as a message.
 */
import type { FeedbackSchema, SuspensionRecord } from '../spec/index.js';

const yes =
  /^\s*(y|yes|yeah|yep|sure|ok|okay|go ahead|do it|approve[ds]?|confirm(ed)?|please do|it did|it happened)\b/i;
const no =
  /^\s*(n|no|nope|don'?t|do not|stop|cancel|reject(ed)?|deny|denied|refuse[ds]?|it did not|it didn'?t)\b/i;

export function answerFromText(record: SuspensionRecord, text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  switch (record.kind) {
    case 'approval': {
      if (yes.test(trimmed)) return { decision: 'approve' };
      if (!no.test(trimmed)) return undefined;
      const reason = trimmed
        .replace(no, '')
        .replace(/^[\s,.:;!-]+/, '')
        .trim();
      return reason ? { decision: 'reject', reason } : { decision: 'reject' };
    }
    case 'outcome_unknown':
      if (/\bskip\b/i.test(trimmed)) return { decision: 'skip' };
      if (yes.test(trimmed)) return { decision: 'happened' };
      if (no.test(trimmed)) return { decision: 'not-happened' };
      return undefined;
    case 'rollback': {
      const word = trimmed.toLowerCase().match(/\b(roll ?back|undo|restore|keep|continue)\b/)?.[1];
      if (!word) return undefined;
      return { decision: word === 'keep' ? 'keep' : word === 'continue' ? 'continue' : 'rollback' };
    }
    default:
      return answerByType(record.feedback, trimmed);
  }
}

function answerByType(feedback: FeedbackSchema, text: string): unknown {
  switch (feedback.type) {
    case 'confirm':
      return yes.test(text) ? true : no.test(text) ? false : undefined;
    case 'text':
      return text;
    case 'select':
      return pickOption(feedback.options, text);
    case 'multiselect': {
      const picked = text.split(/\s*(?:,|;|\band\b)\s*/i).map((part) => pickOption(feedback.options, part));
      return picked.every((p) => p !== undefined) ? [...new Set(picked)] : undefined;
    }
    case 'number': {
      const value = Number(text.replace(/[, _]/g, ''));
      return Number.isFinite(value) ? value : undefined;
    }
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(text) ? text : undefined;
    case 'custom':
      try {
        return JSON.parse(text);
      } catch {
        return undefined;
      }
  }
}

/** An option by its exact name (any case) or its 1-based number in the list. */
function pickOption(options: readonly string[], text: string): string | undefined {
  const wanted = text.trim().toLowerCase();
  const byName = options.find((o) => o.toLowerCase() === wanted);
  if (byName) return byName;
  const index = Number(wanted);
  return Number.isInteger(index) && index >= 1 && index <= options.length ? options[index - 1] : undefined;
}
