import type { ToolErrorCategory } from '../spec/index.js';
import { FlowstackError } from './flowstack-error.js';

/**
 * What a tool throws to say how it failed, so that the pipeline can decide about retries: a
 * `rate_limit` from an upstream API (with its `Retry-After`), a `not_found`, an `auth_error` … Any
 * other thrown value is a `server_error`. The pipeline turns it into a result; it never escapes.
 *
 * @example
 * if (response.status === 429)
 *   throw new ToolCallError({ category: 'rate_limit', message: 'Quota exceeded', retryAfterMs: 2_000 });
 */
export class ToolCallError extends FlowstackError {
  readonly category: ToolErrorCategory;
  /** Overrides the category's default (only `rate_limit`, `timeout` and `server_error` retry by default). */
  readonly retryable: boolean | undefined;
  /** How long the upstream asked to wait before another attempt. */
  readonly retryAfterMs: number | undefined;
  constructor(options: {
    category: ToolErrorCategory;
    message: string;
    retryable?: boolean;
    retryAfterMs?: number;
    cause?: unknown;
  }) {
    super({
      name: 'ToolCallError',
      code: `tool_${options.category}`,
      message: options.message,
      cause: options.cause,
    });
    this.category = options.category;
    this.retryable = options.retryable;
    this.retryAfterMs = options.retryAfterMs;
  }
  override toJSON() {
    return { ...super.toJSON(), category: this.category, retryable: this.retryable };
  }
}
