/**
 * Reads a flow's skill from a `SKILL.md` file in the Agent Skills format: YAML frontmatter (`name`,
 * `description`, optional `license`, `compatibility`, `metadata`, `allowed-tools`) and a Markdown body
 * that is the skill template. flowstack's own keys live under `metadata` as strings, so the file stays
 * a valid Agent Skill for other tools:
 *
 * ```yaml
 * metadata:
 *   flowstack-intent: read              # required
 *   flowstack-slots: |                  # a YAML list of slot specs
 *     - { name: table, type: entity, priority: required, description: Table }
 *   flowstack-complexity: simple        # optional: simple | complex
 *   flowstack-display: chart bar        # optional: text | table | chart [type] | json
 *   flowstack-fallback: other_flow      # optional
 *   flowstack-gather-context: peek_rows # optional
 *   flowstack-depends-on: a b           # optional, internal flows only
 *   flowstack-required-tools: run_query # optional: tools the skill must call before it succeeds
 * ```
 * A `## Success criteria` section of the body becomes the flow's success criteria.
 */
import { createRequire } from 'node:module';
import type { DisplayType, FlowSpec, SlotSpec } from '../spec/index.js';

/** The frontmatter fields of the Agent Skills format. */
export interface SkillFile {
  name: string;
  description: string;
  license?: string;
  compatibility?: string;
  metadata: Record<string, string>;
  /** `allowed-tools`, split on spaces. */
  allowedTools: string[];
  /** The Markdown body. */
  body: string;
}

const knownKeys = new Set(['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools']);
const displayTypes = new Set(['text', 'table', 'chart', 'json']);

/** Parses a SKILL.md text; returns the skill or every problem found. */
export function parseSkillFile(
  text: string,
  options: { directoryName?: string } = {},
): { ok: true; skill: SkillFile } | { ok: false; problems: string[] } {
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)([\s\S]*)$/.exec(text);
  if (!match)
    return { ok: false, problems: ['the file does not start with YAML frontmatter between --- lines'] };
  let front: unknown;
  try {
    front = parseYaml(match[1] as string);
  } catch (error) {
    return {
      ok: false,
      problems: [`the frontmatter is not YAML: ${(error as Error).message.split('\n')[0]}`],
    };
  }
  if (!front || typeof front !== 'object' || Array.isArray(front))
    return { ok: false, problems: ['the frontmatter is not a mapping'] };
  const record = front as Record<string, unknown>;
  const problems: string[] = [];
  for (const key of Object.keys(record))
    if (!knownKeys.has(key)) problems.push(`unknown frontmatter field '${key}'`);
  const name = record.name;
  if (typeof name !== 'string' || !/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(name) || name.length > 64)
    problems.push(
      'name must be 1-64 lowercase letters, digits and single hyphens, not starting or ending with one',
    );
  else if (options.directoryName !== undefined && options.directoryName !== name)
    problems.push(`name '${name}' must match its directory '${options.directoryName}'`);
  const description = record.description;
  if (typeof description !== 'string' || description.trim() === '' || description.length > 1024)
    problems.push('description must be 1-1024 characters');
  for (const key of ['license', 'compatibility', 'allowed-tools'] as const)
    if (record[key] !== undefined && typeof record[key] !== 'string')
      problems.push(`${key} must be a string`);
  if (
    typeof record.compatibility === 'string' &&
    (record.compatibility.length === 0 || record.compatibility.length > 500)
  )
    problems.push('compatibility must be 1-500 characters');
  const metadata: Record<string, string> = {};
  if (record.metadata !== undefined) {
    if (!record.metadata || typeof record.metadata !== 'object' || Array.isArray(record.metadata))
      problems.push('metadata must be a mapping of strings');
    else
      for (const [key, value] of Object.entries(record.metadata)) {
        if (typeof value === 'string') metadata[key] = value;
        else problems.push(`metadata '${key}' must be a string`);
      }
  }
  if (problems.length > 0) return { ok: false, problems };
  const skill: SkillFile = {
    name: name as string,
    description: description as string,
    metadata,
    allowedTools:
      typeof record['allowed-tools'] === 'string'
        ? record['allowed-tools'].split(/\s+/).filter((t) => t !== '')
        : [],
    body: (match[2] as string).trim(),
  };
  if (typeof record.license === 'string') skill.license = record.license;
  if (typeof record.compatibility === 'string') skill.compatibility = record.compatibility;
  return { ok: true, skill };
}

