/**
 * The agent's tool sets follow its tool sources: made again when a source's list changed, the same
 * objects when it did not, and a name clash a source brings later keeps the tool that had the name.
 */
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../errors/index.js';
import { defineTool, type ToolDefinition, type ToolSource } from '../tool/index.js';
import { createAgentToolSets } from './agent-tool-sets.js';

const makeTool = (name: string, description = `Tool ${name}.`) =>
  defineTool({ name, description, input: { type: 'object' }, execute: () => name });

function changingSource(initial: ToolDefinition[]): ToolSource & { set(tools: ToolDefinition[]): void } {
  let tools: readonly ToolDefinition[] = initial;
  return {
    source: 'mcp:test',
    get tools() {
      return tools;
    },
    set(next) {
      tools = next;
    },
  };
}

describe('createAgentToolSets', () => {
  it('reads the sources again, keeping the sets while nothing changed', () => {
    const own = makeTool('own');
    const source = changingSource([makeTool('a')]);
    const sets = createAgentToolSets({ given: [own, source], added: [], planning: true });
    const first = sets.current();
    expect([...first.tools.keys()]).toEqual(['own', 'a']);
    expect([...first.planTools.keys()]).toEqual(['own', 'a', 'update_plan']);
    expect(sets.current()).toBe(first);

    source.set([makeTool('b')]);
    const second = sets.current();
    expect([...second.tools.keys()]).toEqual(['own', 'b']);
    expect(second.tools.get('own')).toBe(own);
  });

  it('refuses a name clash at start-up; one a source brings later keeps the tool that had the name', () => {
    const own = makeTool('report', 'Our own report.');
    expect(() =>
      createAgentToolSets({ given: [own, changingSource([makeTool('report')])], added: [], planning: false }),
    ).toThrow(ConfigurationError);
    const source = changingSource([]);
    const sets = createAgentToolSets({ given: [own, source], added: [], planning: true });
    source.set([makeTool('report', 'The server report.'), makeTool('update_plan'), makeTool('fresh')]);
    const { tools, planTools } = sets.current();
    expect(tools.get('report')?.description).toBe('Our own report.');
    expect([...tools.keys()]).toEqual(['report', 'fresh']);
    expect(planTools.get('update_plan')?.description).not.toBe('Tool update_plan.');
  });
});
