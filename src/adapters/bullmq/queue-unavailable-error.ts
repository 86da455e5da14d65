import { FlowstackError } from '../../errors/index.js';

/**
 * The turn queue could not reach Redis: the server is down or unreachable, the address is wrong, or it
 * refused the credentials. `address` is `host:port`, never with the credentials; the driver's own error
 * is the `cause`.
 */
export class QueueUnavailableError extends FlowstackError {
  readonly address: string;
  constructor(options: { address: string; cause?: unknown }) {
    super({
      name: 'QueueUnavailableError',
      code: 'queue_unavailable',
      message: `Cannot reach Redis for the turn queue at ${options.address}: ${describeCause(options.cause)}. Check that the server is running and that REDIS_URL is right.`,
      cause: options.cause,
    });
    this.address = options.address;
  }
  override toJSON() {
    return { ...super.toJSON(), address: this.address };
  }
}

function describeCause(cause: unknown): string {
  if (cause instanceof AggregateError && cause.message === '') {
    return cause.errors.map((error) => describeCause(error)).join('; ');
  }
  if (cause instanceof Error) return cause.message || (cause as { code?: string }).code || cause.name;
  return String(cause);
}
