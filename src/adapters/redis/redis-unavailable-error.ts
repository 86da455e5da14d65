import { FlowstackError } from '../../errors/index.js';

/**
 * Redis could not answer: the server is down or unreachable, the address is wrong, it refused the
 * credentials, or it did not answer within the command timeout. `address` is `host:port/db`, never with
 * the credentials; the driver's own error is the `cause`. The Redis rate limiter rejects with it, so a
 * limit fails closed rather than letting calls through unchecked.
 */
export class RedisUnavailableError extends FlowstackError {
  readonly address: string;
  constructor(options: { address: string; reason: string; cause?: unknown }) {
    super({
      name: 'RedisUnavailableError',
      code: 'redis_unavailable',
      message: `Redis at ${options.address} cannot answer: ${options.reason}. Check that the server is running and that REDIS_URL is right.`,
      cause: options.cause,
    });
    this.address = options.address;
  }
  override toJSON() {
    return { ...super.toJSON(), address: this.address };
  }
}
