import { compileSecretScanner } from './internal/compile-secret-scanner.js';
import { createScanState, scanSecrets } from './internal/scan-secrets.js';
import type { RedactSecretsOptions } from './redact-secrets.js';

/** Options of {@link createStreamRedactor}. */
export type StreamRedactorOptions = RedactSecretsOptions;

/** Redacts a text that arrives in chunks, such as a model's token stream. */
export interface StreamRedactor {
  /** Takes the next chunk; returns the redacted text that is now certain (possibly `''`). */
  push(chunk: string): string;
  /** Ends the text: returns everything still held back, redacted. The redactor can then start a new text. */
  flush(): string;
}

/**
 * A streaming {@link redactSecrets}. A secret split across chunks (`'sk-proj-AB'` + `'CDEF…'`) is
 * still caught: the redactor holds back the end of the text while it could be the start of a
 * secret — normally the last few characters, up to the bound of the longest pattern while one is
 * being decided (8 KB for a private-key block; a block without its END line within that bound is
 * redacted from its BEGIN line on). The concatenation of everything returned by `push` and `flush`
 * equals `redactSecrets` of the concatenated chunks, wherever the chunks were split.
 *
 * @example
 * const redactor = createStreamRedactor();
 * let shown = '';
 * for await (const delta of textStream) shown += redactor.push(delta);
 * shown += redactor.flush();
 */
export function createStreamRedactor(options: StreamRedactorOptions = {}): StreamRedactor {
  const scanner = compileSecretScanner(options.ignoreKinds);
  let state = createScanState();
  let pending = '';
  // While a candidate waits for more text, new chunks are only appended until it can be decided.
  let need = 0;
  let wake: RegExp | undefined;

  const scan = (final: boolean): string => {
    const result = scanSecrets(scanner, pending, state, final);
    pending = pending.slice(result.consumed);
    need = result.need === undefined ? 0 : result.need - result.consumed;
    wake = result.wake;
    return result.output;
  };

  return {
    push(chunk) {
      if (chunk.length === 0) return '';
      pending += chunk;
      if (pending.length < need && !wakes(wake, chunk)) return '';
      return scan(false);
    },
    flush() {
      const output = scan(true);
      pending = '';
      state = createScanState();
      need = 0;
      wake = undefined;
      return output;
    },
  };
}

function wakes(wake: RegExp | undefined, chunk: string): boolean {
  if (wake === undefined) return false;
  wake.lastIndex = 0;
  return wake.test(chunk);
}
