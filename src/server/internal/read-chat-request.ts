/**
 * What a `useChat` request asks for, read from its last UI message: a user message is the next thing the
 * user says; an assistant message whose tool parts were answered (`addToolApprovalResponse`) carries
 * answers to the thread's approvals — the approval id is the suspension id.
 */
import type { z } from 'zod';
import type { chatBody } from '../api-schemas.js';
import { type ProblemDetails, problem } from '../problem-details.js';

export interface ChatApprovalAnswer {
  suspensionId: string;
  toolCallId: string;
  approved: boolean;
  reason?: string;
}

export type ChatRequest =
  | { kind: 'message'; text: string }
  | { kind: 'answers'; answers: ChatApprovalAnswer[] }
  | { kind: 'invalid'; problem: ProblemDetails };

type UiMessage = z.infer<typeof chatBody>['messages'][number];

export function readChatRequest(messages: readonly UiMessage[]): ChatRequest {
  const last = messages.at(-1);
  if (last?.role === 'user') {
    const text = last.parts.flatMap((part) =>
      part.type === 'text' && typeof part.text === 'string' ? [part.text] : [],
    );
    if (text.join('').trim() === '')
      return {
        kind: 'invalid',
        problem: problem(400, 'empty_message', 'The last user message has no text part.'),
      };
    return { kind: 'message', text: text.join('\n') };
  }
  const answers = (last?.parts ?? []).flatMap((part): ChatApprovalAnswer[] => {
    const isTool = part.type.startsWith('tool-') || part.type === 'dynamic-tool';
    if (!isTool || part.state !== 'approval-responded') return [];
    const approval = part.approval as { id?: unknown; approved?: unknown; reason?: unknown } | undefined;
    if (typeof approval?.id !== 'string' || typeof part.toolCallId !== 'string') return [];
    return [
      {
        suspensionId: approval.id,
        toolCallId: part.toolCallId,
        approved: approval.approved === true,
        ...(typeof approval.reason === 'string' && approval.reason !== '' ? { reason: approval.reason } : {}),
      },
    ];
  });
  if (answers.length > 0) return { kind: 'answers', answers };
  return {
    kind: 'invalid',
    problem: problem(
      400,
      'nothing_to_answer',
      'The last message is neither a user message nor an assistant message with answered approvals.',
    ),
  };
}

/** An approval answer as the agent's feedback. */
export function toApprovalFeedback(answer: ChatApprovalAnswer): unknown {
  if (answer.approved) return { decision: 'approve' };
  return { decision: 'reject', reason: answer.reason ?? 'Declined in the chat.' };
}