/** The flow spec a skill describes (not yet validated as a flow: `defineDomain` does that). */
export function skillToFlowSpec(
  skill: SkillFile,
): { ok: true; spec: FlowSpec } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  const meta = skill.metadata;
  const intent = meta['flowstack-intent'];
  if (!intent) problems.push("metadata 'flowstack-intent' is missing");
  let slots: SlotSpec[] = [];
  if (meta['flowstack-slots'] !== undefined) {
    try {
      const parsed: unknown = parseYaml(meta['flowstack-slots']);
      if (!Array.isArray(parsed)) problems.push("metadata 'flowstack-slots' must be a YAML list of slots");
      else slots = parsed as SlotSpec[];
    } catch (error) {
      problems.push(`metadata 'flowstack-slots' is not YAML: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  for (const [index, slot] of slots.entries())
    if (!slot || typeof slot !== 'object' || typeof slot.name !== 'string')
      problems.push(`slot ${index + 1} has no name`);
  const complexity = meta['flowstack-complexity'];
  if (complexity !== undefined && complexity !== 'simple' && complexity !== 'complex')
    problems.push("metadata 'flowstack-complexity' must be simple or complex");
  const display = meta['flowstack-display']?.trim().split(/\s+/);
  if (display && !displayTypes.has(display[0] as string))
    problems.push("metadata 'flowstack-display' must start with text, table, chart or json");
  if (problems.length > 0) return { ok: false, problems };
  const sections = skill.body.split(/^##\s+Success criteria\s*$/im);
  const spec: FlowSpec = {
    specVersion: 1,
    name: skill.name.replaceAll('-', '_'),
    intent: intent as string,
    description: skill.description,
    slots,
    tools: skill.allowedTools,
    skill: (sections[0] ?? '').trim() || skill.description,
  };
  const criteria = sections[1]?.split(/^##\s/m)[0]?.trim();
  if (criteria) spec.successCriteria = criteria;
  if (complexity) spec.complexity = complexity as 'simple' | 'complex';
  if (display)
    spec.display = { type: display[0] as DisplayType, ...(display[1] ? { chartType: display[1] } : {}) };
  // Other skills are named as in their frontmatter (kebab-case) or as flows (snake_case).
  const flowName = (name: string) => name.trim().replaceAll('-', '_');
  if (meta['flowstack-fallback']) spec.fallback = flowName(meta['flowstack-fallback']);
  if (meta['flowstack-gather-context']) spec.gatherContext = flowName(meta['flowstack-gather-context']);
  if (meta['flowstack-depends-on'])
    spec.dependsOn = meta['flowstack-depends-on']
      .split(/\s+/)
      .filter((s) => s !== '')
      .map(flowName);
  if (meta['flowstack-required-tools'])
    spec.requiredTools = meta['flowstack-required-tools'].split(/\s+/).filter((s) => s !== '');
  const rest = Object.fromEntries(Object.entries(meta).filter(([key]) => !key.startsWith('flowstack-')));
  if (Object.keys(rest).length > 0) spec.metadata = rest;
  return { ok: true, spec };
}

/** The YAML parser loads with the first skill file read, not with flowstack (an agent in code has none). */
function parseYaml(text: string): unknown {
  return (createRequire(import.meta.url)('yaml') as typeof import('yaml')).parse(text);
}
