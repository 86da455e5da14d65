/** The decisions of the runtime's own questions, by question kind (src/hitl/decision-feedback.ts). */
const decisions: Record<string, readonly string[]> = {
  outcome_unknown: ['happened', 'not-happened', 'skip'],
  rollback: ['rollback', 'keep', 'continue'],
};

/**
 * `--answer` as the question takes it: for an unknown outcome or a failed file change, a bare decision
 * word (`--answer rollback`) is that decision (`{ decision: 'rollback' }`); anything else is passed as
 * given, and the agent checks it against the question's schema.
 */
export function decisionAnswer(kind: string | undefined, answer: unknown): unknown {
  const known = decisions[kind ?? ''];
  return typeof answer === 'string' && known?.includes(answer) ? { decision: answer } : answer;
}
