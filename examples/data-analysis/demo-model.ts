/**
 * The data-analysis example's offline model: a scripted model whose steps compute their answer from
 * the call, so the example runs without an LLM. It routes with regular expressions, writes SQL from a
 * few question templates, calls each flow's tool with the slot values from the skill prompt, and
 * finishes with what the tool returned (or the tool's error, which is what triggers the staging-table
 * fallback).
 */
import type { LanguageModelV3CallOptions, LanguageModelV3Message } from '@ai-sdk/provider';
import { createScriptedModel, type ScriptedModel, type ScriptStepOutput } from '../../src/test/index.js';

export function createDataAnalysisDemoModel(): ScriptedModel {
  return createScriptedModel({
    modelId: 'data-analysis-demo',
    // It serves `flowstack serve` for as long as the process runs: a record of the latest calls only.
    keepCalls: 100,
    steps: [
      { label: 'route', match: { phase: 'predict' }, repeat: true, respond: route },
      {
        label: 'fill',
        match: { phase: 'fill-slots' },
        repeat: true,
        respond: () => ({ json: { slots: {} } }),
      },
      {
        label: 'contemplate',
        match: { phase: 'contemplate' },
        repeat: true,
        respond: () => ({ json: { flow: 'none' } }),
      },
      { label: 'skill', match: { phase: 'skill' }, repeat: true, respond: runSkill },
    ],
  });
}

function route(options: LanguageModelV3CallOptions): ScriptStepOutput {
  const text = lastUserText(options.prompt);
  const pending = JSON.stringify(options.responseFormat ?? {}).includes('"answer"');
  const chart = /\b(chart|plot|graph)\b.*?\b(units|revenue)\b(?:.*?\bby (region|product|month))?/i.exec(text);
  if (chart)
    return route_('make_chart', { measure: chart[2]?.toLowerCase(), group_by: chart[3]?.toLowerCase() });
  const price =
    /\b(?:raise|increase|cut|lower|change)\b.*?\bprice of (\w[\w ]*?) by (-?\d+(?:\.\d+)?) ?%/i.exec(text);
  if (price) {
    const sign = /\b(cut|lower)\b/i.test(text) ? -1 : 1;
    return route_('change_price', { product: price[1], percent: sign * Number(price[2]) });
  }
  if (/\b(what|which|how many|show|top|list|count)\b/i.test(text) && text.split(/\s+/).length > 3) {
    const table =
      /\b(?:from|in|of) (?:the )?([a-z][a-z0-9_]*)\b(?: table)?\s*\??$/i.exec(text)?.[1] ??
      (/\bproducts?\b/i.test(text) && !/\bsales|revenue|units\b/i.test(text) ? 'products' : 'sales');
    return route_('query_data', { table, question: text });
  }
  return pending ? { json: { flow: 'answer', slots: {} } } : { json: { flow: 'none', slots: {} } };
}

function route_(flow: string, slots: Record<string, unknown>): ScriptStepOutput {
  return {
    json: { flow, slots: Object.fromEntries(Object.entries(slots).filter(([, v]) => v !== undefined)) },
  };
}

function runSkill(options: LanguageModelV3CallOptions): ScriptStepOutput {
  const flow = (options.providerOptions?.flowstack as { flow?: string } | undefined)?.flow ?? '';
  const slots = readSlots(options.prompt);
  // After a failed call the loop may add its reflection summary after the tool result: read the result.
  const reflecting = options.prompt.at(-1)?.providerOptions?.flowstack?.kind === 'reflection-summary';
  const last = options.prompt.at(reflecting ? -2 : -1);
  if (last?.role === 'tool') {
    const part = last.content[0];
    if (part?.type !== 'tool-result') return finish({ outcome: 'failure', message: 'No tool result.' });
    if (part.output.type === 'error-text') return finish({ outcome: 'failure', message: part.output.value });
    const value = part.output.type === 'text' ? readResult(part.output.value) : {};
    return finish({ outcome: 'success', data: describe(flow, slots, value) });
  }
  switch (flow) {
    case 'query_data':
      return call('run_query', { sql: writeSql(slots.question ?? '', slots.table ?? 'sales') });
    case 'make_chart':
      return call('chart_data', { measure: slots.measure, groupBy: slots.group_by });
    case 'change_price':
      return call('apply_price_change', { product: slots.product, percent: Number(slots.percent) });
    case 'create_staging_table':
      return call('create_table', {
        table: slots.table,
        columns: slots.columns ? (JSON.parse(slots.columns) as string[]) : ['id', 'data'],
      });
    case 'profile_table':
      return call('profile_table', { table: slots.table ?? 'sales' });
    case 'peek_rows':
      return call('peek_rows', { table: slots.table ?? 'sales' });
    default:
      return { text: 'I can query the sales data, chart it, and change prices.' };
  }
}

