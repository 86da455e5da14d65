import { createHash } from 'node:crypto';

/** JSON with object keys sorted, so that equal values give equal text whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(v).sort()) sorted[key] = (v as Record<string, unknown>)[key];
    return sorted;
  });
}

/** A short SHA-256 of a value's canonical JSON; binds approvals and journal rows to exact arguments. */
export function stableHash(value: unknown): string {
  return createHash('sha256')
    .update(canonicalJson(value) ?? 'undefined')
    .digest('hex')
    .slice(0, 32);
}
