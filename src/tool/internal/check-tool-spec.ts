/**
 * The checks every tool definition passes, whether it comes from `defineTool`, a manifest file or an
 * MCP server: each problem is listed, so that one load reports everything to fix.
 */
import { isAbsolute } from 'node:path';
import { feedbackJsonSchema } from '../../hitl/index.js';
import {
  type BlockingToolSpec,
  capabilityLevels,
  type FileTouchSpec,
  type ToolSpec,
} from '../../spec/index.js';
import { compileSchema } from '../compile-schema.js';
import { toolDefaults } from '../tool-defaults.js';

const namePattern = /^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;

/** Problems of one spec, each prefixed with nothing: the caller names the tool. */
export function checkToolSpec(spec: ToolSpec): string[] {
  const problems: string[] = [];
  if (typeof spec.name !== 'string' || !namePattern.test(spec.name))
    problems.push(
      `name '${String(spec.name)}' must start with a letter and have 1-64 letters, digits, _ or -`,
    );
  if (typeof spec.description !== 'string' || spec.description.trim() === '')
    problems.push('description must be a non-empty string');
  if (spec.title !== undefined && !isTitle(spec.title))
    problems.push(
      `title must be one line of 1-${maxTitleChars} characters (a short action: "Book a flight")`,
    );
  if (!isIntegerIn(spec.timeoutMs, 1, toolDefaults.maxTimeoutMs))
    problems.push(
      `timeoutMs must be an integer in 1..${toolDefaults.maxTimeoutMs} (got ${String(spec.timeoutMs)})`,
    );
  if (!isIntegerIn(spec.maxRetries, 0, 10))
    problems.push(`maxRetries must be an integer in 0..10 (got ${String(spec.maxRetries)})`);
  if (!capabilityLevels.includes(spec.capability))
    problems.push(
      `capability '${String(spec.capability)}' is unknown; use one of ${capabilityLevels.join(', ')}`,
    );
  if (spec.rateLimit !== undefined) {
    if (!isIntegerIn(spec.rateLimit.limit, 1, Number.MAX_SAFE_INTEGER))
      problems.push(`rateLimit.limit must be a positive integer (got ${String(spec.rateLimit.limit)})`);
    if (!isIntegerIn(spec.rateLimit.windowMs, 1, toolDefaults.maxTimeoutMs))
      problems.push(`rateLimit.windowMs must be an integer in 1..${toolDefaults.maxTimeoutMs}`);
  }
  if (spec.cacheTtlMs !== undefined && !isIntegerIn(spec.cacheTtlMs, 0, Number.MAX_SAFE_INTEGER))
    problems.push('cacheTtlMs must be a non-negative integer');
  if (spec.blocking !== undefined) problems.push(...checkBlocking(spec.blocking));
  if (spec.touches !== undefined) problems.push(...checkTouches(spec.touches));
  problems.push(...checkSchema('inputSchema', spec.inputSchema));
  const inputType = typeof spec.inputSchema === 'object' ? spec.inputSchema.type : undefined;
  if (inputType !== undefined && inputType !== 'object')
    problems.push(`inputSchema must describe an object (arguments are named), not '${String(inputType)}'`);
  if (spec.outputSchema !== undefined) problems.push(...checkSchema('outputSchema', spec.outputSchema));
  return problems;
}

function checkSchema(label: string, schema: unknown): string[] {
  if (typeof schema !== 'boolean' && (typeof schema !== 'object' || schema === null || Array.isArray(schema)))
    return [`${label} must be a JSON Schema object`];
  try {
    compileSchema(schema as ToolSpec['inputSchema']);
    return [];
  } catch (error) {
    return [`${label} does not compile: ${error instanceof Error ? error.message : String(error)}`];
  }
}

/** A title a person reads in an approval prompt: a short action, not a paragraph. */
const maxTitleChars = 80;

function isTitle(value: unknown): boolean {
  return (
    typeof value === 'string' && value.trim() !== '' && value.length <= maxTitleChars && !/[\n\r]/.test(value)
  );
}

function isIntegerIn(value: unknown, min: number, max: number): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

const feedbackTypes = new Set(['confirm', 'text', 'select', 'multiselect', 'number', 'date', 'custom']);

/** A blocking tool's answer shape must be one flowstack knows and must compile. */
function checkBlocking(blocking: BlockingToolSpec): string[] {
  const feedback = blocking?.feedback as { type?: unknown; options?: unknown } | undefined;
  if (!feedback || typeof feedback.type !== 'string' || !feedbackTypes.has(feedback.type))
    return [`blocking.feedback.type must be one of ${[...feedbackTypes].join(', ')}`];
  if (
    (feedback.type === 'select' || feedback.type === 'multiselect') &&
    (!Array.isArray(feedback.options) || feedback.options.length === 0)
  )
    return [`blocking.feedback.options must list at least one option for '${feedback.type}'`];
  return checkSchema('blocking.feedback', feedbackJsonSchema(blocking.feedback));
}

const selectorPattern = /^(\*|[^.*]+)(\.(\*|[^.*]+))*$/;

/** The file effects name at least one argument (keys joined by dots) or fixed path (a relative path). */
function checkTouches(touches: FileTouchSpec): string[] {
  const selectors = (touches as { arguments?: unknown })?.arguments;
  const paths = (touches as { paths?: unknown })?.paths;
  const problems: string[] = [];
  if (selectors !== undefined && !Array.isArray(selectors)) problems.push('touches.arguments must be a list');
  if (paths !== undefined && !Array.isArray(paths)) problems.push('touches.paths must be a list');
  const selectorList = Array.isArray(selectors) ? selectors : [];
  const pathList = Array.isArray(paths) ? paths : [];
  if (problems.length === 0 && selectorList.length + pathList.length === 0)
    problems.push('touches must list at least one argument that names a file (arguments) or a file (paths)');
  for (const s of selectorList)
    if (typeof s !== 'string' || !selectorPattern.test(s))
      problems.push(
        `touches.arguments entry '${String(s)}' must be keys joined by dots, with * for every element`,
      );
  for (const p of pathList)
    if (typeof p !== 'string' || p === '' || isAbsolute(p) || p.split(/[\\/]/).includes('..'))
      problems.push(
        `touches.paths entry '${String(p)}' must be a path relative to the file root, without '..'`,
      );
  return problems;
}
