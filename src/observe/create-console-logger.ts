/**
 * The logger the runtime writes to when none is given, and the wrapper that makes a `console`-like object
 * a {@link Logger}. By default it is quiet except for warnings and errors, which go to standard error as
 * they always did: a retry or a timed-out tool is worth an operator's eye, the steps of a healthy turn
 * are not.
 */
import type { Logger, LogLevel } from '../spec/index.js';

/** The methods of `console` the wrapper writes through. */
export type ConsoleLike = Pick<Console, 'debug' | 'info' | 'warn' | 'error'>;

export interface ConsoleLoggerOptions {
  /** The least severe level written; `silent` writes nothing. Default `warn`. */
  level?: LogLevel | 'silent';
  /** Where lines go; default the global `console` (warnings and errors on standard error). */
  console?: ConsoleLike;
}

const severity: Readonly<Record<LogLevel | 'silent', number>> = {
  debug: 0,
  info: 1,
  warn: 2,
  error: 3,
  silent: 4,
};

/**
 * A {@link Logger} writing one line per record, `flowstack: <message> {fields}`, with a failure's stack
 * (or its type and message) below it.
 *
 * @example
 * createAgent({ model, flows, logger: createConsoleLogger({ level: 'info' }) });
 */
export function createConsoleLogger(options: ConsoleLoggerOptions = {}): Logger {
  const least = severity[options.level ?? 'warn'];
  const make = (bindings: Record<string, unknown>): Logger => {
    const method =
      (level: LogLevel) =>
      (first: object | string, message?: string): void => {
        if (severity[level] < least) return;
        const target = options.console ?? console;
        const record = typeof first === 'string' ? {} : first;
        target[level](formatLine({ ...bindings, ...record }, typeof first === 'string' ? first : message));
      };
    return {
      debug: method('debug'),
      info: method('info'),
      warn: method('warn'),
      error: method('error'),
      child: (more) => make({ ...bindings, ...more }),
    };
  };
  return make({});
}

/** The logger of an agent, a server or a worker that was given none: warnings and errors to stderr. */
export const defaultLogger: Logger = createConsoleLogger();

function formatLine(record: Record<string, unknown>, message: string | undefined): string {
  const { err, ...fields } = record;
  const head = `flowstack: ${message ?? ''}`.trimEnd();
  const body = Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : '';
  return `${head}${body}${err === undefined ? '' : `\n  ${describeErr(err)}`}`;
}

function describeErr(err: unknown): string {
  if (typeof err !== 'object' || err === null) return String(err);
  const { stack, type, name, message } = err as Record<string, unknown>;
  if (typeof stack === 'string') return stack;
  return `${String(type ?? name ?? 'Error')}: ${String(message ?? '')}`;
}
