/**
 * Errors as RFC 9457 problem details (`application/problem+json`). A `FlowstackError` keeps its `code`
 * and typed fields and gets the HTTP status that says what went wrong; anything else is a 500 whose
 * message is not shown, so that an internal detail never reaches a client.
 */
import { FlowstackError } from '../errors/index.js';

export interface ProblemDetails {
  /** A URI naming the problem type: `urn:flowstack:problem:<code>`. */
  type: string;
  title: string;
  status: number;
  detail?: string;
  /** flowstack's machine-readable code (`input_empty`, `thread_not_found` …). */
  code: string;
  [extension: string]: unknown;
}

const statusByCode: Record<string, number> = {
  input_empty: 400,
  input_too_long: 400,
  input_invalid: 400,
  // The Idempotency-Key came again with another body (draft-ietf-httpapi-idempotency-key-header).
  input_request_reused: 422,
  thread_not_found: 404,
  thread_busy: 409,
  thread_suspended: 409,
  suspension_not_found: 404,
  suspension_answered: 409,
  suspension_expired: 409,
  suspension_invalid_feedback: 422,
  version_conflict: 409,
  stack_depth: 409,
  model: 502,
  configuration: 500,
  store_closed: 503,
  store_not_found: 404,
  file_snapshot_not_found: 404,
  file_snapshot_outside_root: 409,
  file_snapshot_not_a_file: 409,
  file_snapshot_corrupt: 409,
  file_snapshot_conflict: 409,
};

const titles: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/** A problem with the given status and code. */
export function problem(
  status: number,
  code: string,
  detail?: string,
  extensions: Record<string, unknown> = {},
): ProblemDetails {
  const body: ProblemDetails = {
    type: `urn:flowstack:problem:${code}`,
    title: titles[status] ?? 'Error',
    status,
    code,
    ...extensions,
  };
  if (detail !== undefined) body.detail = detail;
  return body;
}

/** The HTTP status for a flowstack error code, including codes of errors added by later layers. */
export function statusForCode(code: string): number {
  const known = statusByCode[code];
  if (known !== undefined) return known;
  if (code.startsWith('input_') || code.startsWith('validation')) return 400;
  if (code.endsWith('_not_found')) return 404;
  if (code.endsWith('_denied') || code.endsWith('_forbidden')) return 403;
  if (
    code.endsWith('_conflict') ||
    code.endsWith('_expired') ||
    code.endsWith('_busy') ||
    code.endsWith('_suspended')
  )
    return 409;
  if (code.startsWith('snapshot_')) return 500;
  return 500;
}

/** Any thrown value as a problem; `onInternal` sees what is not shown. */
export function toProblem(error: unknown, onInternal?: (error: unknown) => void): ProblemDetails {
  if (FlowstackError.isInstance(error)) {
    const {
      name: _name,
      code: _code,
      message,
      ...fields
    } = error.toJSON() as Record<string, unknown> & {
      message: string;
    };
    const status = statusForCode(error.code);
    if (status === 500) {
      onInternal?.(error);
      return problem(status, error.code, 'The server failed to answer; the error is in its log.');
    }
    return problem(status, error.code, message, fields);
  }
  onInternal?.(error);
  return problem(500, 'internal', 'The server failed to answer; the error is in its log.');
}

/** The JSON response of a problem. */
export function problemResponse(body: ProblemDetails, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status: body.status,
    headers: { 'content-type': 'application/problem+json', ...headers },
  });
}
