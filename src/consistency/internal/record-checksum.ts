import { createHash } from 'node:crypto';
import type { FileSnapshotRecord } from '../../spec/index.js';
import { canonicalJson } from '../../util/index.js';

/** SHA-256 of a record's canonical JSON without its `checksum` field. */
export function recordChecksum(record: Omit<FileSnapshotRecord, 'checksum'> & { checksum?: string }): string {
  const { checksum: _checksum, ...rest } = record;
  return createHash('sha256').update(canonicalJson(rest)).digest('hex');
}

export function sha256Of(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