function writeSql(question: string, table: string): string {
  const top = /\btop (\d+) products? by (revenue|units)\b/i.exec(question);
  if (top) {
    const measure = top[2]?.toLowerCase();
    return `SELECT product, ROUND(SUM(${measure}), 2) AS ${measure} FROM sales GROUP BY product ORDER BY ${measure} DESC LIMIT ${top[1]}`;
  }
  if (/\b(how many|count)\b/i.test(question)) return `SELECT COUNT(*) AS count FROM ${table}`;
  return `SELECT * FROM ${table} LIMIT 20`;
}

function describe(
  flow: string,
  slots: Record<string, string>,
  value: Record<string, unknown>,
): Record<string, unknown> {
  const rows = (value.rows ?? []) as Record<string, unknown>[];
  switch (flow) {
    case 'query_data': {
      const first = rows[0];
      const count = typeof value.rowCount === 'number' ? value.rowCount : rows.length;
      const text =
        count === 1 && first && Object.keys(first).length === 1
          ? `${Object.keys(first)[0]}: ${String(Object.values(first)[0])}.`
          : `${count} rows from ${slots.table}${first ? `; the first is ${Object.values(first).join(', ')}` : ''}.`;
      // The rows themselves come from the tool's full result: the model saw only a capped text.
      return { text, source: slots.table };
    }
    case 'make_chart': {
      const top = [...rows].sort((a, b) => Number(b.value) - Number(a.value))[0];
      return {
        text: `${slots.measure} by ${slots.group_by}: ${top?.label} leads with ${top?.value}.`,
        rows,
        chartType: slots.chart_type ?? 'bar',
        source: 'sales',
      };
    }
    case 'change_price':
      return { text: `${value.product} now costs ${value.after} (was ${value.before}).`, ...value };
    case 'create_staging_table':
      return {
        text: `Created the staging table ${value.table} (${(value.columns as string[]).join(', ')}); it is empty, so there is nothing to count yet.`,
        ...value,
      };
    case 'profile_table':
      return {
        text: `${value.table} has ${value.rows} rows with columns ${(value.columns as string[]).join(', ')}.`,
      };
    default: {
      const sample = (value.sample ?? []) as Record<string, unknown>[];
      return { text: `A row of ${value.table} looks like ${JSON.stringify(sample[0] ?? {})}.` };
    }
  }
}

/**
 * A tool result as the model sees it: JSON, or for a long result a capped head and tail, from which
 * the first row and the row count are read.
 */
function readResult(text: string): Record<string, unknown> {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    const first = /"rows":\[(\{[^{}]*\})/.exec(text)?.[1];
    const count = /"rowCount":(\d+)/.exec(text)?.[1];
    return { rows: first ? [JSON.parse(first)] : [], ...(count ? { rowCount: Number(count) } : {}) };
  }
}

function call(toolName: string, input: Record<string, unknown>): ScriptStepOutput {
  return { toolCalls: [{ toolName, input }] };
}

function finish(input: Record<string, unknown>): ScriptStepOutput {
  return { toolCalls: [{ toolName: 'finish_skill', input }] };
}

/** Slot values as the skill prompt lists them (`- name: value` under "Slot values:"). */
function readSlots(prompt: LanguageModelV3Message[]): Record<string, string> {
  const system = prompt.find((m) => m.role === 'system');
  const block = system?.role === 'system' ? (system.content.split('Slot values:\n')[1] ?? '') : '';
  const slots: Record<string, string> = {};
  for (const line of block.split('\n')) {
    const match = /^- (\w+): (.*)$/.exec(line);
    if (!match) break;
    slots[match[1] as string] = match[2] as string;
  }
  return slots;
}

function lastUserText(prompt: LanguageModelV3Message[]): string {
  const user = [...prompt].reverse().find((m) => m.role === 'user');
  if (user?.role !== 'user') return '';
  return user.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
}
