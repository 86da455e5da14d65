/**
 * The exit codes of `flowstack`, for scripts.
 */
export const exitCodes = {
  /** Done; for `run`, the turn completed. */
  ok: 0,
  /** The turn failed, or an error stopped the command. */
  failed: 1,
  /** The command line is wrong. */
  usage: 2,
  /** `run`: the agent waits for the user (a question, or an approval). */
  waiting: 3,
  /** No such thread (or example). */
  notFound: 4,
  /** The agent cannot do this yet (no resume or rollback). */
  unsupported: 5,
} as const;

export type ExitCode = (typeof exitCodes)[keyof typeof exitCodes];
