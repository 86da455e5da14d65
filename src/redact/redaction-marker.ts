import type { SecretKind } from './secret-kind.js';

const markerPattern = /^\[REDACTED:[a-z0-9-]{1,40}\]$/;

/** The text that replaces one secret: `[REDACTED:<kind>]`. The redactor never matches its own markers. */
export function formatRedactionMarker(kind: SecretKind): string {
  return `[REDACTED:${kind}]`;
}

/** True when `text` is exactly one redaction marker, e.g. `[REDACTED:jwt]`. */
export function isRedactionMarker(text: string): boolean {
  return markerPattern.test(text);
}
