import type { Observation } from '../../../spec/index.js';

/** One pub/sub message: the observations one process published in one tick, and which process it was. */
export interface FanoutMessage {
  /** Random per fan-out, so that a process can skip what it published itself. */
  origin: string;
  observations: readonly Observation[];
}

export function encodeFanoutMessage(message: FanoutMessage): string {
  return JSON.stringify({ v: 1, origin: message.origin, observations: message.observations });
}

/** The message, or `undefined` when the text is not one (another app on the channel, a newer version). */
export function decodeFanoutMessage(text: string): FanoutMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { v, origin, observations } = value as Record<string, unknown>;
  if (v !== 1 || typeof origin !== 'string' || !Array.isArray(observations)) return undefined;
  if (!observations.every(isObservationLike)) return undefined;
  return { origin, observations: observations as Observation[] };
}

function isObservationLike(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { threadId, id, type } = value as Record<string, unknown>;
  return (
    typeof threadId === 'string' &&
    typeof id === 'number' &&
    Number.isSafeInteger(id) &&
    typeof type === 'string'
  );
}
