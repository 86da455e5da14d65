/**
 * Gets code out of a model's answer (seed 000 `apply_guardrails` / `activate_guardrails`): models wrap
 * code in Markdown fences and mix it with prose. Fenced blocks are taken (the first one in the wanted
 * language, else the first one); text after a trigger phrase is taken when there is no fence; a bare
 * answer is taken as it is.
 */

export interface ExtractCodeOptions {
  /** Prefer a fence labelled with this language (`js`, `javascript`, `sql` …). */
  language?: string;
  /** A phrase after which the code starts when the answer has no fence (e.g. `Query:`). */
  trigger?: string;
}

const fence = /(^|\n)[ \t]*(`{3,}|~{3,})[ \t]*([\w+#.-]*)[^\n]*\n([\s\S]*?)\n[ \t]*\2[ \t]*(?=\n|$)/g;

/** Every fenced block of `text`, with its language label (lower case, may be empty). */
export function extractCodeBlocks(text: string): { language: string; code: string }[] {
  return [...text.matchAll(fence)].map((m) => ({ language: (m[3] ?? '').toLowerCase(), code: m[4] ?? '' }));
}

/** The code in a model answer, without fences or surrounding prose. */
export function stripCodeFences(text: string, options: ExtractCodeOptions = {}): string {
  const blocks = extractCodeBlocks(text);
  if (blocks.length > 0) {
    const wanted = options.language ? aliases(options.language) : [];
    const chosen = blocks.find((b) => wanted.includes(b.language)) ?? blocks[0];
    return (chosen?.code ?? '').trim();
  }
  // An unterminated fence (output cut off, or a model that forgot to close it).
  const open = /^[ \t]*(`{3,}|~{3,})[^\n]*\n/m.exec(text);
  if (open) return text.slice(open.index + open[0].length).trim();
  if (options.trigger) {
    const at = text.indexOf(options.trigger);
    if (at >= 0) return text.slice(at + options.trigger.length).trim();
  }
  return text.trim();
}

function aliases(language: string): string[] {
  const l = language.toLowerCase();
  if (l === 'javascript' || l === 'js') return ['javascript', 'js', 'mjs', 'jsx', 'node'];
  if (l === 'sql') return ['sql', 'postgresql', 'postgres', 'mysql', 'sqlite', 'tsql'];
  return [l];
}
