/**
 * A chat message as the answer to a waiting run's questions: with one question open, the message
 * answers it if it can be read as an answer of that kind ("yes", "no, too expensive", an option, a
 * date …); with several approvals open, a plain yes or no answers them all. Returns the run with the
 * answers recorded, or `undefined` when the message answers nothing (it is then a message, not an answer).
 */

import type { SuspendedRun, SuspensionRecord } from '../../spec/index.js';
import { answerFromText, answerSuspension } from '../index.js';

export function answerRunFromText(
  run: SuspendedRun,
  text: string,
  options: { now: number; principal?: string },
): SuspendedRun | undefined {
  const open = run.suspensions.filter((s) => s.status === 'open');
  if (open.length === 0) return undefined;
  const together = open.length === 1 || open.every((s) => s.kind === 'approval');
  if (!together) return undefined;
  const answers = new Map<string, SuspensionRecord>();
  for (const question of open) {
    const answer = answerFromText(question, text);
    if (answer === undefined) return undefined;
    if (open.length > 1 && (answer as { reason?: string }).reason !== undefined) return undefined;
    try {
      answers.set(question.id, answerSuspension(question, { answer, ...options }));
    } catch {
      return undefined;
    }
  }
  return { ...run, suspensions: run.suspensions.map((s) => answers.get(s.id) ?? s) };
}
