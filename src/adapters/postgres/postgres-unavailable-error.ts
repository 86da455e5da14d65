import { FlowstackError } from '../../errors/index.js';

/**
 * The PostgreSQL store could not get a connection: the server is down or unreachable, the address is
 * wrong, or it refused the credentials. `address` is `host:port/database`, never with the credentials;
 * the driver's own error is the `cause`.
 */
export class PostgresUnavailableError extends FlowstackError {
  readonly address: string;
  constructor(options: { address: string; cause?: unknown }) {
    super({
      name: 'PostgresUnavailableError',
      code: 'postgres_unavailable',
      message: `Cannot connect to PostgreSQL at ${options.address}: ${describeCause(options.cause)}. Check that the server is running and that the connection string and credentials are right.`,
      cause: options.cause,
    });
    this.address = options.address;
  }
  override toJSON() {
    return { ...super.toJSON(), address: this.address };
  }
}

/** The driver's reason; Node reports a refused dual-stack connect as an `AggregateError` with no message. */
function describeCause(cause: unknown): string {
  if (cause instanceof AggregateError && cause.message === '') {
    return cause.errors.map((error) => describeCause(error)).join('; ');
  }
  if (cause instanceof Error) return cause.message || (cause as { code?: string }).code || cause.name;
  return String(cause);
}
