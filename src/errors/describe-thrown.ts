/**
 * What was thrown, read without ever throwing again. A tool may throw anything: a string, `undefined`, a
 * BigInt, a null-prototype object, an error whose `message` getter throws, a Proxy that throws on every
 * read. Reading such a value the usual way (`String(error)`, `error.message`, `instanceof`) throws a
 * second time, and that second throw once escaped the tool pipeline. Everything here is read once, inside
 * its own `try`, so the caller always gets a plain answer.
 */

/** A readable one-line account of a thrown value, e.g. `TypeError: x is not a function` or `a Symbol(boom)`. */
export function describeThrown(thrown: unknown): string {
  switch (typeof thrown) {
    case 'string':
      return thrown;
    case 'undefined':
      return 'undefined was thrown';
    case 'bigint':
    case 'number':
    case 'boolean':
      return `${String(thrown)} was thrown`;
    case 'symbol':
      return `${attempt(() => thrown.toString()) ?? 'a symbol'} was thrown`;
    case 'function':
      return 'a function was thrown';
  }
  if (thrown === null) return 'null was thrown';
  const name = readString(thrown, 'name');
  const message = readString(thrown, 'message');
  if (message !== undefined) return name !== undefined && name !== '' ? `${name}: ${message}` : message;
  const json = attempt(() => JSON.stringify(thrown));
  if (json !== undefined && json !== '{}') return `an object was thrown: ${shorten(json)}`;
  const text = attempt(() => String(thrown));
  if (text !== undefined && text !== '[object Object]') return shorten(text);
  return 'an object that cannot be read was thrown';
}

/**
 * The thrown value's `message` when it has a readable one (what an `Error` says, without its name),
 * otherwise {@link describeThrown}. Never throws.
 */
export function messageOfThrown(thrown: unknown): string {
  const message = readThrownField(thrown, 'message');
  return typeof message === 'string' ? message : describeThrown(thrown);
}

/** The thrown value's field `key`; `undefined` when it is not an object or reading the field throws. */
export function readThrownField(thrown: unknown, key: string): unknown {
  if (typeof thrown !== 'object' || thrown === null) return undefined;
  return attempt(() => (thrown as Record<string, unknown>)[key]);
}

function readString(thrown: unknown, key: string): string | undefined {
  const value = readThrownField(thrown, key);
  return typeof value === 'string' ? value : undefined;
}

function attempt<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/** A thrown object can be huge (a whole response); its account need not be. */
function shorten(text: string): string {
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}
