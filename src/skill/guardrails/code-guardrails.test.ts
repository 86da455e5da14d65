import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CodeGuardrailError } from '../../errors/index.js';
import { redactSecrets, redactValue } from '../../redact/index.js';
import { createToolSet, defineTool, executeToolBatch } from '../../tool/index.js';
import { systemClock } from '../../util/index.js';
import { applyCodeGuardrails, assertCodeGuardrails } from './apply-code-guardrails.js';
import { checkJavaScript } from './check-javascript.js';
import { checkSql } from './check-sql.js';
import { extractCodeBlocks, stripCodeFences } from './strip-code-fences.js';

const schema = {
  tables: { orders: ['id', 'customer_id', 'total', 'created_at'], customers: ['id', 'name', 'country'] },
};

describe('stripCodeFences', () => {
  it('takes the fenced block in the wanted language from an answer that mixes prose and code', () => {
    const answer =
      'Here is the plan:\n```text\nnot code\n```\nAnd the query:\n```sql\nSELECT id FROM orders\n```\nDone.';
    expect(stripCodeFences(answer, { language: 'sql' })).toBe('SELECT id FROM orders');
    expect(extractCodeBlocks(answer).map((b) => b.language)).toEqual(['text', 'sql']);
  });

  it('handles an unterminated fence, a trigger phrase and a bare answer', () => {
    expect(stripCodeFences('```js\nconst a = 1;\n')).toBe('const a = 1;');
    expect(stripCodeFences('I will run this. Query: SELECT 1', { trigger: 'Query:' })).toBe('SELECT 1');
    expect(stripCodeFences('  SELECT 1  ')).toBe('SELECT 1');
  });
});

describe('checkJavaScript', () => {
  it('accepts valid code and strips its comments without changing its meaning', () => {
    const checked = checkJavaScript(
      '// sum\nexport function total(xs) {\n  return xs.reduce((a, b) => a + b, 0); /* fast */\n}',
    );
    expect(checked).toEqual({
      ok: true,
      code: 'export function total(xs) {\n  return xs.reduce((a, b) => a + b, 0);\n}',
    });
    const asi = checkJavaScript('function f() { return /*\n*/ 1 }');
    expect(asi.ok && asi.code).toBe('function f() { return\n 1 }');
  });

  it('rejects a syntax error with its line', () => {
    const checked = checkJavaScript('const a = 1;\nconst b = ;');
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.problems[0]).toMatchObject({ kind: 'syntax', line: 2 });
  });

  it('rejects disallowed imports in every form: static, re-export, dynamic, require, node: prefix', () => {
    const code = [
      "import { exec } from 'node:child_process';",
      "export * from 'fs';",
      "const net = await import('net');",
      "const os = require('os');",
      'const dyn = await import(name);',
      "import lodash from 'lodash';",
    ].join('\n');
    const checked = checkJavaScript(code);
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.problems.map((p) => p.line)).toEqual([1, 2, 3, 4, 5]);
    expect(checked.problems[4]?.message).toContain('computed module name');
  });

  it('with an allow-list, rejects every module not on it', () => {
    const checked = checkJavaScript("import _ from 'lodash';\nimport { z } from 'zod';", {
      allowedImports: ['zod'],
    });
    expect(!checked.ok && checked.problems.map((p) => p.message)).toEqual([
      "importing 'lodash' is not allowed",
    ]);
  });

  it('rejects dangerous globals but not properties that share their name', () => {
    const checked = checkJavaScript(
      'const a = eval("1");\nconst b = new Function("x");\nconst c = obj.process;\nconst d = { eval: 1 };\nprocess.exit(1);',
    );
    expect(!checked.ok && checked.problems.map((p) => [p.kind, p.line])).toEqual([
      ['global', 1],
      ['global', 2],
      ['global', 5],
    ]);
  });

  it('can require exactly one function', () => {
    expect(checkJavaScript('export function f() {}', { singleFunction: true }).ok).toBe(true);
    expect(checkJavaScript('function f() {}\nf();', { singleFunction: true }).ok).toBe(false);
    expect(checkJavaScript('const f = () => 1;', { singleFunction: true }).ok).toBe(false);
  });
});

