/**
 * Reads a chat message as the answer to an open question, so a person can answer in words ("yes",
 * "no, use the other card", "2026-12-05", "the second one") as well as through the API. Where the answer
 * lets something run — an approval, a confirmation, "it did not happen" to an unknown outcome — only a
 * clear answer counts (`readYesNo`); a message that starts like one but is not clear is `unclear`, and
 * the person is asked again. `undefined` means the message does not answer the question; it is then
 * routed as a message.
 */
import type { FeedbackSchema, SuspensionRecord } from '../spec/index.js';
import { type AnswerTarget, readYesNo, type YesNoReading } from './read-yes-no.js';

export type TextAnswer =
  /** The answer, in the shape of the question's feedback; `target` when the message named a question. */
  | { kind: 'answer'; answer: unknown; target?: AnswerTarget }
  /** It looks like an answer but is not a clear one: ask again, with this hint. */
  | { kind: 'unclear'; hint: string };

const unclearYesNo = 'I need a clear yes or no; a question or a "but" is not a yes.';

/** The answer a message gives to a question, or `undefined` when it answers nothing. */
export function answerFromText(record: SuspensionRecord, text: string): unknown {
  const read = readTextAnswer(record, text);
  return read?.kind === 'answer' ? read.answer : undefined;
}

/** Like `answerFromText`, telling an unclear answer apart from a message that is no answer at all. */
export function readTextAnswer(record: SuspensionRecord, text: string): TextAnswer | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  switch (record.kind) {
    case 'approval':
    case 'outcome_unknown':
      return answerOfReading(record, readYesNo(trimmed), trimmed);
    case 'rollback': {
      const word = trimmed.toLowerCase().match(/\b(roll ?back|undo|restore|keep|continue)\b/)?.[1];
      if (!word) return undefined;
      return {
        kind: 'answer',
        answer: { decision: word === 'keep' ? 'keep' : word === 'continue' ? 'continue' : 'rollback' },
      };
    }
    default: {
      if (record.feedback.type === 'confirm') return answerOfReading(record, readYesNo(trimmed), trimmed);
      const answer = answerByType(record.feedback, trimmed);
      return answer === undefined ? undefined : { kind: 'answer', answer };
    }
  }
}

/**
 * What a yes or no means for a question: an approval approves or rejects (with the reason); a confirm
 * question is true or false; an unknown outcome "happened" on a yes, but runs again only on words that
 * say it did not happen — a bare no, or "no idea", is asked again.
 */
export function answerOfReading(
  record: SuspensionRecord,
  reading: YesNoReading | undefined,
  text: string,
): TextAnswer | undefined {
  if (record.kind === 'outcome_unknown') return readOutcome(record, reading, text);
  if (reading === undefined) return undefined;
  if (reading.answer === 'unclear') return { kind: 'unclear', hint: unclearYesNo };
  const target = reading.target !== undefined ? { target: reading.target } : {};
  if (record.kind === 'approval') {
    if (reading.answer === 'yes') return { kind: 'answer', answer: { decision: 'approve' }, ...target };
    const answer = reading.reason ? { decision: 'reject', reason: reading.reason } : { decision: 'reject' };
    return { kind: 'answer', answer, ...target };
  }
  if (record.feedback.type === 'confirm')
    return { kind: 'answer', answer: reading.answer === 'yes', ...target };
  return { kind: 'unclear', hint: unclearYesNo };
}

const skipped = /^(?:skip|skip it|skip this|skip that|leave it out)[.!]*$/;
const happened =
  /^(?:(?:yes|yeah|yep)[\s,.!]*)?(?:it\s+)?(?:did(?:\s+(?:happen|go through|take effect))?|happened|has happened|went through|took effect)[.!]*$/;
const notHappened =
  /^(?:(?:no|nope)[\s,.!]*)?(?:it\s+)?(?:did\s*not|didn't|didnt|has\s*not|hasn't|never)(?:\s+(?:happen(?:ed)?|go through|gone through|went through|take effect|taken effect|took effect))?[.!]*$/;
const notHappenedShort = /^(?:it\s+)?(?:has\s+)?not\s+happened[.!]*$/;

function readOutcome(record: SuspensionRecord, reading: YesNoReading | undefined, text: string): TextAnswer {
  const said = text.toLowerCase().replace(/[’‘]/g, "'").replace(/\s+/g, ' ');
  const target =
    reading && reading.answer !== 'unclear' && reading.target !== undefined ? { target: reading.target } : {};
  if (skipped.test(said)) return { kind: 'answer', answer: { decision: 'skip' } };
  if (notHappened.test(said) || notHappenedShort.test(said))
    return { kind: 'answer', answer: { decision: 'not-happened' } };
  if (happened.test(said) || (reading?.answer === 'yes' && !said.includes('?')))
    return { kind: 'answer', answer: { decision: 'happened' }, ...target };
  return {
    kind: 'unclear',
    hint: `I cannot tell from that whether the call to ${record.toolName ?? 'the tool'} took effect, so it did not run again.`,
  };
}

function answerByType(feedback: FeedbackSchema, text: string): unknown {
  switch (feedback.type) {
    case 'confirm': {
      const reading = readYesNo(text);
      return reading?.answer === 'yes' ? true : reading?.answer === 'no' ? false : undefined;
    }
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
