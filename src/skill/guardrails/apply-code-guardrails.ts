/**
 * The code guardrails of seed 000 in one call, for tools that run model-written code: take the code
 * out of the answer (fences, trigger phrase), then validate it with the language's real parser and
 * policy. `assertCodeGuardrails` is the form a tool's `execute` uses: it throws a
 * `CodeGuardrailError`, which the tool pipeline returns to the model as a `validation_error` to fix.
 */
import { CodeGuardrailError } from '../../errors/index.js';
import { type CodeCheck, checkJavaScript, type JavaScriptPolicy } from './check-javascript.js';
import { checkSql, type SqlPolicy } from './check-sql.js';
import { type ExtractCodeOptions, stripCodeFences } from './strip-code-fences.js';

export type CodeGuardrailOptions =
  | ({ language: 'javascript'; trigger?: string } & JavaScriptPolicy)
  | ({ language: 'sql'; trigger?: string } & SqlPolicy);

/** Extracts the code from `raw` and checks it; returns the code to run or the problems. */
export function applyCodeGuardrails(raw: string, options: CodeGuardrailOptions): CodeCheck {
  const extract: ExtractCodeOptions = { language: options.language };
  if (options.trigger !== undefined) extract.trigger = options.trigger;
  const code = stripCodeFences(raw, extract);
  if (code === '') return { ok: false, problems: [{ kind: 'empty', message: 'there is no code' }] };
  return options.language === 'javascript' ? checkJavaScript(code, options) : checkSql(code, options);
}

/**
 * @example
 * execute: async ({ query }) => {
 *   const sql = assertCodeGuardrails(query, { language: 'sql', schema: { tables: { orders: ['id', 'total'] } } });
 *   return db.all(sql);
 * }
 */
export function assertCodeGuardrails(raw: string, options: CodeGuardrailOptions): string {
  const checked = applyCodeGuardrails(raw, options);
  if (!checked.ok) throw new CodeGuardrailError({ language: options.language, problems: checked.problems });
  return checked.code;
}
