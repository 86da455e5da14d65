/**
 * The questions a thread waits for and the file snapshots it can roll back to, as the API shows them:
 * from the agent's own thread view when it has them (the durability layer), else from the thread's
 * observations.
 */
import type { OpenSuspension } from '../observe/index.js';

export interface SuspensionInfo {
  suspensionId?: string;
  kind?: string;
  callId: string;
  toolName: string;
  prompt: string;
  input?: unknown;
  /** An approval's call in the tool's own words (`SuspensionRecord.callWords`). */
  callWords?: unknown;
  feedback?: unknown;
  expiresAt?: number;
}

export function describeSuspensions(thread: object, fromEvents: readonly OpenSuspension[]): SuspensionInfo[] {
  const own = (thread as { suspensions?: unknown }).suspensions;
  if (!Array.isArray(own)) return fromEvents.map(({ observationId: _id, ...rest }) => rest);
  return own
    .filter((s): s is Record<string, unknown> => typeof s === 'object' && s !== null)
    .filter((s) => s.status === undefined || s.status === 'open')
    .map((s) => {
      const info: SuspensionInfo = {
        callId: String(s.callId ?? ''),
        toolName: String(s.toolName ?? ''),
        prompt: String(s.prompt ?? ''),
      };
      if (typeof s.id === 'string') info.suspensionId = s.id;
      if (typeof s.kind === 'string') info.kind = s.kind;
      if (s.input !== undefined) info.input = s.input;
      if (s.callWords !== undefined) info.callWords = s.callWords;
      if (s.feedback !== undefined) info.feedback = s.feedback;
      if (typeof s.expiresAt === 'number') info.expiresAt = s.expiresAt;
      return info;
    });
}

/** The agent's file snapshots of the thread (`{ id, toolName, status, paths }`), when it keeps any. */
export function describeFileSnapshots(thread: object): unknown[] | undefined {
  const snapshots = (thread as { fileSnapshots?: unknown }).fileSnapshots;
  return Array.isArray(snapshots) ? snapshots : undefined;
}
