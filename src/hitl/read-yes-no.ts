/**
 * Reads a chat message as a yes or a no to a question a person was asked before something runs. Only a
 * clear answer counts: a yes is nothing but yes-words ("yes", "ok, go ahead", "sure, please"); a no may
 * carry a reason after a comma or "because" ("no, too expensive"). A message that starts like an answer
 * but says more — a question ("Yes? what would that delete?"), a "but" ("ok, but first tell me …"), a
 * sentence ("Sure thing is that I do not want this") — is `unclear`: it approves nothing, and the person
 * is asked again. A message that does not start like an answer is not one (`undefined`).
 *
 * With several calls waiting, a yes or no may name which: "yes to 2", "no to 1, wrong table", "yes to all".
 */

/** The waiting question a yes or no is meant for: its number in the list the person was shown, or all. */
export type AnswerTarget = number | 'all';

export type YesNoReading =
  | { answer: 'yes'; target?: AnswerTarget }
  | { answer: 'no'; target?: AnswerTarget; reason?: string }
  | { answer: 'unclear' };

const yesWord =
  '(?:y|yes|yeah|yep|yup|sure|ok|okay|go ahead|do it|approved?|confirm(?:ed)?|please do|proceed|allow it|go for it|absolutely|of course|continue|go on|carry on|keep going)';
const politeWord = '(?:please|thanks|thank you)';
const noWord =
  "(?:n|no|nope|nah|no thanks|no thank you|no way|don't|dont|do not|stop|cancel|abort|reject(?:ed)?|deny|denied|refused?)";
const target = String.raw`(?:(?:to|for)\s+)?(?:number\s+|#\s*)?(\d{1,3}|all of them|all|both|everything)`;
const gap = String.raw`[\s,;!.]+`;

const clearYes = new RegExp(
  String.raw`^${yesWord}(?:${gap}(?:${yesWord}|${politeWord}))*(?:${gap}${target})?(?:${gap}(?:${yesWord}|${politeWord}))*[\s!.]*$`,
);
/** A no, a target, then the end or a separator and a reason. */
const clearNo = new RegExp(
  String.raw`^${noWord}(?:[\s,]+${target})?(?:[\s!.]*$|\s*(?:[,;:.!]|-+|—|–|\s(?:because|since|as|it's|it is|that's|that is)\b)\s*(.*)$)`,
);
/** "Don't send it", "do not do that": a no, though more than a no-word. */
const dontDoIt = /^(?:don't|dont|do not)\s+(?!know\b|care\b|mind\b|understand\b|see\b)[a-z' ]+[.!]*$/;
const startsLikeAnAnswer = new RegExp(String.raw`^(?:${yesWord}|${noWord})\b`);

/** Longer than this, a message is more than a yes or a no. */
const maxAnswerChars = 300;

export function readYesNo(text: string): YesNoReading | undefined {
  const said = text.trim().toLowerCase().replace(/[’‘]/g, "'").replace(/\s+/g, ' ');
  if (said === '' || !startsLikeAnAnswer.test(said)) return undefined;
  // A question is never an answer, however it starts.
  if (said.includes('?') || said.length > maxAnswerChars) return { answer: 'unclear' };
  const yes = clearYes.exec(said);
  if (yes) return withTarget({ answer: 'yes' }, yes[1]);
  const no = clearNo.exec(said);
  if (no) {
    const reason = no[2]?.trim();
    if (reason !== undefined && /^but\b/.test(reason)) return { answer: 'unclear' };
    const reading: YesNoReading = reason
      ? { answer: 'no', reason: originalReason(text, reason) }
      : { answer: 'no' };
    return withTarget(reading, no[1]);
  }
  if (dontDoIt.test(said)) return { answer: 'no' };
  return { answer: 'unclear' };
}

function withTarget<T extends YesNoReading>(reading: T, word: string | undefined): T {
  if (word === undefined) return reading;
  const number = Number(word);
  return { ...reading, target: Number.isInteger(number) ? number : 'all' };
}

/** The reason as the person wrote it (their case), found at the end of their message. */
function originalReason(text: string, lowered: string): string {
  const trimmed = text.trim();
  const tail = trimmed.slice(Math.max(0, trimmed.length - lowered.length));
  return tail.toLowerCase().replace(/[’‘]/g, "'") === lowered ? tail : lowered;
}
