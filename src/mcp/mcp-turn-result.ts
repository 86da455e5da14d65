/**
 * A turn as an MCP tool returns it: the reply as text for the model on the other side, and the turn's
 * outcome as structured content — its status, the question it asks, and the suspensions it waits on with
 * what each takes as an answer — so that a client can answer them with the `answer` and `approve` tools.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { SuspensionView, TurnResult } from '../turn/index.js';

/** One suspension as the client sees it: enough to decide, never the run's internals. */
export interface McpSuspension {
  suspensionId: string;
  kind: SuspensionView['kind'];
  prompt: string;
  toolName?: string;
  /** The call's arguments (redacted) that an approval is about. */
  input?: unknown;
  /** The answer it takes, as the agent's feedback schema. */
  feedback: SuspensionView['feedback'];
}

export interface McpTurnOutcome {
  threadId: string;
  turnId: string;
  status: TurnResult['status'];
  reply: string;
  /** The question the thread's next message answers (send it with `send_message`). */
  question?: string;
  suspensions: McpSuspension[];
}

export function toMcpOutcome(result: TurnResult): McpTurnOutcome {
  const outcome: McpTurnOutcome = {
    threadId: result.threadId,
    turnId: result.turnId,
    status: result.status,
    reply: result.reply,
    suspensions: (result.suspensions ?? []).filter((s) => s.status === 'open').map(toMcpSuspension),
  };
  if (result.pending) outcome.question = result.pending.question;
  return outcome;
}

export function toToolResult(result: TurnResult): CallToolResult {
  const outcome = toMcpOutcome(result);
  const lines = [outcome.reply];
  for (const suspension of outcome.suspensions)
    lines.push(
      `Waiting for an answer (${suspension.kind}, suspension ${suspension.suspensionId}): ${suspension.prompt}`,
    );
  return {
    content: [{ type: 'text', text: lines.filter((line) => line !== '').join('\n\n') }],
    structuredContent: { ...outcome },
    // A failed turn is the agent's error, which the calling model should see as one.
    ...(outcome.status === 'failed' ? { isError: true } : {}),
  };
}

function toMcpSuspension(view: SuspensionView): McpSuspension {
  const suspension: McpSuspension = {
    suspensionId: view.id,
    kind: view.kind,
    prompt: view.prompt,
    feedback: view.feedback,
  };
  if (view.toolName !== undefined) suspension.toolName = view.toolName;
  if (view.input !== undefined) suspension.input = view.input;
  return suspension;
}
