/**
 * Reads a request body as JSON and validates it with a Zod schema. Returns the value or the problem
 * to answer with (415 for another media type, 400 for bad JSON or a body the schema refuses, with
 * every issue listed); it never throws for anything a client sends.
 */
import type { z } from 'zod';
import { type ProblemDetails, problem } from '../problem-details.js';

export type BodyResult<T> = { ok: true; value: T } | { ok: false; problem: ProblemDetails };

export async function readJsonBody<T>(request: Request, schema: z.ZodType<T>): Promise<BodyResult<T>> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type))
    return {
      ok: false,
      problem: problem(415, 'unsupported_media_type', 'Send the body as application/json.'),
    };
  let json: unknown;
  try {
    json = JSON.parse(await request.text());
  } catch {
    return { ok: false, problem: problem(400, 'invalid_json', 'The body is not valid JSON.') };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data };
  const errors = parsed.error.issues.map((issue) => ({
    pointer: `/${issue.path.map((p) => String(p).replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`,
    detail: issue.message,
  }));
  return {
    ok: false,
    problem: problem(400, 'invalid_body', errors.map((e) => `${e.pointer}: ${e.detail}`).join('; '), {
      errors,
    }),
  };
}
