/**
 * Work the first turn of a process would otherwise do on its way: Zod builds a parser for each object
 * schema of the snapshot the first time it meets one (an empty stack never builds the flow's), code runs
 * slower until it has run a few times, and the redactor compiles its secret scanner on its first text.
 * Done once per process when an agent is created, so that the first request — often a crashed turn taken
 * over by a fresh worker — does not pay for it. The sample snapshot holds every kind of value a thread's
 * snapshot can (flows with slots, a question, scratchpad entries, taint records, every kind of dialogue
 * change), so each nested parser is built here. Pure: no I/O, nothing the agent's user supplies is called. Costs a few
 * milliseconds once.
 */
import { createThreadSnapshot } from '../flow/index.js';
import { redactSecrets, redactValue } from '../redact/index.js';
import type { FlowInstance, ThreadSnapshot } from '../spec/index.js';
import { decodeSnapshot, encodeSnapshot } from '../store/index.js';

let prepared = false;

/** Encode-and-decode rounds of the sample: enough for the snapshot's parsers to run at their later speed. */
const rounds = 12;

export function prepareFirstTurn(): void {
  if (prepared) return;
  prepared = true;
  const sample = sampleSnapshot('flowstack-prepare');
  for (let round = 0; round < rounds; round++) decodeSnapshot(sample.threadId, encodeSnapshot(sample));
  redactSecrets('prepare');
  redactValue({ prepare: 'prepare' });
}

function sampleFlow(id: string, status: FlowInstance['status']): FlowInstance {
  return {
    id,
    name: 'prepare',
    status,
    slots: { text: 'prepare', count: 1 },
    retries: 0,
    metadata: { goal: 'prepare' },
    recovery: ['retry'],
    dependsOn: [],
    result: { ok: true },
  };
}

function sampleSnapshot(threadId: string): ThreadSnapshot {
  const snapshot = createThreadSnapshot(threadId, 'prepare');
  snapshot.stack = [sampleFlow('flow-a', 'active'), sampleFlow('flow-b', 'pending')];
  snapshot.background = [sampleFlow('flow-c', 'completed')];
  snapshot.scratchpad = [{ key: 'flow-a:summary:1', text: 'prepare', source: 'prepare', time: 0 }];
  snapshot.pending = { kind: 'slot', flowId: 'flow-a', slot: 'text', question: '?', level: 'general' };
  snapshot.turnCount = 2;
  snapshot.historySeq = 4;
  snapshot.activeTurnId = 'turn-prepare';
  snapshot.preferences = { tone: 'plain' };
  snapshot.taint = [
    {
      tool: 'prepare',
      callId: 'call-prepare',
      turnId: 'turn-prepare',
      notes: ['flow-a:summary:1'],
      flows: ['flow-a'],
    },
  ];
  snapshot.diffs = [
    {
      turn: 1,
      turnId: 'turn-prepare',
      changes: [
        { op: 'push', flowId: 'flow-a', name: 'prepare' },
        { op: 'pop', flowId: 'flow-a', name: 'prepare', status: 'completed' },
        { op: 'status', flowId: 'flow-a', name: 'prepare', from: 'pending', to: 'active' },
        { op: 'slots', flowId: 'flow-a', name: 'prepare', set: { text: 'prepare' }, cleared: [] },
        { op: 'flags', set: { keepGoing: true } },
        { op: 'schedule', flowId: 'flow-b', name: 'prepare', dependsOn: ['flow-a'] },
        { op: 'background', flowId: 'flow-c', name: 'prepare', status: 'active' },
      ],
    },
  ];
  snapshot.extensions = { turn: { turnId: 'turn-prepare', text: 'prepare', messageSeq: 3, attempts: 1 } };
  return snapshot;
}
