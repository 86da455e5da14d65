/**
 * Work the first turn of a process would otherwise do on its way: Zod builds the snapshot schema's
 * parser on its first use, and the redactor compiles its secret scanner on its first text. Done once per
 * process when an agent is created, so that the first request — often a crashed turn taken over by a
 * fresh worker — does not pay for it. Pure: no I/O, nothing the agent's user supplies is called.
 */
import { createThreadSnapshot } from '../flow/index.js';
import { redactSecrets, redactValue } from '../redact/index.js';
import { decodeSnapshot, encodeSnapshot } from '../store/index.js';

let prepared = false;

export function prepareFirstTurn(): void {
  if (prepared) return;
  prepared = true;
  const threadId = 'flowstack-prepare';
  decodeSnapshot(threadId, encodeSnapshot(createThreadSnapshot(threadId)));
  redactSecrets('prepare');
  redactValue({ prepare: 'prepare' });
}
