import type { SecretKind } from '../secret-kind.js';
import { SECRET_PATTERNS } from '../secret-patterns.js';
import type { SecretRule } from './secret-rule.js';

/** A rule that applies where a trigger was found, with the length of its own (longest) trigger there. */
export interface CandidateRule {
  readonly rule: SecretRule;
  readonly triggerLength: number;
}

/** The pattern table, prepared for scanning: one trigger expression and the rules for each trigger. */
export interface SecretScanner {
  /** Global and case-insensitive, longest trigger first: finds where any rule could start. */
  readonly triggerPattern: RegExp;
  /** The same, sticky, to test one position. */
  readonly triggerAt: RegExp;
  readonly maxTriggerLength: number;
  /** The triggers as a trie of lower-case character codes, to test whether a text ends in a prefix. */
  readonly triggerTrie: TriggerTrieNode;
  /**
   * By lower-case trigger, the rules to try in table order. Every trigger that matches at a
   * position is a prefix of the longest one there, so the longest trigger found picks them all.
   */
  readonly rules: ReadonlyMap<string, readonly CandidateRule[]>;
  /** The same for the `delegateTarget` rules only, tried on the value of a key-value rule. */
  readonly delegateTargets: ReadonlyMap<string, readonly CandidateRule[]>;
}

/** One node of the trigger trie: the next characters of longer triggers. */
export type TriggerTrieNode = Map<number, TriggerTrieNode>;

const cache = new Map<string, SecretScanner>();
/** Distinct `ignoreKinds` sets are few in practice; the cache is bounded anyway. */
const maxCachedScanners = 16;

let fullTable: SecretScanner | undefined;

/** The scanner for the whole table minus `ignoreKinds`; compiled once per distinct set. */
export function compileSecretScanner(ignoreKinds: readonly SecretKind[] = []): SecretScanner {
  // The common case, on every redaction: no kinds ignored, no key to build.
  if (ignoreKinds.length === 0) {
    fullTable ??= buildScanner(SECRET_PATTERNS);
    return fullTable;
  }
  const key = [...new Set(ignoreKinds)].sort().join(',');
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const ignored = new Set<string>(ignoreKinds);
  const scanner = buildScanner(SECRET_PATTERNS.filter((rule) => !ignored.has(rule.kind)));
  if (cache.size >= maxCachedScanners) cache.clear();
  cache.set(key, scanner);
  return scanner;
}

function buildScanner(table: readonly SecretRule[]): SecretScanner {
  const triggers = [...new Set(table.flatMap((rule) => rule.triggers.map((t) => t.toLowerCase())))].sort(
    (a, b) => b.length - a.length,
  );
  const source = triggers.length === 0 ? '(?!)' : triggers.map(escapeRegExp).join('|');
  return {
    triggerPattern: new RegExp(source, 'gi'),
    triggerAt: new RegExp(source, 'iy'),
    maxTriggerLength: Math.max(1, ...triggers.map((trigger) => trigger.length)),
    triggerTrie: buildTrie(triggers),
    rules: rulesByTrigger(table, triggers),
    delegateTargets: rulesByTrigger(
      table.filter((rule) => rule.delegateTarget === true),
      triggers,
    ),
  };
}

function rulesByTrigger(
  table: readonly SecretRule[],
  triggers: readonly string[],
): Map<string, CandidateRule[]> {
  const byTrigger = new Map<string, CandidateRule[]>();
  for (const found of triggers) {
    const candidates: CandidateRule[] = [];
    for (const rule of table) {
      const own = rule.triggers.map((t) => t.toLowerCase()).filter((t) => found.startsWith(t));
      if (own.length > 0) candidates.push({ rule, triggerLength: Math.max(...own.map((t) => t.length)) });
    }
    if (candidates.length > 0) byTrigger.set(found, candidates);
  }
  return byTrigger;
}

function buildTrie(triggers: readonly string[]): TriggerTrieNode {
  const root: TriggerTrieNode = new Map();
  for (const trigger of triggers) {
    let node = root;
    for (let index = 0; index < trigger.length; index++) {
      const code = trigger.charCodeAt(index);
      const next: TriggerTrieNode = node.get(code) ?? new Map();
      node.set(code, next);
      node = next;
    }
  }
  return root;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
