/**
 * Where a thread keeps its suspended flow runs: `snapshot.extensions.hitl.runs`, by flow id. (A plan
 * item keeps its own in the plan's waiting record.) Reading and writing here keeps the snapshot's shape
 * in one place.
 */
import type { SuspendedRun, SuspensionRecord, ThreadSnapshot } from '../spec/index.js';

interface HitlExtension {
  runs: Record<string, SuspendedRun>;
  /** Questions of runs that went on, newest last (bounded): answering one again is refused as answered. */
  settled?: SuspensionRecord[];
}

/** Settled questions kept per thread. */
export const settledSuspensionsKept = 64;

export function readSuspendedRuns(snapshot: ThreadSnapshot): SuspendedRun[] {
  const hitl = snapshot.extensions.hitl as HitlExtension | undefined;
  return hitl ? Object.values(hitl.runs) : [];
}

export function readSuspendedRun(snapshot: ThreadSnapshot, flowId: string): SuspendedRun | undefined {
  return (snapshot.extensions.hitl as HitlExtension | undefined)?.runs[flowId];
}

/** Saves (or, with `undefined`, removes) the suspended run of a flow. */
export function writeSuspendedRun(
  snapshot: ThreadSnapshot,
  flowId: string,
  run: SuspendedRun | undefined,
): void {
  const hitl = snapshot.extensions.hitl as HitlExtension | undefined;
  const runs = { ...hitl?.runs };
  if (run) runs[flowId] = run;
  else delete runs[flowId];
  writeHitl(snapshot, { runs, ...(hitl?.settled ? { settled: hitl.settled } : {}) });
}

/** Keeps the questions of a run that went on, so a late second answer is told it was answered. */
export function archiveSuspensions(snapshot: ThreadSnapshot, records: readonly SuspensionRecord[]): void {
  if (records.length === 0) return;
  const hitl = snapshot.extensions.hitl as HitlExtension | undefined;
  const settled = [...(hitl?.settled ?? []), ...records].slice(-settledSuspensionsKept);
  writeHitl(snapshot, { runs: { ...hitl?.runs }, settled });
}

/** A question of a run that went on, by id. */
export function findSettledSuspension(snapshot: ThreadSnapshot, id: string): SuspensionRecord | undefined {
  return (snapshot.extensions.hitl as HitlExtension | undefined)?.settled?.find((s) => s.id === id);
}

function writeHitl(snapshot: ThreadSnapshot, hitl: HitlExtension): void {
  const { hitl: _old, ...rest } = snapshot.extensions;
  const empty = Object.keys(hitl.runs).length === 0 && (hitl.settled ?? []).length === 0;
  snapshot.extensions = empty ? rest : { ...rest, hitl };
}

/** Drops the runs of flows that are no longer on the stack (popped, invalidated). */
export function pruneSuspendedRuns(snapshot: ThreadSnapshot): void {
  const open = new Set(snapshot.stack.map((f) => f.id));
  for (const run of readSuspendedRuns(snapshot))
    if (!open.has(run.flowId)) writeSuspendedRun(snapshot, run.flowId, undefined);
}
