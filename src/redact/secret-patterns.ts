import { flagRule, keyValueRule, tokenRule, wholeLine } from './internal/rule-builders.js';
import type { Continuation, SecretRule } from './internal/secret-rule.js';

// Quantifiers are bounded everywhere; a rule's remainder is consumed by its continuation instead.
const dottedRun: Continuation = { type: 'run', pattern: /[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*/y, hold: 1 };
const base64Run: Continuation = { type: 'run', pattern: /[A-Za-z0-9+/=_-]*/y, hold: 0 };
const token68Run: Continuation = { type: 'run', pattern: /[A-Za-z0-9._~+/=-]*/y, hold: 0 };
/** PEM body characters but `-`; `\` is there for the `\n` escapes of a PEM inside a JSON string. */
const pemText = String.raw`A-Za-z0-9+/=\s:,\\`;
const pemBody = `[${pemText}-]`;
const pemLabel = '-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----';
const pemEnd = '-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----';
const maxPemBody = 8192;
const pemRemainder: Continuation = {
  type: 'run',
  pattern: new RegExp(`(?:[${pemText}]|-(?!----END ))*(?<done>${pemEnd})?`, 'y'),
  hold: 80,
};
const awsSecretRun: Continuation = { type: 'run', pattern: /[A-Za-z0-9/+]*/y, hold: 0 };

/**
 * The pattern table: every secret the redactor recognises, in priority order (the first rule that
 * matches at a position wins, so `sk-ant-` comes before `sk-`). Rules are data; the scanner in
 * `internal/scan-secrets.ts` is the only code that runs them.
 *
 * Decisions, each pinned by a test:
 * - A token never starts inside a word (`task-manager-…`, base64 blobs), and one that runs on past
 *   its usual length is redacted whole. Provider prefixes alone (`sk-`, `ghp_`) are not secrets.
 * - Stripe publishable keys (`pk_live_…`), public keys and certificates are not secrets.
 * - A key-value pair counts when the key ends with the keyword: `token_count=5`, `max_tokens: 100`
 *   and `tokens_used` are not secrets; `access_token=…`, `DB_PASSWORD=…` are. Empty values, `null` /
 *   `true` / `false`, `${VAR}` / `{{ var }}` placeholders, `***` and existing markers are left.
 * - `password=` followed by a space is an empty value; `password = x` (INI) and `password: x`
 *   (YAML, headers; to the end of the line) are not. `PWD=/path` is a directory.
 * - AWS secret access keys have no prefix, so only a 40-character value of a key such as
 *   `aws_secret_access_key` or `SecretAccessKey` is labelled `aws-secret-key`.
 * - A private-key block is redacted whole when its END line comes within 8 KB; otherwise from the
 *   BEGIN line through the characters that can be key material, up to an END line.
 */
export const SECRET_PATTERNS: readonly SecretRule[] = [
  tokenRule('anthropic-key', ['sk-ant-'], 'sk-ant-[A-Za-z0-9_-]{24}'),
  tokenRule(
    'openai-key',
    ['sk-proj-', 'sk-svcacct-', 'sk-admin-'],
    'sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20}',
  ),
  // Classic keys: 20+ letters and digits, with at least one of each (prose words have no digits).
  tokenRule('openai-key', ['sk-'], 'sk-(?=[A-Za-z]{0,19}[0-9])(?=[0-9]{0,19}[A-Za-z])[A-Za-z0-9]{20}'),
  // Other vendors' `sk-<tag>-…` keys (OpenRouter, Langfuse …), which must contain a digit.
  tokenRule('api-key', ['sk-'], 'sk-[A-Za-z0-9]{1,16}-(?=[A-Za-z_-]{0,39}[0-9])[A-Za-z0-9_-]{20}'),
  // Stripe publishable keys (`pk_`) are public by design and left alone.
  tokenRule(
    'stripe-key',
    ['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_'],
    '[rs]k_(?:live|test)_[A-Za-z0-9]{16}',
  ),
  tokenRule('stripe-webhook-secret', ['whsec_'], 'whsec_[A-Za-z0-9+/]{24}', {
    stop: /[^A-Za-z0-9+/=_-]/g,
    continueWith: () => base64Run,
  }),
  tokenRule('google-api-key', ['AIza'], 'AIza[0-9A-Za-z_-]{35}'),
  tokenRule('google-oauth-token', ['ya29.'], String.raw`ya29\.[0-9A-Za-z_-]{20}`, {
    stop: /[^A-Za-z0-9_.-]/g,
    continueWith: () => dottedRun,
  }),
  tokenRule('google-client-secret', ['GOCSPX-'], 'GOCSPX-[A-Za-z0-9_-]{20}'),
  tokenRule('aws-access-key-id', ['AKIA', 'ASIA'], '(?:AKIA|ASIA)[A-Z0-9]{16}'),
  tokenRule('github-token', ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'], 'gh[pousr]_[A-Za-z0-9]{30}'),
  tokenRule('github-token', ['github_pat_'], 'github_pat_[A-Za-z0-9_]{30}'),
  tokenRule('gitlab-token', ['glpat-'], 'glpat-[A-Za-z0-9_-]{20}'),
  tokenRule('npm-token', ['npm_'], 'npm_[A-Za-z0-9]{36}'),
  tokenRule('huggingface-token', ['hf_'], 'hf_(?=[a-z0-9]{0,29}[A-Z])(?=[A-Z0-9]{0,29}[a-z])[A-Za-z0-9]{30}'),
  tokenRule(
    'slack-token',
    ['xoxa-', 'xoxb-', 'xoxe-', 'xoxp-', 'xoxr-', 'xoxs-'],
    'xox[abeprs]-(?=[A-Za-z-]{0,15}[0-9])[0-9A-Za-z-]{16}',
  ),
  tokenRule('slack-token', ['xapp-'], 'xapp-[0-9]{1,3}-[A-Za-z0-9-]{12}'),
  // Keep the host and say what it was; the path is the secret.
  tokenRule(
    'slack-webhook',
    ['hooks.slack.com/'],
    String.raw`(?<keep>hooks\.slack\.com\/(?:services|workflows|triggers)\/)(?=[A-Za-z0-9]{6,24}\/)`,
    {
      stop: /[^A-Za-z0-9/]/g,
      boundary: false,
      delegateTarget: false,
      continueWith: () => ({ type: 'run', pattern: /[A-Za-z0-9/_-]*/y, hold: 0 }),
    },
  ),
  // Header and payload are base64url JSON; the signature (and JWE's extra parts) are consumed after.
  tokenRule('jwt', ['eyJ'], String.raw`eyJ[A-Za-z0-9_-]{8,1024}\.[A-Za-z0-9_-]{8,4096}\.`, {
    window: 5136,
    stop: /[^A-Za-z0-9_.-]/g,
    continueWith: () => dottedRun,
  }),
  // A whole block when its END line comes within the bound …
  {
    kind: 'private-key',
    triggers: ['-----begin '],
    head: new RegExp(`${pemLabel}${pemBody}{0,${maxPemBody}}?${pemEnd}`, 'y'),
    window: maxPemBody + 160,
    stop: new RegExp(`[^${pemText}-]`, 'g'),
    stopTail: 1,
  },
  // … otherwise, conservatively, the BEGIN line and everything after it that could be key material,
  // up to and including an END line.
  {
    kind: 'private-key',
    triggers: ['-----begin '],
    head: new RegExp(pemLabel, 'y'),
    window: 96,
    continueWith: () => pemRemainder,
  },
  // `scheme://user:password@host`: the scheme, user and host stay.
  {
    kind: 'url-password',
    triggers: ['://'],
    head: /(?<keep>:\/\/[^\s/?#@:"'<>`]{0,256}:)(?!\[REDACTED:)[^\s/?#"'<>`]{1,256}(?=@)/y,
    window: 520,
    stop: /[\s/?#"'<>`]/g,
    stopTail: 1,
  },
  keyValueRule({
    kind: 'bearer-token',
    keywords: ['authorization'],
    scheme: String.raw`(?:bearer|token)[ \t]{1,8}`,
    unquoted: token68Run,
    stopTail: 40,
  }),
  keyValueRule({
    kind: 'basic-auth',
    keywords: ['authorization'],
    scheme: String.raw`basic[ \t]{1,8}`,
    unquoted: token68Run,
    delegate: false,
    stopTail: 40,
  }),
  keyValueRule({
    kind: 'authorization',
    keywords: ['authorization'],
    valueCheck: String.raw`(?!(?:bearer|basic|token)(?:\s|$))`,
    unquoted: wholeLine,
    stopTail: 40,
  }),
  // A bare `Bearer <token>`: the token must look like one (16+ characters, a digit among them).
  {
    kind: 'bearer-token',
    triggers: ['bearer'],
    head: /(?<keep>bearer[ \t]{1,8})(?!\[REDACTED:)(?=[A-Za-z0-9._~+/-]{0,63}[0-9])(?=[A-Za-z0-9._~+/=-]{16})/iy,
    window: 96,
    stop: /[^ \t]/g,
    stopTail: 80,
    boundary: true,
    delegate: true,
    continueWith: () => token68Run,
  },
  keyValueRule({ kind: 'cookie', keywords: ['cookie'], unquoted: wholeLine, delegate: false }),
  // AWS secret access keys have no prefix: recognised by their key name and 40-character shape.
  keyValueRule({
    kind: 'aws-secret-key',
    keywords: [
      ...['aws_secret_access_key', 'aws-secret-access-key', 'awssecretaccesskey', 'aws_secret_key'],
      ...['aws-secret-key', 'awssecretkey', 'aws_secret', 'aws-secret', 'awssecret'],
      ...['secret_access_key', 'secret-access-key', 'secretaccesskey'],
    ],
    valueCheck: '(?=[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=]))',
    unquoted: awsSecretRun,
    delegate: false,
    stopTail: 56,
  }),
  keyValueRule({ kind: 'password', keywords: ['password', 'passwd', 'passphrase'] }),
  // `PWD=/home/me` in an environment dump is a directory, not a password.
  keyValueRule({ kind: 'password', keywords: ['pwd'], valueCheck: '(?![/~])' }),
  keyValueRule({
    kind: 'secret',
    keywords: [
      'secret',
      'secret_key',
      'secret-key',
      'secretkey',
      'secret_access_key',
      'secret-access-key',
      'secretaccesskey',
    ],
  }),
  keyValueRule({ kind: 'token', keywords: ['token'] }),
  keyValueRule({ kind: 'api-key', keywords: ['api_key', 'api-key', 'apikey'] }),
  keyValueRule({ kind: 'private-key', keywords: ['private_key', 'private-key', 'privatekey'] }),
  flagRule('password', ['password', 'passwd', 'passphrase']),
  flagRule('secret', ['secret']),
  flagRule('token', ['token']),
  flagRule('api-key', ['api-key', 'api_key', 'apikey']),
];
