/**
 * The OpenAPI 3.1 description of the HTTP API, served at `/v1/openapi.json`. Bodies come from the same
 * Zod schemas the server validates with.
 */
import { z } from 'zod';
import {
  acceptedSchema,
  auditRecordSchema,
  chatBody,
  observationSchema,
  pendingQuestionSchema,
  problemSchema,
  resumeBody,
  rollbackBody,
  rollbackReportSchema,
  sendTurnBody,
  suspensionSchema,
  threadSummarySchema,
  threadViewSchema,
  turnResultSchema,
  turnSuspensionSchema,
} from './api-schemas.js';
import { threadIdPattern } from './thread-access.js';

type JsonObject = Record<string, unknown>;

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const json = (schema: unknown) => ({ 'application/json': { schema } });
const problems = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((status) => [
      String(status),
      {
        description: describeStatus(status),
        content: { 'application/problem+json': { schema: ref('Problem') } },
      },
    ]),
  );

function describeStatus(status: number): string {
  const text: Record<number, string> = {
    400: 'The request is malformed (body, id, or message empty or too long).',
    401: 'Missing or unknown bearer token.',
    404: 'No such thread for this principal.',
    409: 'The thread is running another turn (a retry while the first attempt still runs, too). A stop message ("stop", "cancel" …) is not refused: it stops the running turn and is answered with its result.',
    413: 'The body is larger than the server accepts.',
    415: 'The body is not JSON.',
    422: 'The Idempotency-Key was used before with another body (code input_request_reused).',
    501: 'The agent has no such capability yet.',
  };
  return text[status] ?? 'Error.';
}

function schemaOf(schema: z.ZodType): JsonObject {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
  }) as JsonObject;
  return rest;
}

function components(): JsonObject {
  const registry = z.registry<{ id: string }>();
  const named: Array<[string, z.ZodType]> = [
    ['Observation', observationSchema],
    ['TurnResult', turnResultSchema],
    ['TurnAccepted', acceptedSchema],
    ['ThreadSummary', threadSummarySchema],
    ['Suspension', suspensionSchema],
    ['TurnSuspension', turnSuspensionSchema],
    ['PendingQuestion', pendingQuestionSchema],
    ['Thread', threadViewSchema],
    ['AuditRecord', auditRecordSchema],
    ['Problem', problemSchema],
  ];
  for (const [id, schema] of named) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, JsonObject> };
  return Object.fromEntries(
    Object.entries(schemas).map(([id, { $schema: _s, $id: _i, ...schema }]) => [id, schema]),
  );
}

const threadId = {
  name: 'threadId',
  in: 'path',
  required: true,
  description:
    'A thread id: one the server gave, or one the client chose. A chosen id is the principal’s own: a thread another principal started under the same id is neither visible nor in the way, and the thread is stored (and answered) as `<id>~<namespace>`, which names it too.',
  schema: { type: 'string', pattern: threadIdPattern.source },
};

const idempotencyKey = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the same key from the same principal on the same thread runs the turn at most once. A retry of a finished request answers its result again (with the questions the thread still waits for); a retry after the server died mid-turn replays the turn, running nothing it completed again, and a call whose outcome the crash left unknown becomes a suspension to answer. The same key with another body is refused with 422. On `POST /v1/threads` the key also names the thread, so a retry does not start a second one.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
};

const turnRan = (description: string) => ({
  description: `${description}; with \`Accept: text/event-stream\` its events are streamed instead, ending with a \`turn\` event.`,
  content: { ...json(ref('TurnResult')), 'text/event-stream': { schema: { type: 'string' } } },
});

/** `new`: the route starts a thread (201); `either`: 201 when the id was unused, else 200; `existing`: 200. */
const turnResponses = (thread: 'new' | 'either' | 'existing') => ({
  ...(thread !== 'existing' ? { '201': turnRan('The turn ran on a new thread (Location names it)') } : {}),
  ...(thread !== 'new' ? { '200': turnRan('The turn ran') } : {}),
  '202': {
    description: 'With `Prefer: respond-async`: the turn runs; stream its events.',
    content: json(ref('TurnAccepted')),
  },
  ...problems(400, 401, 404, 409, 413, 415, 422),
});

