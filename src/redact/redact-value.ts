import { type RedactSecretsOptions, redactSecrets } from './redact-secrets.js';
import { formatRedactionMarker, isRedactionMarker } from './redaction-marker.js';
import type { SecretKind } from './secret-kind.js';

/** Options of {@link redactValue}. */
export interface RedactValueOptions extends RedactSecretsOptions {
  /** Nesting depth past which a value becomes `'[MaxDepth]'` (default {@link defaultRedactMaxDepth}). */
  readonly maxDepth?: number;
}

/** How deep {@link redactValue} descends by default; deeper values become `'[MaxDepth]'`. */
export const defaultRedactMaxDepth = 64;

/** Key suffixes (lower case, separators removed) whose string values are secrets as a whole. */
const sensitiveKeySuffixes: readonly (readonly [string, SecretKind])[] = [
  ['password', 'password'],
  ['passwd', 'password'],
  ['passphrase', 'password'],
  ['pwd', 'password'],
  ['secret', 'secret'],
  ['secretkey', 'secret'],
  ['secretaccesskey', 'secret'],
  ['token', 'token'],
  ['apikey', 'api-key'],
  ['authorization', 'authorization'],
  ['privatekey', 'private-key'],
  ['cookie', 'cookie'],
  ['passwords', 'password'],
  ['accountkey', 'azure-key'],
  ['sharedaccesskey', 'azure-key'],
];

interface Context {
  readonly options: RedactValueOptions;
  readonly maxDepth: number;
  /** The objects on the path from the root: meeting one again is a cycle (a stack; paths are short). */
  readonly ancestors: object[];
}

/**
 * Deep-redacts a value for logs, audit records, stored state and model context: a new value in
 * which every string went through {@link redactSecrets}, and the string or number value of a key
 * named like a secret (`password`, `clientSecret`, `access_token`, `apiKey`, `Authorization`,
 * `private_key`, `Cookie` …) is replaced entirely by a marker. The input is never modified.
 *
 * - Objects become plain objects of their own enumerable properties, as `JSON.stringify` sees them;
 *   a `toJSON()` method is honoured (a `Date` becomes its ISO string, a `URL` its redacted href).
 *   Keys are kept, except that a key which itself contains a secret is redacted like any string.
 * - Errors become `{ name, message }`, both redacted (stacks and causes are dropped).
 * - A `Map` becomes a plain object keyed by `String(key)`, a `Set` an array.
 * - A reference back to an enclosing object becomes `'[Circular]'`; shared references are copied.
 * - Anything that throws while being read becomes `'[Unserializable]'`.
 *
 * @example
 * redactValue({ user: 'bob', password: 'hunter2', note: 'key sk-proj-…' });
 * // { user: 'bob', password: '[REDACTED:password]', note: 'key [REDACTED:openai-key]' }
 */
export function redactValue(value: unknown, options: RedactValueOptions = {}): unknown {
  const context: Context = {
    options,
    maxDepth: options.maxDepth ?? defaultRedactMaxDepth,
    ancestors: [],
  };
  return redactNode(value, 0, context);
}

function redactNode(value: unknown, depth: number, context: Context): unknown {
  if (typeof value === 'string') return redactSecrets(value, context.options);
  if (typeof value !== 'object' || value === null) return value;
  if (context.ancestors.includes(value)) return '[Circular]';
  if (depth >= context.maxDepth) return '[MaxDepth]';
  context.ancestors.push(value);
  try {
    return redactObject(value, depth, context);
  } catch {
    return '[Unserializable]';
  } finally {
    context.ancestors.pop();
  }
}

function redactObject(value: object, depth: number, context: Context): unknown {
  if (Array.isArray(value)) return value.map((item) => redactNode(item, depth + 1, context));
  if (ArrayBuffer.isView(value)) return redactSecrets(bytesAsText(value), context.options);
  if (value instanceof Error || Object.prototype.toString.call(value) === '[object Error]') {
    const error = value as Error;
    return {
      name: redactSecrets(String(error.name), context.options),
      message: redactSecrets(String(error.message), context.options),
    };
  }
  if (value instanceof Map) {
    const entries = [...value.entries()].map(([key, item]): [string, unknown] => [String(key), item]);
    return redactEntries(entries, depth, context);
  }
  if (value instanceof Set) return [...value].map((item) => redactNode(item, depth + 1, context));
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return redactNode(toJSON.call(value, ''), depth + 1, context);
  return redactEntries(Object.entries(value), depth, context);
}

