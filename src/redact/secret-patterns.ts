import { flagRule, keyValueRule, tokenRule, wholeLine } from './internal/rule-builders.js';
import type { Continuation, SecretRule } from './internal/secret-rule.js';

// Quantifiers are bounded everywhere; a rule's remainder is consumed by its continuation instead.
/** A token whose prefix never occurs inside a word may start right after one (`mytokenghp_…`). */
const glued = { boundary: false } as const;
const twilioTriggers = ['sk', 'ac'].flatMap((prefix) =>
  [...'0123456789abcdef'].map((digit) => prefix + digit),
);
/** The longest password in a URL that is recognised (longer ones are not). */
const maxUrlPassword = 1024;
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
 * - A token never starts inside a word (`task-manager-…`, base64 blobs), unless its prefix never
 *   occurs in one (`ghp_`, `glpat-`, `xoxb-` …: `glued`); one that runs on past its usual length is
 *   redacted whole. Provider prefixes alone (`sk-`, `ghp_`) are not secrets.
 * - Stripe publishable keys (`pk_live_…`), public keys and certificates are not secrets.
 * - A key-value pair counts when the key ends with the keyword: `token_count=5`, `max_tokens: 100`
 *   and `tokens_used` are not secrets; `access_token=…`, `DB_PASSWORD=…` are. Empty values, `null` /
 *   `true` / `false`, `${VAR}` / `{{ var }}` placeholders, `***` and existing markers are left.
 * - `password=` followed by a space is an empty value; `password = x` (INI) and `password: x`
 *   (YAML, headers; to the end of the line) are not. `PWD=/path` is a directory.
 * - AWS secret access keys have no prefix, so only a 40-character value of a key such as
 *   `aws_secret_access_key` or `SecretAccessKey`, or one right after its access key id, is labelled
 *   `aws-secret-key`.
 * - A key named in a sentence ("The secret: santa") is prose, not a setting (`isProse`, ADR 0055).
 * - A private-key block is redacted whole when its END line comes within 8 KB; otherwise from the
 *   BEGIN line through the characters that can be key material, up to an END line.
 */
export const SECRET_PATTERNS: readonly SecretRule[] = [
  tokenRule('anthropic-key', ['sk-ant-'], 'sk-ant-[A-Za-z0-9_-]{24}', glued),
  tokenRule(
    'openai-key',
    ['sk-proj-', 'sk-svcacct-', 'sk-admin-'],
    'sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20}',
    glued,
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
    ...glued,
    stop: /[^A-Za-z0-9+/=_-]/g,
    continueWith: () => base64Run,
  }),
  tokenRule('google-api-key', ['AIza'], 'AIza[0-9A-Za-z_-]{35}'),
  tokenRule('google-oauth-token', ['ya29.'], String.raw`ya29\.[0-9A-Za-z_-]{20}`, {
    stop: /[^A-Za-z0-9_.-]/g,
    continueWith: () => dottedRun,
  }),
  tokenRule('google-client-secret', ['GOCSPX-'], 'GOCSPX-[A-Za-z0-9_-]{20}', glued),
  // An access key id directly followed by its secret (a credentials CSV row, a pasted pair): the secret
  // has no prefix of its own, so the pair is redacted as one.
  {
    kind: 'aws-secret-key',
    triggers: ['akia', 'asia'],
    head: /(?:AKIA|ASIA)[A-Z0-9]{16}(?:[ \t]{1,4}|[ \t]{0,2}[,;|:=][ \t]{0,2}|["'][ \t]{0,2}[,;:][ \t]{0,2}["'])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/y,
    window: 80,
    boundary: true,
  },
  tokenRule('aws-access-key-id', ['AKIA', 'ASIA'], '(?:AKIA|ASIA)[A-Z0-9]{16}'),
  tokenRule('github-token', ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'], 'gh[pousr]_[A-Za-z0-9]{30}', glued),
  tokenRule('github-token', ['github_pat_'], 'github_pat_[A-Za-z0-9_]{30}', glued),
  tokenRule('gitlab-token', ['glpat-'], 'glpat-[A-Za-z0-9_-]{20}', glued),
  tokenRule('npm-token', ['npm_'], 'npm_[A-Za-z0-9]{36}'),
  tokenRule('huggingface-token', ['hf_'], 'hf_(?=[a-z0-9]{0,29}[A-Z])(?=[A-Z0-9]{0,29}[a-z])[A-Za-z0-9]{30}'),
  tokenRule(
    'slack-token',
    ['xoxa-', 'xoxb-', 'xoxe-', 'xoxp-', 'xoxr-', 'xoxs-'],
    'xox[abeprs]-(?=[A-Za-z-]{0,15}[0-9])[0-9A-Za-z-]{16}',
    glued,
  ),
  tokenRule('slack-token', ['xapp-'], 'xapp-[0-9]{1,3}-[A-Za-z0-9-]{12}', glued),
  // `SG.<22>.<43>`: the dots are part of the key.
  tokenRule('sendgrid-key', ['SG.'], String.raw`SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}`, {
    stop: /[^A-Za-z0-9_.-]/g,
  }),
  // Twilio API key (`SK…`) and account (`AC…`) ids: two capitals and 32 lower-case hex digits. The
  // triggers name the first hex digit too, so that every "ac" of ordinary words is not a candidate.
  tokenRule('twilio-key', twilioTriggers, '(?:SK|AC)[0-9a-f]{32}'),
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
  // `scheme://user:password@host`: the scheme, user and host stay. A password may hold `/`, `#`, `?`
  // (unencoded, as people write them) and `@` (when another `@` follows before the host's `/`); a port
  // followed by a path (`host:8443/@scope/pkg`) is not a password. A password never spans another `://`,
  // so a candidate reads at most up to the next one, and the password is captured in a lookahead, never
  // backtracked into: linear time however often the text repeats the pattern.
  {
    kind: 'url-password',
    triggers: ['://'],
    head: new RegExp(
      String.raw`(?<keep>:\/\/[^\s/?#@:"'<>\x60]{0,256}:)(?!\[REDACTED:)(?!\d{1,5}(?:[/?#]|$))` +
        String.raw`(?=(?<password>(?:[^\s@:"'<>\x60]|:(?!\/\/)|@(?=[^\s/@"'<>\x60]{0,256}@)){1,${maxUrlPassword}}))\k<password>(?=@)`,
      'y',
    ),
    window: maxUrlPassword + 300,
    stop: /[\s"'<>`]/g,
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
  // A bare `Bearer <token>`: the token must look like one — 16+ characters with a digit among them, or
  // 20+ with a lower-case letter followed by a capital (words of prose have neither).
  {
    kind: 'bearer-token',
    triggers: ['bearer'],
    head: /(?<keep>[Bb][Ee][Aa][Rr][Ee][Rr][ \t]{1,8})(?!\[REDACTED:)(?:(?=[A-Za-z0-9._~+/-]{0,63}[0-9])(?=[A-Za-z0-9._~+/=-]{16})|(?=[A-Za-z0-9._~+/-]{0,62}[a-z][A-Z])(?=[A-Za-z0-9._~+/=-]{20}))/y,
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
  // Azure storage account keys and Service Bus / Event Hubs shared access keys (connection strings).
  keyValueRule({ kind: 'azure-key', keywords: ['accountkey', 'sharedaccesskey'] }),
  keyValueRule({ kind: 'password', keywords: ['password', 'passwords', 'passwd', 'passphrase'] }),
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
