/**
 * Every kind of secret the redactor recognises, in the order of the pattern table. The kind is the
 * label inside the marker that replaces a secret, e.g. `[REDACTED:openai-key]`.
 */
export const SECRET_KINDS = [
  'anthropic-key',
  'openai-key',
  'api-key',
  'stripe-key',
  'stripe-webhook-secret',
  'google-api-key',
  'google-oauth-token',
  'google-client-secret',
  'aws-access-key-id',
  'aws-secret-key',
  'azure-key',
  'github-token',
  'gitlab-token',
  'npm-token',
  'huggingface-token',
  'slack-token',
  'slack-webhook',
  'sendgrid-key',
  'twilio-key',
  'jwt',
  'private-key',
  'url-password',
  'bearer-token',
  'basic-auth',
  'authorization',
  'cookie',
  'password',
  'secret',
  'token',
] as const;

/** One kind of secret, named in its redaction marker. */
export type SecretKind = (typeof SECRET_KINDS)[number];
