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

  /**
   * True for flowstack errors of this class: `FlowstackError.isInstance(e)` for any of them,
   * `ModelError.isInstance(e)` for model errors only. Each subclass names itself after its class.
   */
  static isInstance<T extends abstract new (...args: never[]) => FlowstackError>(
    this: T,
    error: unknown,
  ): error is InstanceType<T> {
    if (typeof error !== 'object' || error === null || (error as Record<symbol, unknown>)[marker] !== true)
      return false;
    // biome-ignore lint/complexity/noThisInStatic: `this` is the subclass the check was called on.
    return isBaseClass(this) || (error as { name?: unknown }).name === this.name;
  }

  toJSON(): Record<string, unknown> {
    return { name: this.name, code: this.code, message: this.message };
  }
}

/**
 * Whether the check was called on the base class, which every flowstack error passes. Outside the class
 * body, so that the built package keeps the class's own name (`FlowstackError.name`).
 */
function isBaseClass(type: unknown): boolean {
  return type === FlowstackError;
}
