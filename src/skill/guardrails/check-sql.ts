/**
 * Validates model-written SQL with a real parser (node-sql-parser) before it runs (seed 000 code
 * guardrails): it must parse in the chosen dialect, be one statement of an allowed kind (`select` by
 * default), and name only tables and columns of the schema it is given. Each dialect's parser is
 * loaded on first use, so loading flowstack costs nothing when no SQL is checked.
 */
import type { AST, Parser } from 'node-sql-parser';
import type { CodeGuardrailProblem } from '../../errors/index.js';
import { requireOptionalPeer } from '../../util/index.js';
import type { CodeCheck } from './check-javascript.js';

export type SqlDialect = 'postgresql' | 'mysql' | 'mariadb' | 'sqlite' | 'transactsql' | 'bigquery';

/** Tables and their columns, as the query may reference them (names compared case-insensitively). */
export interface SqlSchema {
  tables: Record<string, readonly string[]>;
}

export interface SqlPolicy {
  dialect?: SqlDialect;
  /** Statement kinds allowed (`select`, `insert`, `update`, `delete` …); defaults to `select` only. */
  allowedStatements?: readonly string[];
  /** More than one statement in one text; off by default (`select 1; drop table x`). */
  allowMultipleStatements?: boolean;
  /** When given, every table and column referenced must be in it. */
  schema?: SqlSchema;
}

const databaseNames: Record<SqlDialect, string> = {
  postgresql: 'PostgresQL',
  mysql: 'MySQL',
  mariadb: 'MariaDB',
  sqlite: 'Sqlite',
  transactsql: 'TransactSQL',
  bigquery: 'BigQuery',
};

const parsers = new Map<SqlDialect, Parser>();

function parserFor(dialect: SqlDialect): Parser {
  const cached = parsers.get(dialect);
  if (cached) return cached;
  // An optional peer (a large package): a user without SQL skills never installs it.
  const module = requireOptionalPeer<{ Parser: new () => Parser }>({
    specifier: `node-sql-parser/build/${dialect}.js`,
    packageName: 'node-sql-parser',
    neededFor: 'to check model-written SQL (the SQL code guardrail)',
  });
  const parser = new module.Parser();
  parsers.set(dialect, parser);
  return parser;
}

/** Parses and checks SQL in the policy's dialect (PostgreSQL by default). */
export function checkSql(source: string, policy: SqlPolicy = {}): CodeCheck {
  const dialect = policy.dialect ?? 'postgresql';
  const sql = source.trim();
  if (sql === '') return { ok: false, problems: [{ kind: 'empty', message: 'there is no query' }] };
  // Outside the try: a missing parser package is the application's error, not the model's SQL.
  const parser = parserFor(dialect);
  let parsed: ReturnType<Parser['parse']>;
  try {
    parsed = parser.parse(sql, { database: databaseNames[dialect] });
  } catch (error) {
    const location = (error as { location?: { start?: { line?: number } } }).location;
    const line = location?.start?.line;
    return {
      ok: false,
      problems: [
        {
          kind: 'syntax',
          message: `not valid ${dialect} SQL: ${(error as Error).message}`,
          ...(line ? { line } : {}),
        },
      ],
    };
  }
  const statements: AST[] = Array.isArray(parsed.ast) ? parsed.ast : [parsed.ast];
  const problems: CodeGuardrailProblem[] = [];
  if (statements.length > 1 && !policy.allowMultipleStatements)
    problems.push({
      kind: 'statement',
      message: `${statements.length} statements were given; send exactly one`,
    });
  const allowed = new Set((policy.allowedStatements ?? ['select']).map((s) => s.toLowerCase()));
  for (const statement of statements) {
    const type = String((statement as { type?: unknown }).type ?? 'unknown').toLowerCase();
    if (!allowed.has(type))
      problems.push({ kind: 'statement', message: `a ${type} statement is not allowed` });
  }
  if (policy.schema) problems.push(...checkEntities(parsed, statements, policy.schema));
  return problems.length > 0 ? { ok: false, problems } : { ok: true, code: sql };
}

/** Tables and columns named by the query but missing from the schema (CTE names and aliases excepted). */
function checkEntities(
  parsed: { tableList: string[]; columnList: string[] },
  statements: readonly AST[],
  schema: SqlSchema,
): CodeGuardrailProblem[] {
  const tables = new Map(
    Object.entries(schema.tables).map(([name, columns]) => [
      name.toLowerCase(),
      new Set(columns.map((c) => c.toLowerCase())),
    ]),
  );
  const local = collectLocalNames(statements);
  const problems: CodeGuardrailProblem[] = [];
  const referenced: string[] = [];
  for (const entry of parsed.tableList) {
    const table = (entry.split('::')[2] ?? '').toLowerCase();
    if (local.has(table)) continue;
    if (!tables.has(table)) problems.push({ kind: 'entity', message: `unknown table '${table}'` });
    else referenced.push(table);
  }
  const allColumns = new Set([...tables.values()].flatMap((c) => [...c]));
  for (const entry of parsed.columnList) {
    const [, tablePart, columnPart] = entry.split('::');
    const column = (columnPart ?? '').toLowerCase();
    if (column === '(.*)' || column === '*' || local.has(column)) continue;
    const table = tablePart && tablePart !== 'null' ? tablePart.toLowerCase() : undefined;
    if (table && local.has(table)) continue;
    const known = table
      ? tables.get(table)?.has(column)
      : referenced.some((t) => tables.get(t)?.has(column)) ||
        (referenced.length === 0 && allColumns.has(column));
    if (!known)
      problems.push({
        kind: 'entity',
        message: table ? `unknown column '${column}' of table '${table}'` : `unknown column '${column}'`,
      });
  }
  return problems;
}

/** Names the query defines itself: CTE names and `as` aliases of columns and tables. */
function collectLocalNames(statements: readonly AST[]): Set<string> {
  const names = new Set<string>();
  const visit = (value: unknown, key?: string): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item, key);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    const record = value as Record<string, unknown>;
    if (typeof record.as === 'string') names.add(record.as.toLowerCase());
    if (key === 'with') {
      const name = (record.name as { value?: unknown } | undefined)?.value;
      if (typeof name === 'string') names.add(name.toLowerCase());
    }
    for (const [k, v] of Object.entries(record)) visit(v, k);
  };
  for (const statement of statements) visit(statement);
  return names;
}
