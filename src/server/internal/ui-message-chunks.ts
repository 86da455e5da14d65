/**
 * A turn's parts as the AI SDK's UI message stream chunks (what `useChat` reads): the reply as text
 * start / delta / end, thinking as reasoning parts, each tool call as a tool part (input, then its
 * output, an error, or a request for approval), flow and plan state as `data-flow`, `data-plan` and
 * `data-plan-item` parts (one per flow, plan or item id, so later states replace earlier ones), other
 * questions as `data-question`, and a `finish` carrying the thread, turn and status.
 */
import type { UIMessageChunk } from 'ai';
import type { TurnResult, TurnStreamPart } from '../../agent/index.js';

export interface UiMessageChunks {
  /** The chunks that open the answer; `denied` tool calls close as denied at once. */
  start(options: { messageId?: string; denied: readonly string[] }): UIMessageChunk[];
  part(part: TurnStreamPart): UIMessageChunk[];
}

export function createUiMessageChunks(): UiMessageChunks {
  let text: string | undefined;
  let reasoning: string | undefined;
  /** What each streamed answer showed, to tell whether the reply was streamed already. */
  const shown = new Map<string, string>();
  let lastText: string | undefined;

  const close = (): UIMessageChunk[] => {
    const chunks: UIMessageChunk[] = [];
    if (reasoning !== undefined) chunks.push({ type: 'reasoning-end', id: reasoning });
    if (text !== undefined) chunks.push({ type: 'text-end', id: text });
    reasoning = undefined;
    text = undefined;
    return chunks;
  };

  const finish = (result: TurnResult): UIMessageChunk[] => {
    const chunks = close();
    // A reply that did not stream (a question, a reply composed after the skill) is sent whole.
    const streamed = lastText !== undefined && shown.get(lastText) === result.reply;
    if (result.reply !== '' && !streamed) {
      const id = `${result.turnId}:reply`;
      chunks.push(
        { type: 'text-start', id },
        { type: 'text-delta', id, delta: result.reply },
        { type: 'text-end', id },
      );
    }
    chunks.push({
      type: 'finish',
      messageMetadata: { threadId: result.threadId, turnId: result.turnId, status: result.status },
    });
    return chunks;
  };

  return {
    start({ messageId, denied }) {
      return [
        messageId !== undefined ? { type: 'start', messageId } : { type: 'start' },
        ...denied.map((toolCallId): UIMessageChunk => ({ type: 'tool-output-denied', toolCallId })),
      ];
    },
    part(part) {
      switch (part.type) {
        case 'text-delta': {
          const chunks: UIMessageChunk[] = [];
          if (text !== part.id) {
            chunks.push(...close(), { type: 'text-start', id: part.id });
            text = part.id;
          }
          chunks.push({ type: 'text-delta', id: part.id, delta: part.delta });
          shown.set(part.id, (shown.get(part.id) ?? '') + part.delta);
          lastText = part.id;
          return chunks;
        }
        case 'reasoning-delta': {
          const chunks: UIMessageChunk[] = [];
          if (reasoning !== part.id) {
            chunks.push(...close(), { type: 'reasoning-start', id: part.id });
            reasoning = part.id;
          }
          chunks.push({ type: 'reasoning-delta', id: part.id, delta: part.delta });
          return chunks;
        }
        case 'text-discard':
          // The protocol cannot take text back: the part ends, and the reply is sent again at the finish.
          shown.delete(part.id);
          if (lastText === part.id) lastText = undefined;
          return text === part.id || reasoning === part.id ? close() : [];
        case 'tool-call-start':
          return [
            ...close(),
            {
              type: 'tool-input-available',
              toolCallId: part.callId,
              toolName: part.toolName,
              input: part.input ?? null,
            },
          ];
        case 'tool-call-end':
          return [
            part.status === 'success'
              ? { type: 'tool-output-available', toolCallId: part.callId, output: { status: part.status } }
              : {
                  type: 'tool-output-error',
                  toolCallId: part.callId,
                  errorText: `The tool call ended: ${part.status}.`,
                },
          ];
        case 'flow-change':
          return [
            { type: 'data-flow', id: String(part.observation.data.flowId), data: part.observation.data },
          ];
        case 'plan-change': {
          const { observation } = part;
          if (observation.type === 'item-status-change')
            return [{ type: 'data-plan-item', id: String(observation.data.itemId), data: observation.data }];
          return [{ type: 'data-plan', id: String(observation.data.planId), data: observation.data }];
        }
        case 'approval-request': {
          const { suspension } = part;
          if (suspension.callId === undefined || suspension.toolName === undefined)
            return [{ type: 'data-question', id: suspension.id, data: suspension }];
          return [
            ...close(),
            {
              type: 'tool-input-available',
              toolCallId: suspension.callId,
              toolName: suspension.toolName,
              input: suspension.input ?? null,
            },
            { type: 'tool-approval-request', approvalId: suspension.id, toolCallId: suspension.callId },
          ];
        }
        case 'question':
          // A question the next chat message answers is in the reply already; a suspension's goes as data.
          return 'id' in part.question
            ? [{ type: 'data-question', id: part.question.id, data: part.question }]
            : [];
        case 'finish':
          return finish(part.result);
      }
    },
  };
}
