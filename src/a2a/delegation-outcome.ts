/**
 * How a delegated A2A task ended — or why it waits — as plain data.
 */
export type DelegationOutcome =
  | {
      status: 'completed';
      agentId: string;
      taskId: string;
      /** The task's text output: its artifacts' text and data parts, else its final status message. */
      text: string;
      artifacts: { name: string; text: string }[];
    }
  | { status: 'input-required'; agentId: string; taskId: string; question: string }
  | { status: 'failed'; agentId: string; taskId?: string; state: string; message: string };