describe('checkSql', () => {
  it('accepts a select over known tables and columns, with aliases, joins and CTEs', () => {
    const sql =
      'WITH big AS (SELECT customer_id, SUM(total) AS spent FROM orders GROUP BY customer_id)\n' +
      "SELECT c.name, b.spent FROM customers c JOIN big b ON b.customer_id = c.id WHERE c.country = 'NO' ORDER BY spent DESC";
    expect(checkSql(sql, { schema })).toEqual({ ok: true, code: sql });
  });

  it('rejects a syntax error, a second statement, and a statement kind not allowed', () => {
    expect(checkSql('SELEC id FROM orders')).toMatchObject({
      ok: false,
      problems: [{ kind: 'syntax', line: 1 }],
    });
    const stacked = checkSql('SELECT id FROM orders; DROP TABLE orders');
    expect(!stacked.ok && stacked.problems.map((p) => p.message)).toEqual([
      '2 statements were given; send exactly one',
      'a drop statement is not allowed',
    ]);
    expect(checkSql('DELETE FROM orders WHERE id = 1').ok).toBe(false);
    expect(checkSql('DELETE FROM orders WHERE id = 1', { allowedStatements: ['delete'] }).ok).toBe(true);
  });

  it('checks entity references against the schema', () => {
    const checked = checkSql(
      'SELECT o.id, o.discount, email FROM orders o JOIN invoices i ON i.order_id = o.id',
      {
        schema,
      },
    );
    expect(!checked.ok && checked.problems.map((p) => p.message)).toEqual([
      "unknown table 'invoices'",
      "unknown column 'discount' of table 'orders'",
      "unknown column 'email'",
      "unknown column 'order_id' of table 'invoices'",
    ]);
  });

  it('parses other dialects', () => {
    expect(checkSql('SELECT `id` FROM `orders` LIMIT 1', { dialect: 'mysql', schema }).ok).toBe(true);
    expect(checkSql('SELECT TOP 1 id FROM orders', { dialect: 'transactsql', schema }).ok).toBe(true);
  });
});

describe('code guardrails in a tool', () => {
  const runQuery = defineTool({
    name: 'run_query',
    description: 'Runs a read-only SQL query.',
    input: z.object({ query: z.string() }),
    execute: ({ query }) => ({ ran: assertCodeGuardrails(query, { language: 'sql', schema }) }),
  });
  const batch = {
    tools: createToolSet([runQuery]),
    threadId: 't',
    turnId: 'u',
    clock: systemClock,
    maxContextChars: 1500,
    redact: { text: redactSecrets, value: redactValue },
  };

  it('returns refused code to the model as a validation error it can fix, without running it', async () => {
    const [result] = await executeToolBatch(
      [
        {
          callId: 'c1',
          toolName: 'run_query',
          input: JSON.stringify({ query: '```sql\nSELECT secret FROM users\n```' }),
        },
      ],
      batch,
    );
    expect(result).toMatchObject({ status: 'error', error: { category: 'validation_error' } });
    expect(result?.contextText).toContain("unknown table 'users'");
  });

  it('runs code that passes, fences stripped', async () => {
    const [result] = await executeToolBatch(
      [
        {
          callId: 'c2',
          toolName: 'run_query',
          input: JSON.stringify({ query: '```sql\nSELECT id FROM orders\n```' }),
        },
      ],
      batch,
    );
    expect(result).toMatchObject({ status: 'success', output: { ran: 'SELECT id FROM orders' } });
  });

  it('throws a typed CodeGuardrailError outside the pipeline', () => {
    const error = (() => {
      try {
        assertCodeGuardrails('import fs from "fs";', { language: 'javascript' });
      } catch (e) {
        return e;
      }
    })();
    expect(CodeGuardrailError.isInstance(error)).toBe(true);
    expect((error as CodeGuardrailError).problems[0]?.kind).toBe('import');
    expect(applyCodeGuardrails('```js\n```', { language: 'javascript' })).toMatchObject({ ok: false });
  });
});
