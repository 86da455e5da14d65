/**
 * A chat message as the answer to a waiting run's questions. With one question open, the message answers
 * it if it can be read as an answer of that kind ("yes", "no, too expensive", an option, a date …). With
 * several open, a plain yes or no answers none of them — the person is asked which, by the numbers the
 * questions were listed with ("yes to 2", "no to 1, wrong table", "yes to all"). A message that looks
 * like an answer but is not a clear one is `unclear`: nothing is recorded, and the reply asks again.
 * `undefined` means the message answers nothing (it is then a message, not an answer).
 */

import type { SuspendedRun, SuspensionRecord } from '../../spec/index.js';
import { answerOfReading, answerSuspension, readTextAnswer, readYesNo, type TextAnswer } from '../index.js';

export type RunAnswer =
  | { kind: 'answered'; run: SuspendedRun }
  /** Nothing was recorded; `reply` says why and what a clear answer looks like. */
  | { kind: 'unclear'; reply: string };

export function answerRunFromText(
  run: SuspendedRun,
  text: string,
  options: { now: number; principal?: string },
): RunAnswer | undefined {
  const open = run.suspensions.filter((s) => s.status === 'open');
  if (open.length === 0) return undefined;
  const picked = open.length === 1 ? answerOne(open[0] as SuspensionRecord, text) : answerOneOf(open, text);
  if (picked === undefined || 'reply' in picked) return picked;
  const answers = new Map<string, SuspensionRecord>();
  for (const [question, answer] of picked.answers) {
    try {
      answers.set(question.id, answerSuspension(question, { answer, ...options }));
    } catch (error) {
      return { kind: 'unclear', reply: `That does not answer the question: ${(error as Error).message}` };
    }
  }
  return {
    kind: 'answered',
    run: { ...run, suspensions: run.suspensions.map((s) => answers.get(s.id) ?? s) },
  };
}

type Picked =
  | { answers: Array<[SuspensionRecord, unknown]> }
  | { kind: 'unclear'; reply: string }
  | undefined;

function answerOne(question: SuspensionRecord, text: string): Picked {
  const read = readTextAnswer(question, text);
  if (read === undefined) return undefined;
  if (read.kind === 'unclear') return { kind: 'unclear', reply: read.hint };
  if (read.target !== undefined && read.target !== 1 && read.target !== 'all')
    return { kind: 'unclear', reply: `Only one question is waiting, not ${read.target}.` };
  return { answers: [[question, read.answer]] };
}

/** Several questions open: the yes or no must say which one it answers, or "all". */
function answerOneOf(open: readonly SuspensionRecord[], text: string): Picked {
  const reading = readYesNo(text);
  if (reading === undefined) return undefined;
  const each = (question: SuspensionRecord): TextAnswer | undefined =>
    answerOfReading(question, reading, text);
  if (reading.answer === 'unclear') {
    const read = each(open[0] as SuspensionRecord);
    return { kind: 'unclear', reply: read?.kind === 'unclear' ? read.hint : 'I need a clear yes or no.' };
  }
  if (reading.target === undefined)
    return {
      kind: 'unclear',
      reply: `${open.length} questions are waiting, and a plain ${reading.answer} does not say which one it answers, so none was answered. Answer by number: "yes to 1", "no to 2, <reason>", or "${reading.answer} to all".`,
    };
  const targets = reading.target === 'all' ? open : [open[reading.target - 1]];
  const answers: Array<[SuspensionRecord, unknown]> = [];
  for (const question of targets) {
    if (question === undefined)
      return {
        kind: 'unclear',
        reply: `There is no question ${reading.target}; ${open.length} are waiting.`,
      };
    const read = each(question);
    if (read === undefined || read.kind === 'unclear')
      return {
        kind: 'unclear',
        reply: read?.hint ?? `"${text}" does not answer question ${open.indexOf(question) + 1}.`,
      };
    answers.push([question, read.answer]);
  }
  return { answers };
}
