export { createSecretSealer, isSealed, type SecretSealer } from './create-secret-sealer.js';
export {
  createStreamRedactor,
  type StreamRedactor,
  type StreamRedactorOptions,
} from './create-stream-redactor.js';
export { type RedactSecretsOptions, redactSecrets } from './redact-secrets.js';
export { defaultRedactMaxDepth, type RedactValueOptions, redactValue } from './redact-value.js';
export { formatRedactionMarker, isRedactionMarker } from './redaction-marker.js';
export { SECRET_KINDS, type SecretKind } from './secret-kind.js';
