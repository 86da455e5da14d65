/**
 * Loads a domain from a directory of Agent Skills: every `<dir>/<skill>/SKILL.md` becomes a flow, and
 * the tools come from the caller (a list of tool definitions; a tool manifest file is read with the
 * tool pipeline's manifest loader where it is available). Everything is validated at start-up; every
 * problem of every file is reported at once in a `ConfigurationError`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ConfigurationError } from '../errors/index.js';
import type { FlowSpec, Intent, ToolSpec } from '../spec/index.js';
import { type Domain, defineDomain } from './define-domain.js';
import { toFlowDefinition } from './define-flow.js';
import type { FlowHooks } from './flow-hooks.js';
import { parseSkillFile, skillToFlowSpec } from './parse-skill-file.js';

export interface LoadDomainOptions<T extends ToolSpec> {
  /** A directory holding one sub-directory per skill, each with a SKILL.md. */
  dir: string;
  tools: readonly T[];
  /** Defaults to the directory's name. */
  name?: string;
  description?: string;
  intents?: readonly Intent[];
  persona?: string;
  /** Hooks for flows by name (hooks are code, so they cannot live in SKILL.md). */
  hooks?: Record<string, FlowHooks>;
}

export function loadDomain<T extends ToolSpec>(options: LoadDomainOptions<T>): Domain<T> {
  const problems: string[] = [];
  if (!existsSync(options.dir) || !statSync(options.dir).isDirectory())
    throw new ConfigurationError({ message: `The skills directory '${options.dir}' does not exist.` });
  const specs: FlowSpec[] = [];
  for (const entry of readdirSync(options.dir).sort()) {
    const path = join(options.dir, entry, 'SKILL.md');
    if (!statSync(join(options.dir, entry)).isDirectory() || !existsSync(path)) continue;
    const parsed = parseSkillFile(readFileSync(path, 'utf8'), { directoryName: entry });
    if (!parsed.ok) {
      problems.push(...parsed.problems.map((p) => `${entry}/SKILL.md: ${p}`));
      continue;
    }
    const flow = skillToFlowSpec(parsed.skill);
    if (!flow.ok) problems.push(...flow.problems.map((p) => `${entry}/SKILL.md: ${p}`));
    else specs.push(flow.spec);
  }
  if (specs.length === 0 && problems.length === 0) problems.push('the directory holds no <skill>/SKILL.md');
  for (const name of Object.keys(options.hooks ?? {}))
    if (!specs.some((s) => s.name === name)) problems.push(`hooks are given for unknown flow '${name}'`);
  const name = options.name ?? basename(options.dir);
  if (problems.length > 0)
    throw new ConfigurationError({ message: `Domain '${name}' did not load.`, problems });
  return defineDomain({
    name,
    flows: specs.map((spec) => toFlowDefinition(spec, options.hooks?.[spec.name] ?? {})),
    tools: options.tools,
    ...(options.description !== undefined ? { description: options.description } : {}),
    ...(options.intents ? { intents: options.intents } : {}),
    ...(options.persona !== undefined ? { persona: options.persona } : {}),
  });
}
