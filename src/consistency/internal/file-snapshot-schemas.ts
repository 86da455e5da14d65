/** What a stored record and a journal line must look like to be read at all (anything else is corrupt). */
import { z } from 'zod';

export type FileSnapshotSchemas = ReturnType<typeof buildSchemas>;

let built: FileSnapshotSchemas | undefined;

/**
 * The schemas of a snapshot's record and of its journal lines, built when the first snapshot is read:
 * most agents never snapshot a file, and an import of flowstack builds nothing it may not need
 * (docs/decisions/0084-a-bundled-build-and-ajv-on-first-use.md).
 */
export function fileSnapshotSchemas(): FileSnapshotSchemas {
  built ??= buildSchemas();
  return built;
}

function buildSchemas() {
  const relativePath = z
    .string()
    .min(1)
    .refine(
      (p) => !p.startsWith('/') && !p.split('/').includes('..') && !p.includes('\0'),
      'not a relative path',
    );

  const entry = z.discriminatedUnion('existed', [
    z
      .object({
        path: relativePath,
        existed: z.literal(true),
        mode: z.number().int().min(0).max(0o7777),
        size: z.number().int().min(0),
        sha256: z.string().regex(/^[0-9a-f]{64}$/),
        content: z.string().regex(/^c\d+$/),
      })
      .strict(),
    z
      .object({
        path: relativePath,
        existed: z.literal(false),
        createdDirs: z.array(relativePath).optional(),
      })
      .strict(),
  ]);

  const record = z
    .object({
      specVersion: z.literal(1),
      id: z.string().regex(/^fs_[0-9a-f]{24}$/),
      threadId: z.string(),
      turnId: z.string(),
      callId: z.string(),
      toolName: z.string(),
      idempotencyKey: z.string(),
      root: z.string().min(1),
      createdAt: z.number(),
      files: z.array(entry),
      checksum: z.string().regex(/^[0-9a-f]{64}$/),
    })
    .strict();

  const report = z
    .object({
      snapshotId: z.string(),
      threadId: z.string(),
      callId: z.string(),
      toolName: z.string(),
      status: z.literal('rolled-back'),
      restored: z.array(z.string()),
      removed: z.array(z.string()),
    })
    .strict();

  const event = z.discriminatedUnion('type', [
    z
      .object({
        type: z.literal('status'),
        status: z.enum(['committed', 'failed', 'kept']),
        at: z.number(),
        after: z
          .array(
            z
              .object({
                path: z.string(),
                sha256: z
                  .string()
                  .regex(/^[0-9a-f]{64}$/)
                  .nullable(),
                mode: z.number().int().optional(),
              })
              .strict(),
          )
          .optional(),
      })
      .strict(),
    z
      .object({
        type: z.literal('rollback-start'),
        at: z.number(),
        by: z.string().optional(),
        restored: z.array(z.string()),
        removed: z.array(z.string()),
      })
      .strict(),
    z.object({ type: z.literal('step-done'), step: z.number().int().min(0), at: z.number() }).strict(),
    z.object({ type: z.literal('rollback-done'), at: z.number(), report }).strict(),
  ]);
  return { record, event };
}
