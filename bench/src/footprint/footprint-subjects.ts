/**
 * What the footprint section measures for each framework: the module a user imports first (its root entry)
 * and the packages a user installs to get it, at the versions `bench/package.json` pins.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FrameworkId } from '../frameworks/framework.js';

export interface FootprintSubject {
  framework: FrameworkId;
  /** What `import()` is given in the child: a bare name resolved from `bench/node_modules`, or a file URL. */
  specifier: string;
  /** Shown in the report: what the figure imports. */
  importText: string;
  /** `npm install` arguments for a fresh project; empty for flowstack, which installs its packed tarball. */
  installSpecs: string[];
}

/** The five subjects, flowstack first; the peers' versions are read from the bench's own `package.json`. */
export function listFootprintSubjects(benchDir: string, repoDir: string): FootprintSubject[] {
  const pins = (
    JSON.parse(readFileSync(join(benchDir, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    }
  ).dependencies;
  const pinned = (name: string) => `${name}@${pins[name] ?? 'latest'}`;
  return [
    {
      framework: 'flowstack',
      specifier: pathToFileURL(join(repoDir, 'dist', 'src', 'index.js')).href,
      importText: "import('flowstack')",
      installSpecs: [],
    },
    {
      framework: 'ai-sdk',
      specifier: 'ai',
      importText: "import('ai')",
      installSpecs: [pinned('ai')],
    },
    {
      framework: 'openai-agents',
      specifier: '@openai/agents',
      importText: "import('@openai/agents')",
      installSpecs: [pinned('@openai/agents')],
    },
    {
      framework: 'langgraph',
      specifier: '@langchain/langgraph',
      importText: "import('@langchain/langgraph')",
      // LangGraph takes `@langchain/core` as a peer that its users install beside it.
      installSpecs: [pinned('@langchain/langgraph'), pinned('@langchain/core')],
    },
    {
      framework: 'mastra',
      specifier: '@mastra/core',
      importText: "import('@mastra/core')",
      installSpecs: [pinned('@mastra/core')],
    },
  ];
}
