/**
 * The one base class of every error flowstack raises. `isInstance` works across package copies and
 * realms because it checks a `Symbol.for` marker rather than the prototype chain.
 */
const marker = Symbol.for('flowstack.error');

export interface FlowstackErrorOptions {
  message: string;
  cause?: unknown;
}

export class FlowstackError extends Error {
  readonly [marker] = true;
  /** A stable machine-readable code, e.g. `input_empty`. */
  readonly code: string;

  constructor(options: FlowstackErrorOptions & { name: string; code: string }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = options.name;
    this.code = options.code;
  }

  static isInstance(error: unknown): error is FlowstackError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }

  toJSON(): Record<string, unknown> {
    return { name: this.name, code: this.code, message: this.message };
  }
}