function redactEntries(entries: readonly [string, unknown][], depth: number, context: Context): object {
  const output: [string, unknown][] = [];
  // Only a key that held a secret can collide with another once redacted; then neither value is dropped.
  let usedKeys: Set<string> | undefined;
  for (const [key, item] of entries) {
    const kind = sensitiveKind(key, item, context.options);
    const redacted =
      kind === undefined ? redactNode(item, depth + 1, context) : redactSensitive(item, kind, depth, context);
    const redactedKey = redactSecrets(key, context.options);
    let outputKey = redactedKey;
    if (redactedKey !== key || usedKeys !== undefined) {
      usedKeys ??= new Set(output.map(([k]) => k));
      for (let suffix = 2; usedKeys.has(outputKey); suffix++) outputKey = `${redactedKey}#${suffix}`;
      usedKeys.add(outputKey);
    }
    output.push([outputKey, redacted]);
  }
  // fromEntries defines properties, so a `__proto__` key stays an ordinary key.
  return Object.fromEntries(output);
}

/**
 * The value of a secret-named key: a string or number becomes the marker, and so does every string and
 * number in a list there (`passwords: ['a', 'b']`) or in an object under a password key
 * (`password: { current, previous }`); the shape, `null`s and booleans stay. An object under another
 * secret-named key is read as usual (`token: { token_type, expires_in }` describes a token).
 */
function redactSensitive(item: unknown, kind: SecretKind, depth: number, context: Context): unknown {
  if (typeof item === 'number' || typeof item === 'bigint') return formatRedactionMarker(kind);
  if (Array.isArray(item) || ArrayBuffer.isView(item) || (kind === 'password' && isObject(item)))
    return redactNestedSensitive(item as object, kind, depth, context);
  if (typeof item !== 'string') return redactNode(item, depth + 1, context);
  if (item.length === 0 || isRedactionMarker(item)) return item;
  const redacted = redactSecrets(item, context.options);
  // Keep a more specific kind when the whole value was one recognised secret.
  return isRedactionMarker(redacted) ? redacted : formatRedactionMarker(kind);
}

function redactNestedSensitive(item: object, kind: SecretKind, depth: number, context: Context): unknown {
  if (ArrayBuffer.isView(item)) return formatRedactionMarker(kind);
  if (context.ancestors.includes(item)) return '[Circular]';
  if (depth + 1 >= context.maxDepth) return '[MaxDepth]';
  context.ancestors.push(item);
  try {
    // Read as redactObject reads it (errors, maps, sets, toJSON), then every leaf becomes the marker.
    const plain = redactObject(item, depth, context);
    return markLeaves(plain, kind);
  } catch {
    return '[Unserializable]';
  } finally {
    context.ancestors.pop();
  }
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

function markLeaves(value: unknown, kind: SecretKind): unknown {
  if (typeof value === 'string') return value.length === 0 ? value : formatRedactionMarker(kind);
  if (typeof value === 'number' || typeof value === 'bigint') return formatRedactionMarker(kind);
  if (Array.isArray(value)) return value.map((item) => markLeaves(item, kind));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, markLeaves(item, kind)]));
  return value;
}

/**
 * Bytes (a `Buffer`, a `Uint8Array` …) as the text they hold, so that a secret in them is found; bytes
 * that are not UTF-8 text say only how many they were.
 */
function bytesAsText(view: ArrayBufferView): string {
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return `[binary: ${bytes.byteLength} bytes]`;
  }
}

/** Which sensitive suffix a key ends with, by key: object keys repeat, the lookup need not. */
const suffixByKey = new Map<string, readonly [string, SecretKind] | null>();
const maxCachedKeys = 4_096;

function sensitiveSuffix(key: string): readonly [string, SecretKind] | undefined {
  const cached = suffixByKey.get(key);
  if (cached !== undefined) return cached ?? undefined;
  const normalized = key.toLowerCase().replace(/[^a-z0-9]/g, '');
  const found = sensitiveKeySuffixes.find(([suffix]) => normalized.endsWith(suffix));
  if (suffixByKey.size >= maxCachedKeys) suffixByKey.clear();
  // Only short keys are kept: a long key may itself be a secret, which no cache should hold.
  if (key.length <= 64 && redactSecrets(key) === key) suffixByKey.set(key, found ?? null);
  return found;
}

function sensitiveKind(key: string, item: unknown, options: RedactValueOptions): SecretKind | undefined {
  // A key redacted by an earlier pass names a kind, not a secret: `[REDACTED:github-token]`.
  if (isRedactionMarker(key)) return undefined;
  const found = sensitiveSuffix(key);
  if (found === undefined || options.ignoreKinds?.includes(found[1])) return undefined;
  // `PWD` / `OLDPWD` in an environment dump are directories, not passwords.
  if (found[0] === 'pwd' && typeof item === 'string' && /^[/~]/.test(item)) return undefined;
  return found[1];
}
