/**
 * The top of `docs/benchmarks.md`: one line per target (flowstack's figure, the peer's, the ratio, the
 * verdict), the measured comparisons that have no target, and a few sentences that say what the run found.
 */
import type { Collected } from '../orchestrate/collect.js';
import { megabytes, ms, ratio, table, us } from './format.js';
import { shortLabels } from './labels.js';
import { mid, stepsRow } from './summarize.js';
import type { TargetResult } from './targets.js';

export function renderSummaryTable(targets: readonly TargetResult[]): string {
  return table(
    ['target', 'flowstack', 'peer (or line)', 'ratio', 'verdict'],
    targets.map((t) => [t.target, t.summary.flowstack, t.summary.peer, t.summary.ratio, verdictOf(t)]),
  );
}

function verdictOf(target: TargetResult): string {
  return target.met === undefined ? 'not measured' : target.met ? 'met' : '**missed**';
}

/** The comparisons measured without a target: flowstack against the peer, as a ratio only. */
export function renderComparisons(collected: Collected): string {
  const rows: string[][] = [];
  for (const k of [10, 100]) {
    const flow = stepsRow(collected, 'flowstack', 'postgres', k);
    const graph = stepsRow(collected, 'langgraph', 'postgres', k);
    if (!flow && !graph) continue;
    rows.push([
      `K = ${k}, durable write every step on PostgreSQL (wall time per step)`,
      flow ? us(mid(flow.overhead)) : 'not measured',
      graph ? `LangGraph.js \`PostgresSaver\`: ${us(mid(graph.overhead))}` : 'not measured',
      flow && graph ? `${ratio(mid(graph.overhead) / mid(flow.overhead))} faster` : '—',
    ]);
  }
  const drivers = collected.sqliteDrivers;
  if (drivers?.measured) {
    const node = drivers.rows.find((row) => row.driver === 'node:sqlite');
    const better = drivers.rows.find((row) => row.driver === 'better-sqlite3');
    rows.push([
      `the SQLite store's writes per step, \`node:sqlite\` against better-sqlite3 (Node ${drivers.node})`,
      node ? `\`node:sqlite\`: ${us(mid(node.wallUs))}` : 'failed',
      better ? `better-sqlite3: ${us(mid(better.wallUs))}` : 'failed',
      node && better ? `${ratio(mid(better.wallUs) / mid(node.wallUs))} (better-sqlite3 ÷ node:sqlite)` : '—',
    ]);
  } else if (drivers) {
    rows.push([
      "the SQLite store's writes per step, `node:sqlite` against better-sqlite3",
      drivers.reason,
      '',
      '',
    ]);
  }
  if (rows.length === 0) return '';
  return [
    'Measured beside a peer, with no target set:',
    '',
    table(['comparison', 'flowstack', 'peer', 'ratio'], rows),
  ].join('\n');
}

/** A few sentences: how many targets were met, which were missed, and the footprint in words. */
export function describeRun(collected: Collected, targets: readonly TargetResult[]): string {
  const measured = targets.filter((t) => t.met !== undefined);
  const missed = measured.filter((t) => t.met === false);
  const sentences = [
    `flowstack met ${measured.length - missed.length} of the ${measured.length} targets measured in this run` +
      (measured.length < targets.length ? ` (${targets.length - measured.length} not measured)` : '') +
      (missed.length > 0
        ? `; the appendix says why each of the ${missed.length} missed is missed and what would close it.`
        : '.'),
  ];
  const footprint = collected.footprint;
  const install = (framework: string) => footprint?.install.find((row) => row.framework === framework);
  const cold = (framework: string) => footprint?.coldStart.find((row) => row.framework === framework);
  const flowInstall = install('flowstack');
  const largest = footprint?.install
    .filter((row) => row.framework !== 'flowstack')
    .sort((a, b) => b.bytes - a.bytes)[0];
  if (flowInstall) {
    const ai = install('ai-sdk');
    const beside = [
      ...(ai ? [`the AI SDK ${megabytes(ai.bytes)} in ${ai.packages}`] : []),
      ...(largest
        ? [
            `the largest peer, ${shortLabels[largest.framework]}, ${megabytes(largest.bytes)} in ${largest.packages}`,
          ]
        : []),
    ];
    sentences.push(
      `A fresh install of flowstack is ${megabytes(flowInstall.bytes)} in ${flowInstall.packages} packages` +
        (beside.length > 0 ? ` (${beside.join('; ')})` : '') +
        '.',
    );
  }
  const flowCold = cold('flowstack');
  const aiCold = cold('ai-sdk');
  if (flowCold && aiCold)
    sentences.push(
      `\`import('flowstack')\` took ${ms(mid(flowCold.importMs))} and left ${megabytes(mid(flowCold.rssBytes))} of RSS in a ` +
        `fresh process, \`import('ai')\` ${ms(mid(aiCold.importMs))} and ${megabytes(mid(aiCold.rssBytes))}.`,
    );
  sentences.push(
    "Everything else (the machine and versions, each scenario's tables, how each figure is measured, why a missed " +
      'target is missed) is in the appendix below.',
  );
  return sentences.join(' ');
}
