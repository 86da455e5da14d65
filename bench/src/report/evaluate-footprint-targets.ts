/**
 * The footprint's targets: a default install of flowstack under 60 MB of `node_modules` with no native build,
 * and `import('flowstack')` no slower and no heavier (RSS) than `import('ai')`, measured side by side.
 */
import type { Collected } from '../orchestrate/collect.js';
import { megabytes, ms, ratio } from './format.js';
import { mid } from './summarize.js';
import { gaps, type TargetResult } from './targets.js';

/** The line of the install target, in bytes of files under `node_modules` (MB = 10⁶ bytes). */
export const installLineBytes = 60e6;

export function evaluateFootprintTargets(collected: Collected): TargetResult[] {
  const footprint = collected.footprint;
  const install = footprint?.install.find((row) => row.framework === 'flowstack');
  const aiInstall = footprint?.install.find((row) => row.framework === 'ai-sdk');
  const cold = footprint?.coldStart.find((row) => row.framework === 'flowstack');
  const aiCold = footprint?.coldStart.find((row) => row.framework === 'ai-sdk');
  const native = install?.installScripts ?? [];
  const results: TargetResult[] = [
    {
      id: 'install-size',
      target: 'a default install of flowstack: under 60 MB of `node_modules`, no native build',
      measured: install
        ? `${megabytes(install.bytes)} in ${install.packages} packages; ` +
          (native.length === 0
            ? 'no package with an install script'
            : `${native.length} with an install script (${native.join(', ')})`) +
          (aiInstall ? `; the AI SDK: ${megabytes(aiInstall.bytes)} in ${aiInstall.packages} packages` : '')
        : 'not measured',
      summary: {
        flowstack: install
          ? `${megabytes(install.bytes)}, ${install.packages} packages, ${native.length === 0 ? 'no install script' : `${native.length} install scripts`}`
          : '—',
        peer: 'line: 60 MB',
        ratio: install ? `${ratio(install.bytes / installLineBytes)} of 60 MB` : '—',
      },
      met: install ? install.bytes < installLineBytes && native.length === 0 : undefined,
      ...(install ? { margin: (installLineBytes - install.bytes) / installLineBytes } : {}),
      gap: gaps.installSize,
    },
  ];
  for (const measure of ['time', 'rss'] as const) {
    const of = (row: typeof cold) =>
      row ? mid(measure === 'time' ? row.importMs : row.rssBytes) : Number.NaN;
    const show = (value: number) => (measure === 'time' ? ms(value) : megabytes(value));
    const value = of(cold) / of(aiCold);
    results.push({
      id: `cold-import-${measure}`,
      target:
        measure === 'time'
          ? "cold start: `import('flowstack')` no slower than `import('ai')`"
          : "cold start: RSS after `import('flowstack')` no more than after `import('ai')`",
      measured:
        cold && aiCold
          ? `median of ${footprint?.runs} fresh processes each: flowstack ${show(of(cold))} vs the AI SDK ${show(of(aiCold))}: ${ratio(value)} (module files loaded: ${cold.modules} vs ${aiCold.modules})`
          : 'not measured',
      summary: {
        flowstack: cold
          ? `${show(of(cold))}${measure === 'time' ? ` (${cold.modules} module files)` : ''}`
          : '—',
        peer: aiCold ? `AI SDK: ${show(of(aiCold))}${measure === 'time' ? ` (${aiCold.modules})` : ''}` : '—',
        ratio: ratio(value),
      },
      met: Number.isFinite(value) ? value <= 1 : undefined,
      ...(Number.isFinite(value) ? { margin: 1 - value } : {}),
      gap: gaps.coldImport,
    });
  }
  return results;
}
