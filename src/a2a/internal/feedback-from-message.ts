/**
 * The feedback an A2A client's message gives to a suspension: a data part is taken as it is (for
 * example `{ "decision": "approve" }`); text that says yes or no becomes an approval decision, with
 * what follows a no as the reason; any other text is given as `{ text }`.
 */
import type { Message } from '@a2a-js/sdk';
import { readData, readText } from './a2a-parts.js';

export function feedbackFromMessage(message: Message): unknown {
  const data = readData(message);
  if (data !== undefined) return data;
  const text = readText(message).trim();
  if (/^(yes|y|ok|okay|approve|approved|go ahead)\b[.!]*$/i.test(text)) return { decision: 'approve' };
  const no = /^(no|n|reject|rejected|deny|denied)\b[\s,.:;!-]*(.*)$/is.exec(text);
  if (no) return { decision: 'reject', reason: no[2]?.trim() || 'Rejected by the A2A client.' };
  return { text };
}
