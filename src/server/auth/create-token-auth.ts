/**
 * Bearer-token authentication: `Authorization: Bearer <token>` → the token's principal. Tokens are
 * compared by their SHA-256 digest, so a lookup's timing says nothing about a token's characters.
 */
import { createHash } from 'node:crypto';
import type { TokenTable } from './parse-token-list.js';

/** Returns the principal of a request's credentials, or `undefined` when they are missing or wrong. */
export type Authenticate = (authorization: string | undefined) => string | undefined;

export function createTokenAuth(tokens: TokenTable): Authenticate {
  const byDigest = new Map<string, string>();
  for (const [token, principal] of tokens) byDigest.set(digest(token), principal);
  return (authorization) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match) return undefined;
    return byDigest.get(digest(match[1] as string));
  };
}

function digest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
