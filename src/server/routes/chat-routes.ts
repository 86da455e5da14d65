/**
 * `POST /v1/chat`: the agent as the AI SDK UI message stream protocol speaks it, so that an unmodified
 * `useChat` front end (its default transport pointed here, with the bearer token) talks to a thread.
 * The chat id is the thread id. A user message runs a turn; answered approvals resume the thread's
 * suspensions, one after another. The answer streams as UI message chunks (docs/decisions/0061); a
 * reader that goes away cancels the turn, as the chat's stop button means.
 */
import type { Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { closingParts, type TurnResult, toTurnStreamPart } from '../../agent/index.js';
import { lastObservationId } from '../../observe/index.js';
import { chatBody } from '../api-schemas.js';
import { followTurn } from '../internal/follow-turn.js';
import { type ChatRequest, readChatRequest, toApprovalFeedback } from '../internal/read-chat-request.js';
import { readJsonBody } from '../internal/read-json-body.js';
import { createUiMessageChunks } from '../internal/ui-message-chunks.js';
import { problem, problemResponse, toProblem } from '../problem-details.js';
import type { ServerContext, ServerEnv } from '../server-types.js';
import { resolveThread, threadNotFound } from '../thread-access.js';

export function registerChatRoutes(app: Hono<ServerEnv>, context: ServerContext): void {
  app.post('/v1/chat', async (c) => {
    const body = await readJsonBody(c.req.raw, chatBody);
    if (!body.ok) return problemResponse(body.problem);
    const named = body.value.id;
    const principal = c.get('principal');
    // The chat id is the principal's own, as a thread id in a path is (ADR 0066).
    const resolved = await resolveThread(context, named, principal);
    if (!resolved.ok) return resolved.response;
    const { threadId, access } = resolved;
    if (access === 'foreign') return threadNotFound(named);
    const request = readChatRequest(body.value.messages);
    if (request.kind === 'invalid') return problemResponse(request.problem);
    if (request.kind === 'answers' && access === 'absent') return threadNotFound(named);
    const run = chatTurn(context, { threadId, principal, request });
    if (!run)
      return problemResponse(
        problem(
          501,
          'not_implemented',
          'Answering approvals needs an agent with resume(); this agent has none.',
        ),
      );
    const afterId = await lastObservationId(context.agent.store, threadId);
    return streamChat(c, context, {
      threadId,
      principal,
      run,
      afterId,
      // A new answer gets an id of its own; answers to approvals carry on the assistant message they answer.
      ...(request.kind === 'message' ? { messageId: context.ids('message') } : {}),
      denied:
        request.kind === 'answers' ? request.answers.filter((a) => !a.approved).map((a) => a.toolCallId) : [],
    });
  });
}

/** The turn the request runs, its model calls streaming; undefined when the agent cannot answer approvals. */
function chatTurn(
  context: ServerContext,
  options: { threadId: string; principal: string; request: Exclude<ChatRequest, { kind: 'invalid' }> },
): ((signal: AbortSignal) => Promise<TurnResult>) | undefined {
  const { threadId, principal, request } = options;
  if (request.kind === 'message')
    return (signal) => context.turns.send({ threadId, text: request.text, principal, signal, stream: true });
  const resume = context.agent.resume;
  if (typeof resume !== 'function') return undefined;
  return async (signal) => {
    let result: TurnResult | undefined;
    for (const answer of request.answers)
      result = await resume.call(context.agent, {
        threadId,
        suspensionId: answer.suspensionId,
        feedback: toApprovalFeedback(answer),
        principal,
        signal,
        stream: true,
      });
    return result as TurnResult;
  };
}

function streamChat(
  c: Context<ServerEnv>,
  context: ServerContext,
  options: {
    threadId: string;
    principal: string;
    run: (signal: AbortSignal) => Promise<TurnResult>;
    afterId: number;
    messageId?: string;
    denied: string[];
  },
) {
  c.header('x-vercel-ai-ui-message-stream', 'v1');
  c.header('cache-control', 'no-cache');
  c.header('x-accel-buffering', 'no');
  return streamSSE(c, async (stream) => {
    const reader = new AbortController();
    let settled = false;
    stream.onAbort(() => {
      reader.abort();
      if (!settled) context.runner.cancel(options.threadId);
    });
    const chunks = createUiMessageChunks();
    const write = async (list: readonly unknown[]) => {
      for (const chunk of list) await stream.writeSSE({ data: JSON.stringify(chunk) });
    };
    await write(
      chunks.start({
        ...(options.messageId ? { messageId: options.messageId } : {}),
        denied: options.denied,
      }),
    );
    const followed = await followTurn(context, {
      threadId: options.threadId,
      principal: options.principal,
      run: options.run,
      afterId: options.afterId,
      signal: reader.signal,
      write: async (observation) => {
        const part = toTurnStreamPart(observation);
        if (part) await write(chunks.part(part));
      },
    });
    settled = true;
    if ('gone' in followed) return;
    if (followed.ok) {
      for (const part of closingParts(followed.result)) await write(chunks.part(part));
    } else {
      const details = toProblem(followed.error, context.onError);
      await write([{ type: 'error', errorText: details.detail ?? details.title }]);
    }
    await stream.writeSSE({ data: '[DONE]' });
  });
}
