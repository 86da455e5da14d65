import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError } from '../errors/index.js';
import { defineTool } from '../tool/index.js';
import { defineDomain, maxFlowsPerDomain } from './define-domain.js';
import { defineFlow } from './define-flow.js';
import { loadDomain } from './load-domain.js';
import { parseSkillFile } from './parse-skill-file.js';

const runQuery = defineTool({
  name: 'run_query',
  description: 'Run SQL.',
  input: z.object({ sql: z.string() }),
  idempotent: true,
  execute: () => ({ rows: [] }),
});

const querySkill = `---
name: query-data
description: Answer a question about a table with SQL.
license: MIT
compatibility: Needs a SQLite database.
allowed-tools: run_query
metadata:
  author: flowstack
  flowstack-intent: read
  flowstack-complexity: complex
  flowstack-display: chart bar
  flowstack-gather-context: peek-rows
  flowstack-slots: |
    - name: table
      type: entity
      priority: required
      description: Table
      entities: [sales]
    - name: question
      type: free-text
      priority: required
      description: Question
---
Answer "{{question}}" from {{table}} with run_query.

## Success criteria
The answer cites the rows it used.
`;

const peekSkill = `---
name: peek-rows
description: Look at a few rows of a table.
metadata:
  flowstack-intent: internal
---
Read five rows.
`;

function skillsDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'flowstack-skills-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'SKILL.md'), text);
  }
  return dir;
}

describe('SKILL.md', () => {
  it('reads the Agent Skills frontmatter and flowstack keys under metadata', () => {
    const domain = loadDomain({
      dir: skillsDir({ 'query-data': querySkill, 'peek-rows': peekSkill }),
      tools: [runQuery],
    });
    const query = domain.flows.find((f) => f.name === 'query_data');
    expect(query).toMatchObject({
      intent: 'read',
      description: 'Answer a question about a table with SQL.',
      tools: ['run_query'],
      complexity: 'complex',
      display: { type: 'chart', chartType: 'bar' },
      gatherContext: 'peek_rows',
      successCriteria: 'The answer cites the rows it used.',
      metadata: { author: 'flowstack' },
      skill: 'Answer "{{question}}" from {{table}} with run_query.',
    });
    expect(query?.slots.map((s) => s.name)).toEqual(['table', 'question']);
    expect(query?.isFilled(query.create({ id: 'x', slots: { table: 'sales', question: 'q?' } }))).toBe(true);
    expect(domain.intents).toEqual([
      'plan',
      'converse',
      'internal',
      'read',
      'prepare',
      'transform',
      'schedule',
    ]);
  });

  it('rejects a file with bad frontmatter, listing every problem', () => {
    const result = parseSkillFile(
      '---\nname: Query_Data\ndescription: ""\nversion: 2\nmetadata:\n  flowstack-slots: [1]\n  n: 3\n---\nbody',
      { directoryName: 'query-data' },
    );
    expect(result).toEqual({
      ok: false,
      problems: [
        "unknown frontmatter field 'version'",
        'name must be 1-64 lowercase letters, digits and single hyphens, not starting or ending with one',
        'description must be 1-1024 characters',
        "metadata 'flowstack-slots' must be a string",
        "metadata 'n' must be a string",
      ],
    });
    expect(parseSkillFile('no frontmatter')).toEqual({
      ok: false,
      problems: ['the file does not start with YAML frontmatter between --- lines'],
    });
  });

  it('refuses at start-up a domain whose skills name unknown tools, bad intents or a mismatched directory', () => {
    const dir = skillsDir({
      'query-data': querySkill.replace('run_query\n', 'run_query drop_table\n'),
      'peek-rows': peekSkill.replace('internal', 'gossip'),
      other: peekSkill,
    });
    let error: unknown;
    try {
      loadDomain({ dir, tools: [runQuery] });
    } catch (e) {
      error = e;
    }
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect((error as ConfigurationError).problems).toEqual([
      "other/SKILL.md: name 'peek-rows' must match its directory 'other'",
    ]);
    const fixed = skillsDir({
      'query-data': querySkill.replace('run_query\n', 'run_query drop_table\n'),
      'peek-rows': peekSkill.replace('internal', 'gossip'),
    });
    const problems = (() => {
      try {
        loadDomain({ dir: fixed, tools: [runQuery] });
      } catch (e) {
        return (e as ConfigurationError).problems;
      }
    })();
    expect(problems).toEqual([
      "flow 'peek_rows': a 'gossip' flow needs 1-3 tools (only plan, converse and internal flows may have none)",
      "flow 'peek_rows': intent 'gossip' is not one of plan, converse, internal, read, prepare, transform, schedule",
      "flow 'query_data': tool 'drop_table' is not registered",
      "flow 'query_data': gatherContext flow 'peek_rows' is not an internal flow",
    ]);
  });

  it(`allows at most ${maxFlowsPerDomain} flows per domain`, () => {
    const flows = Array.from({ length: maxFlowsPerDomain + 1 }, (_, i) =>
      defineFlow({ name: `chat_${i}`, intent: 'converse', description: `Chat ${i}.` }),
    );
    expect(() => defineDomain({ name: 'big', flows: flows.slice(0, maxFlowsPerDomain) })).not.toThrow();
    expect(() => defineDomain({ name: 'big', flows })).toThrow(/65 flows; a domain has at most 64/);
  });
});
