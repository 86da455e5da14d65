/**
 * Reads a V8 `.cpuprofile` (from `node --cpu-prof`) and lists the functions with the most self time.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface HotSpot {
  functionName: string;
  location: string;
  selfMs: number;
  /** Of the profile's busy time (idle left out). */
  percent: number;
}

export function summarizeProfile(
  path: string,
  top: number,
  root: string,
): { hotSpots: HotSpot[]; busyMs: number } {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<string, { functionName: string; location: string; us: number }>();
  let busyUs = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    const delta = profile.timeDeltas[i] ?? 0;
    if (!node || node.callFrame.functionName === '(idle)') return;
    busyUs += delta;
    const { functionName, url, lineNumber } = node.callFrame;
    const location = url ? `${shorten(url, root)}:${lineNumber + 1}` : '';
    const key = `${functionName}@${location}`;
    const entry = selfUs.get(key) ?? { functionName: functionName || '(anonymous)', location, us: 0 };
    entry.us += delta;
    selfUs.set(key, entry);
  });
  const hotSpots = [...selfUs.values()]
    .sort((a, b) => b.us - a.us)
    .slice(0, top)
    .map((e) => ({
      functionName: e.functionName,
      location: e.location,
      selfMs: e.us / 1000,
      percent: (100 * e.us) / busyUs,
    }));
  return { hotSpots, busyMs: busyUs / 1000 };
}

function shorten(url: string, root: string): string {
  const path = url.replace(/^file:\/\//, '');
  const modules = path.lastIndexOf('/node_modules/');
  if (modules >= 0) return path.slice(modules + 1);
  return path.startsWith(root) ? path.slice(root.length + 1) : path;
}
