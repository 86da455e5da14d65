/** The appendix's section on cold start and install size, flowstack beside the four peers. */
import type { FrameworkId } from '../frameworks/framework.js';
import type { Collected } from '../orchestrate/collect.js';
import { megabytes, ms, ratio, spread, table } from './format.js';
import { peers, shortLabels } from './labels.js';
import { mid } from './summarize.js';

export function renderFootprint(collected: Collected): string {
  const footprint = collected.footprint;
  const out = [
    '## 6. Cold start and install size',
    '',
    "Cold import: each framework's root entry (`import('flowstack')` from the build measured, each peer from the " +
      "bench's own install at the versions it pins) imported in a fresh `node` process, the frameworks alternating " +
      'process by process; the time of the `import()` itself and the RSS right after it, median over the processes ' +
      '(range in brackets). "Module files" counts the files the import loads (ES modules through a load hook, ' +
      'CommonJS ones from the require cache) in a first round whose time is not used, which also brings the files ' +
      "into the operating system's cache. Install: each framework alone in a new empty project, `npm install " +
      '--ignore-scripts` (flowstack as the tarball `npm pack` makes of the build measured; the peers at the pinned ' +
      "versions, LangGraph.js with `@langchain/core`, its peer), with npm's own resolution of everything below; the " +
      'size is the sum of the files under `node_modules` (MB = 10⁶ bytes), the packages are every copy in the tree, ' +
      'and "install scripts" names the packages whose install would run a script (a native build among them), which ' +
      "the option kept from running for every framework alike. The ratios are the peer's figure over flowstack's: " +
      'above 1× flowstack is lighter or faster.',
    '',
  ];
  if (!footprint) return [...out, 'Not measured in this run.'].join('\n');
  const base = footprint.coldStart.find((row) => row.framework === 'flowstack');
  const baseInstall = footprint.install.find((row) => row.framework === 'flowstack');
  const measured = (['flowstack', ...peers] as FrameworkId[]).filter((framework) =>
    [...footprint.coldStart, ...footprint.install].some((row) => row.framework === framework),
  );
  const rows = measured.map((framework) => {
    const row = footprint.coldStart.find((c) => c.framework === framework);
    const install = footprint.install.find((i) => i.framework === framework);
    const isBase = framework === 'flowstack';
    return [
      row ? `${shortLabels[framework]}: \`${row.importText}\`` : `${shortLabels[framework]} (not imported)`,
      row ? spread(row.importMs, ms) : '—',
      isBase || !base || !row ? '' : ratio(mid(row.importMs) / mid(base.importMs)),
      row ? spread(row.rssBytes, megabytes) : '—',
      isBase || !base || !row ? '' : ratio(mid(row.rssBytes) / mid(base.rssBytes)),
      row ? String(row.modules) : '—',
      install
        ? megabytes(install.bytes) +
          (install.cached ? ` (tree of ${install.measuredAt.slice(0, 16).replace('T', ' ')})` : '')
        : '—',
      install && baseInstall && !isBase ? ratio(install.bytes / baseInstall.bytes) : '',
      install ? String(install.packages) : '—',
      install ? (install.installScripts.length === 0 ? 'none' : install.installScripts.join(', ')) : '—',
      install ? `\`${install.installed}\`` : '—',
    ];
  });
  out.push(
    table(
      [
        'framework and import',
        'cold import: median (range)',
        'flowstack advantage',
        'RSS after the import',
        'flowstack advantage',
        'module files',
        'install size',
        'flowstack advantage',
        'packages',
        'install scripts',
        'installed',
      ],
      rows,
    ),
    '',
    `${footprint.runs} measured processes per framework. A size marked with a date comes from a tree an earlier ` +
      "run installed: the quick plan reuses the peers' and, while the fields of flowstack's `package.json` that " +
      "decide its dependencies are unchanged, flowstack's, with the size of this run's tarball in place of the " +
      'old (`bench/.cache/install-sizes.json`). A framework without a cold-import row was not imported in this ' +
      'run (the quick plan imports flowstack and the AI SDK).',
  );
  return out.join('\n');
}
