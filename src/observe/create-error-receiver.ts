/**
 * The `onError` of a long-lived service (the HTTP server, the Redis fan-out, the turn worker) made from
 * its two options: the caller's `onError`, its `logger`, or both when both were given. With neither, the
 * default logger writes the error to standard error, as these services always did.
 */
import type { Logger } from '../spec/index.js';
import { defaultLogger } from './create-console-logger.js';
import { createRedactingLogger } from './create-redacting-logger.js';

export interface ErrorReceiverOptions<Context extends unknown[]> {
  onError?: ((error: unknown, ...context: Context) => void) | undefined;
  logger?: Logger | undefined;
  /** What the logged record says happened. */
  message: string;
  /** Fields of the record from the call's context (a job's id). */
  fields?: (...context: Context) => Record<string, unknown>;
}

/** One function that tells `onError`, the logger (as `error`, redacted), or both. */
export function createErrorReceiver<Context extends unknown[] = []>(
  options: ErrorReceiverOptions<Context>,
): (error: unknown, ...context: Context) => void {
  const { onError, message, fields } = options;
  if (onError && !options.logger) return onError;
  const logger = createRedactingLogger({ logger: options.logger ?? defaultLogger });
  return (error, ...context) => {
    onError?.(error, ...context);
    logger.error({ ...fields?.(...context), err: error }, message);
  };
}
