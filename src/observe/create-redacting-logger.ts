/**
 * What the runtime logs through: the user's logger (or the default one) behind secret redaction. Every
 * record and message passes the agent's redaction before the logger sees it, a failure under `err` is
 * made a plain `{ type, message, code, stack }` first (so a pino logger, a console or a log shipper reads
 * the same fields), and a logger that throws is ignored — a diagnostic must never fail a turn.
 */
import { describeThrown, readThrownField } from '../errors/index.js';
import { redactSecrets, redactValue } from '../redact/index.js';
import type { Logger, LogLevel } from '../spec/index.js';
import { copyWith } from '../util/index.js';

export interface RedactingLoggerOptions {
  logger: Logger;
  /** Default `redactSecrets` / `redactValue`. */
  redact?: { text(text: string): string; value(value: unknown): unknown };
}

/** `logger` behind redaction, with `child` always there (pino's when it has one, merged records else). */
export function createRedactingLogger(options: RedactingLoggerOptions): Required<Logger> {
  const redact = options.redact ?? { text: redactSecrets, value: redactValue };
  const make = (target: Logger, bindings: Record<string, unknown>): Required<Logger> => {
    const method =
      (level: LogLevel) =>
      (first: object | string, message?: string): void => {
        try {
          const record = { ...bindings, ...safeRecord(typeof first === 'string' ? {} : first, redact) };
          const text = typeof first === 'string' ? first : message;
          target[level](record, text === undefined ? undefined : redact.text(text));
        } catch {
          // The logger failed; what it was told is lost, the work it describes goes on.
        }
      };
    const bindNow = (more: Record<string, unknown>): Required<Logger> => {
      const safe = redact.value(more) as Record<string, unknown>;
      if (typeof target.child !== 'function') return make(target, { ...bindings, ...safe });
      try {
        return make(target.child(safe), bindings);
      } catch {
        return make(target, { ...bindings, ...safe });
      }
    };
    return {
      ...levelsOf(method),
      // Every skill run binds its flow, and most runs log nothing: the child is made on first use.
      child(more) {
        let bound: Required<Logger> | undefined;
        const resolve = () => {
          bound ??= bindNow(more);
          return bound;
        };
        return copyWith(
          levelsOf((level) => (first: object | string, message?: string) => {
            if (typeof first === 'string') resolve()[level](first);
            else resolve()[level](first, message);
          }),
          { child: (further: Record<string, unknown>) => resolve().child(further) },
        );
      },
    };
  };
  return make(options.logger, {});
}

/** The four level methods, each made by `method`. */
function levelsOf(
  method: (level: LogLevel) => (first: object | string, message?: string) => void,
): Pick<Logger, LogLevel> {
  return { debug: method('debug'), info: method('info'), warn: method('warn'), error: method('error') };
}

/** A logger's records carry `bindings` from here on: its `child` when it has one. */
export function bindLogger(logger: Logger, bindings: Record<string, unknown>): Logger {
  return typeof logger.child === 'function'
    ? logger.child(bindings)
    : createRedactingLogger({ logger }).child(bindings);
}

function safeRecord(
  record: object,
  redact: NonNullable<RedactingLoggerOptions['redact']>,
): Record<string, unknown> {
  const { err, ...fields } = record as { err?: unknown };
  const safe = redact.value(fields) as Record<string, unknown>;
  return err === undefined ? safe : { ...safe, err: redact.value(plainError(err)) };
}

/** A thrown value as pino's error serializer shows one; read without ever throwing. */
function plainError(err: unknown): Record<string, unknown> {
  const name = readThrownField(err, 'name');
  const message = readThrownField(err, 'message');
  const code = readThrownField(err, 'code');
  const stack = readThrownField(err, 'stack');
  return {
    type: typeof name === 'string' ? name : typeof err,
    message: typeof message === 'string' ? message : describeThrown(err),
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    ...(typeof stack === 'string' ? { stack } : {}),
  };
}