/** Builds the document; `serverUrl` is where the API is reachable, when known. */
export function createOpenApiDocument(
  options: { title?: string; version?: string; serverUrl?: string } = {},
) {
  const document: JsonObject = {
    openapi: '3.1.0',
    info: {
      title: options.title ?? 'flowstack agent API',
      version: options.version ?? '1',
      description:
        'Threads, turns and their observation stream. Every request needs `Authorization: Bearer <token>`; a thread belongs to the principal that started it. Errors are RFC 9457 problem details.',
    },
    security: [{ bearer: [] }],
    paths: {
      '/v1/threads': {
        get: {
          summary: 'List your threads, newest first',
          parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 500 } }],
          responses: {
            '200': {
              description: 'Threads',
              content: json({
                type: 'object',
                properties: { threads: { type: 'array', items: ref('ThreadSummary') } },
              }),
            },
            ...problems(400, 401),
          },
        },
        post: {
          summary: 'Start a thread with its first message',
          parameters: [idempotencyKey],
          requestBody: { required: true, content: json(schemaOf(sendTurnBody)) },
          responses: turnResponses('new'),
        },
      },
      '/v1/threads/{threadId}': {
        get: {
          summary: 'Read a thread: messages, flow stack, pending question, open suspensions, last event id',
          parameters: [threadId],
          responses: {
            '200': { description: 'The thread', content: json(ref('Thread')) },
            ...problems(400, 401, 404),
          },
        },
        delete: {
          summary: 'Delete the thread and everything kept of it',
          description:
            'Removes the thread’s snapshot, history, journal, observations, file snapshots and the schedules that send to it. Its audit records stay, with their input and output summaries replaced by a deletion mark. Files the thread’s tools changed are not touched. Another principal’s thread answers 404 as an unknown one does; a thread with a turn running or waiting answers 409.',
          parameters: [threadId],
          responses: {
            '204': { description: 'Deleted' },
            ...problems(400, 401, 404, 409, 501),
          },
        },
      },
      '/v1/threads/{threadId}/messages': {
        post: {
          summary: 'Send a message (runs a turn); an unknown id starts a thread with that id',
          parameters: [threadId, idempotencyKey],
          requestBody: { required: true, content: json(schemaOf(sendTurnBody)) },
          responses: turnResponses('either'),
        },
      },
      '/v1/threads/{threadId}/events': {
        get: {
          summary: 'Stream the thread’s events (server-sent events)',
          description:
            'Stored observations after `Last-Event-ID` (or `after`) are replayed, then live ones follow, each exactly once (`event: observation`, `id` = store id). Live progress comes as `event: progress` without an id and is not replayed; it includes the reply as it is written (`text-delta`, `thoughts-delta`, `text-discard`, redacted) when the turn streams — the agent streams, or the turn was started with `Accept: text/event-stream` or on `/v1/chat`.',
          parameters: [
            threadId,
            { name: 'Last-Event-ID', in: 'header', schema: { type: 'integer', minimum: 0 } },
            { name: 'after', in: 'query', schema: { type: 'integer', minimum: 0 } },
            { name: 'progress', in: 'query', schema: { type: 'string', enum: ['0', '1'] } },
          ],
          responses: {
            '200': {
              description: 'An endless event stream',
              content: { 'text/event-stream': { schema: { type: 'string' } } },
            },
            ...problems(400, 401, 404),
          },
        },
      },
      '/v1/threads/{threadId}/observations': {
        get: {
          summary: 'Read stored observations after an id',
          parameters: [
            threadId,
            { name: 'after', in: 'query', schema: { type: 'integer', minimum: 0 } },
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 10000 } },
          ],
          responses: {
            '200': {
              description: 'Observations, oldest first',
              content: json({
                type: 'object',
                properties: { observations: { type: 'array', items: ref('Observation') } },
              }),
            },
            ...problems(400, 401, 404),
          },
        },
      },
      '/v1/threads/{threadId}/frames': {
        get: {
          summary: 'List the thread’s display frames (tables, charts), each with the turn that made it',
          parameters: [threadId],
          responses: {
            '200': {
              description: 'The frames in the order they were made; a large table holds its first page',
              content: json({
                type: 'object',
                required: ['frames'],
                properties: {
                  frames: {
                    type: 'array',
                    items: {
                      type: 'object',
                      required: ['turnId', 'frame'],
                      properties: { turnId: { type: 'string' }, frame: { type: 'object' } },
                    },
                  },
                },
              }),
            },
            ...problems(400, 401, 404),
          },
        },
      },
      '/v1/threads/{threadId}/frames/{tableId}': {
        get: {
          summary: 'Read a page of a display frame’s rows (page 1 is the frame’s own first page)',
          parameters: [
            threadId,
            { name: 'tableId', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1 } },
          ],
          responses: {
            '200': {
              description: 'One page of rows',
              content: json({
                type: 'object',
                required: ['tableId', 'page', 'pages', 'pageRows', 'totalRows', 'rows'],
                properties: {
                  tableId: { type: 'string' },
                  page: { type: 'integer', minimum: 1 },
                  pages: { type: 'integer', minimum: 1 },
                  pageRows: { type: 'integer', minimum: 1 },
                  totalRows: { type: 'integer', minimum: 0 },
                  rows: { type: 'array', items: {} },
                },
              }),
            },
            ...problems(400, 401, 404),
          },
        },
      },
      '/v1/threads/{threadId}/suspensions/{suspensionId}': {
        post: {
          summary:
            'Answer a suspension (approve, reject with or without a reason, edit arguments, or give feedback)',
          parameters: [
            threadId,
            { name: 'suspensionId', in: 'path', required: true, schema: { type: 'string' } },
          ],
          requestBody: { required: true, content: json(schemaOf(resumeBody)) },
          responses: { ...turnResponses('existing'), ...problems(501) },
        },
      },
      '/v1/threads/{threadId}/rollback': {
        post: {
          summary: 'Roll back the file effects of the thread’s failed or aborted work',
          parameters: [threadId],
          requestBody: { required: true, content: json(schemaOf(rollbackBody)) },
          responses: {
            '200': {
              description: 'Rolled back (the same report when run again)',
              content: json(schemaOf(rollbackReportSchema)),
            },
            ...problems(400, 401, 404, 409, 501),
          },
        },
      },
      '/v1/threads/{threadId}/cancel': {
        post: {
          summary: 'Cancel the turn this server is running on the thread',
          parameters: [threadId],
          responses: {
            '200': {
              description: 'Whether a turn was cancelled',
              content: json({ type: 'object', properties: { cancelled: { type: 'boolean' } } }),
            },
            ...problems(401, 404),
          },
        },
      },
      '/v1/chat': {
        post: {
          summary: 'Chat as the AI SDK `useChat` does (UI message stream protocol v1)',
          description:
            'The body `useChat` sends (`{ id, messages }`); the chat id is the thread id. A last user message runs a turn; a last assistant message whose tool parts are `approval-responded` answers those approvals (the approval id is the suspension id) and the thread carries on. The answer is a UI message stream (`x-vercel-ai-ui-message-stream: v1`): `start`, the reply as `text-start` / `text-delta` / `text-end` while the model writes it, thinking as reasoning parts, tool calls as `tool-input-available` then `tool-output-available`, `tool-output-error`, `tool-output-denied` or `tool-approval-request`, flow and plan state as `data-flow`, `data-plan` and `data-plan-item` parts, other questions as `data-question` parts (answered at `/v1/threads/{threadId}/suspensions/{suspensionId}`), then `finish` with `{ threadId, turnId, status }` as message metadata, and `[DONE]`. Closing the stream cancels the turn.',
          requestBody: { required: true, content: json(schemaOf(chatBody)) },
          responses: {
            '200': {
              description: 'A UI message stream (server-sent events with JSON chunks)',
              headers: { 'x-vercel-ai-ui-message-stream': { schema: { type: 'string', enum: ['v1'] } } },
              content: { 'text/event-stream': { schema: { type: 'string' } } },
            },
            ...problems(400, 401, 404, 413, 415, 501),
          },
        },
      },
      '/v1/audit': {
        get: {
          summary: 'The audit log of tool calls in your threads, newest first',
          parameters: [
            { name: 'threadId', in: 'query', schema: { type: 'string' } },
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000 } },
          ],
          responses: {
            '200': {
              description: 'Audit records',
              content: json({
                type: 'object',
                properties: { records: { type: 'array', items: ref('AuditRecord') } },
              }),
            },
            ...problems(400, 401, 404),
          },
        },
      },
    },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: components(),
    },
  };
  if (options.serverUrl) document.servers = [{ url: options.serverUrl }];
  return document;
}
