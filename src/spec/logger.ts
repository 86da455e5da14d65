/**
 * Where the runtime writes its own diagnostics (a retry, a timed-out tool, a lost lease, a server's
 * internal error): the subset of pino's interface that flowstack calls, so that a pino logger, a wrapped
 * `console` (`createConsoleLogger`) or a logger of one's own can be passed as it is. Records come first and
 * the message second, as in pino; every record the runtime writes has been through secret redaction.
 */

/**
 * One level of a {@link Logger}: `(record, message)` as pino takes it, or a message alone. The runtime
 * always passes a record (thread, turn, flow, tool where known; `err` for a failure) and a message.
 */
export interface LogMethod {
  (record: object, message?: string): void;
  (message: string): void;
}

/**
 * A pino-compatible logger: `createAgent({ logger: pino() })`. `child` is optional; without it the
 * bindings are merged into every record instead.
 */
export interface Logger {
  debug: LogMethod;
  info: LogMethod;
  warn: LogMethod;
  error: LogMethod;
  /** A logger whose records all carry `bindings` (pino's `child`). */
  child?(bindings: Record<string, unknown>): Logger;
}

/** The levels a {@link Logger} has, least to most severe. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
