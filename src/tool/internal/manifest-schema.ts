/**
 * The shape of a tool manifest file (YAML or JSON), checked with Zod: strict objects, so a misspelt
 * field (`timeout_ms`) is reported rather than ignored. Value ranges and schema compilation are checked
 * afterwards by `checkToolSpec`, the same checks `defineTool` runs.
 */
import { z } from 'zod';

const schemaRef = z.union([z.string().min(1), z.boolean(), z.record(z.string(), z.unknown())]);

const rateLimit = z.strictObject({ limit: z.number(), windowMs: z.number() });

/** Fields an entry may set, and `defaults` may set for every entry. */
const toolFields = {
  idempotent: z.boolean().optional(),
  timeoutMs: z.number().optional(),
  capability: z.string().optional(),
  accessesPrivateData: z.boolean().optional(),
  receivesUntrustedInput: z.boolean().optional(),
  communicatesExternally: z.boolean().optional(),
  requiresApproval: z.boolean().optional(),
  maxRetries: z.number().optional(),
  rateLimit: rateLimit.optional(),
  cacheTtlMs: z.number().optional(),
  parallel: z.boolean().optional(),
};

export const manifestEntrySchema = z.strictObject({
  id: z.string().min(1).optional(),
  name: z.string(),
  description: z.string(),
  /** What a person reads for the tool in an approval prompt ("Book a flight"; checked by `checkToolSpec`). */
  title: z.string().optional(),
  /** A path relative to the manifest file, or the schema inline. */
  inputSchema: schemaRef,
  outputSchema: schemaRef.optional(),
  /** A blocking tool: `{ feedback: { type, … }, prompt? }` (checked by `checkToolSpec`). */
  blocking: z
    .strictObject({ feedback: z.record(z.string(), z.unknown()), prompt: z.string().optional() })
    .optional(),
  /** The arguments naming the files a call changes: `{ arguments: ['path', 'edits.*.file'] }`. */
  touches: z
    .strictObject({ arguments: z.array(z.string()).optional(), paths: z.array(z.string()).optional() })
    .optional(),
  ...toolFields,
});

export const manifestSchema = z.strictObject({
  version: z.literal(1),
  defaults: z.strictObject(toolFields).optional(),
  tools: z.array(z.unknown()).min(1),
});

export type ManifestEntry = z.infer<typeof manifestEntrySchema>;
export type ManifestDefaults = NonNullable<z.infer<typeof manifestSchema>['defaults']>;

/** Zod issues as `path: message` lines, with a hint for snake_case spellings of known fields. */
export function describeIssues(prefix: string, error: z.ZodError): string[] {
  return error.issues.flatMap((issue) => {
    const where = [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || 'manifest';
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => {
        const camel = key.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
        const hint = camel !== key ? ` (did you mean '${camel}'?)` : '';
        return `${where}: unknown field '${key}'${hint}`;
      });
    }
    return [`${where}: ${issue.message}`];
  });
}
