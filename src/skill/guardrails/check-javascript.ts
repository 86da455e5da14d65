/**
 * Validates model-written JavaScript with a real parser (acorn) before it runs (seed 000 code
 * guardrails): it must parse as a module, import only what the policy allows (static, dynamic and
 * `require`), name no forbidden global (`eval`, `Function`, `process` …), and — when asked — be
 * exactly one function. Comments are stripped from the returned code.
 */
import { type Comment, type Node, parse } from 'acorn';
import { ancestor } from 'acorn-walk';
import type { CodeGuardrailProblem } from '../../errors/index.js';

export interface JavaScriptPolicy {
  /** When given, only these modules may be imported. */
  allowedImports?: readonly string[];
  /** Modules that may never be imported (`node:` prefixes are ignored); defaults to `dangerousModules`. */
  disallowedImports?: readonly string[];
  /** Globals the code may not name; defaults to `dangerousGlobals`. */
  disallowedGlobals?: readonly string[];
  /** The code must be a single function declaration (optionally exported). */
  singleFunction?: boolean;
}

/** Node built-ins that reach the file system, processes, the network or the VM. */
export const dangerousModules: readonly string[] = [
  'child_process',
  'cluster',
  'dgram',
  'dns',
  'fs',
  'fs/promises',
  'http',
  'http2',
  'https',
  'inspector',
  'module',
  'net',
  'os',
  'process',
  'tls',
  'v8',
  'vm',
  'worker_threads',
];

/** Globals that evaluate strings as code or reach the host process. */
export const dangerousGlobals: readonly string[] = [
  'eval',
  'Function',
  'process',
  'globalThis',
  'Deno',
  'Bun',
];

export type CodeCheck = { ok: true; code: string } | { ok: false; problems: CodeGuardrailProblem[] };

/** Parses and checks JavaScript; returns the code without comments, or the problems. */
export function checkJavaScript(source: string, policy: JavaScriptPolicy = {}): CodeCheck {
  const comments: Comment[] = [];
  let program: Node & { body: Node[] };
  try {
    program = parse(source, {
      ecmaVersion: 'latest',
      sourceType: 'module',
      locations: true,
      onComment: comments,
    }) as Node & { body: Node[] };
  } catch (error) {
    const loc = (error as { loc?: { line: number } }).loc;
    return {
      ok: false,
      problems: [{ kind: 'syntax', message: (error as Error).message, ...(loc ? { line: loc.line } : {}) }],
    };
  }
  const problems: CodeGuardrailProblem[] = [];
  const disallowedImports = new Set((policy.disallowedImports ?? dangerousModules).map(bareModule));
  const allowed = policy.allowedImports ? new Set(policy.allowedImports.map(bareModule)) : undefined;
  const checkImport = (specifier: unknown, node: Node) => {
    const line = lineOf(node);
    if (typeof specifier !== 'string') {
      problems.push({
        kind: 'import',
        message: 'an import with a computed module name is not allowed',
        line,
      });
      return;
    }
    const bare = bareModule(specifier);
    if (disallowedImports.has(bare) || (allowed && !allowed.has(bare)))
      problems.push({ kind: 'import', message: `importing '${specifier}' is not allowed`, line });
  };
  const forbiddenGlobals = new Set(policy.disallowedGlobals ?? dangerousGlobals);
  ancestor(program, {
    ImportDeclaration: (node) => checkImport(literalValue(field(node, 'source')), node),
    ExportAllDeclaration: (node) => checkImport(literalValue(field(node, 'source')), node),
    ExportNamedDeclaration: (node) => {
      const source = field(node, 'source');
      if (source) checkImport(literalValue(source), node);
    },
    ImportExpression: (node) => checkImport(literalValue(field(node, 'source')), node),
    CallExpression: (node) => {
      const callee = field(node, 'callee') as (Node & { name?: string }) | undefined;
      if (callee?.type === 'Identifier' && callee.name === 'require') {
        const [first] = (field(node, 'arguments') as Node[] | undefined) ?? [];
        checkImport(first ? literalValue(first) : undefined, node);
      }
    },
    Identifier: (node, _state, ancestors) => {
      const name = (node as Node & { name: string }).name;
      if (!forbiddenGlobals.has(name) || isPropertyName(node, ancestors)) return;
      problems.push({ kind: 'global', message: `using '${name}' is not allowed`, line: lineOf(node) });
    },
  });
  if (policy.singleFunction && !isSingleFunction(program.body))
    problems.push({ kind: 'shape', message: 'the code must be exactly one function declaration' });
  if (program.body.length === 0) problems.push({ kind: 'empty', message: 'there is no code' });
  if (problems.length > 0) return { ok: false, problems: dedupe(problems) };
  return { ok: true, code: removeComments(source, comments) };
}

function isPropertyName(node: Node, ancestors: Node[]): boolean {
  const parent = ancestors[ancestors.length - 2] as (Node & Record<string, unknown>) | undefined;
  if (!parent) return false;
  if (parent.type === 'MemberExpression') return parent.property === node && parent.computed !== true;
  if (
    parent.type === 'Property' ||
    parent.type === 'MethodDefinition' ||
    parent.type === 'PropertyDefinition'
  )
    return parent.key === node && parent.computed !== true && parent.shorthand !== true;
  return false;
}

function isSingleFunction(body: Node[]): boolean {
  if (body.length !== 1) return false;
  const only = body[0] as Node & { declaration?: Node };
  const declaration = only.type.startsWith('Export') ? only.declaration : only;
  return declaration?.type === 'FunctionDeclaration';
}

function removeComments(source: string, comments: readonly Comment[]): string {
  let out = '';
  let at = 0;
  for (const c of comments) {
    out += source.slice(at, c.start);
    // A block comment separates tokens, and one spanning lines ends a line for automatic semicolons.
    if (c.type === 'Block') out += /[\n\r\u2028\u2029]/.test(c.value) ? '\n' : ' ';
    at = c.end;
  }
  out += source.slice(at);
  return out
    .split('\n')
    .map((l) => l.replace(/\s+$/, ''))
    .join('\n')
    .trim();
}

function field(node: Node, name: string): Node | undefined {
  return (node as unknown as Record<string, Node | undefined>)[name];
}

function literalValue(node: Node | undefined): unknown {
  if (!node) return undefined;
  const n = node as Node & {
    value?: unknown;
    quasis?: { value: { cooked: string } }[];
    expressions?: unknown[];
  };
  if (n.type === 'Literal') return n.value;
  if (n.type === 'TemplateLiteral' && n.expressions?.length === 0) return n.quasis?.[0]?.value.cooked;
  return undefined;
}

function bareModule(specifier: string): string {
  return specifier.startsWith('node:') ? specifier.slice(5) : specifier;
}

function lineOf(node: Node): number | undefined {
  return node.loc?.start.line;
}

function dedupe(problems: CodeGuardrailProblem[]): CodeGuardrailProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.kind}:${p.line}:${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
