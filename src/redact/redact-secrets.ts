import { compileSecretScanner } from './internal/compile-secret-scanner.js';
import { createScanState, scanSecrets } from './internal/scan-secrets.js';
import type { SecretKind } from './secret-kind.js';

/** Options of {@link redactSecrets} and of the other redactors. */
export interface RedactSecretsOptions {
  /**
   * Kinds to leave in place, e.g. `['jwt']` where JWTs are public test fixtures. A value that an
   * ignored token rule would have claimed may still be redacted by a key-value rule (`api_key=…`).
   */
  readonly ignoreKinds?: readonly SecretKind[];
}

/**
 * Replaces every secret in `text` with a marker naming its kind, e.g. `[REDACTED:openai-key]`:
 * provider API keys and tokens, JWTs, `Authorization` headers and bearer tokens, private-key
 * blocks, passwords in URLs and `password=` / `"token": "…"` pairs (the key stays, the value goes).
 * See `SECRET_KINDS` for the full list and `secret-patterns.ts` for the shapes.
 *
 * One left-to-right pass with bounded look-ahead: linear in the length of the text, whatever the
 * text. Redacting twice changes nothing more (markers are never matched), and
 * {@link createStreamRedactor} gives the same result for the same text split into chunks.
 *
 * @example
 * redactSecrets('curl -H "Authorization: Bearer abc123def456ghi789" https://u:hunter2@db.local');
 * // 'curl -H "Authorization: Bearer [REDACTED:bearer-token]" https://u:[REDACTED:url-password]@db.local'
 */
export function redactSecrets(text: string, options: RedactSecretsOptions = {}): string {
  if (text.length === 0) return text;
  const scanner = compileSecretScanner(options.ignoreKinds);
  // Every rule starts at a trigger: a text without one is returned as it is.
  scanner.triggerPattern.lastIndex = 0;
  if (!scanner.triggerPattern.test(text)) return text;
  return scanSecrets(scanner, text, createScanState(), true).output;
}
