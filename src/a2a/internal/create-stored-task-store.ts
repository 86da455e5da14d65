/**
 * The A2A SDK's task store over flowstack's own store, so that a task waiting for input outlives the
 * process: after a restart on the same database, the client's answer finds the task and resumes its
 * thread. Tasks are filed by the caller's scope (tenant and principal), so one principal never loads or
 * lists another's. The stored task passes through redaction first: the thread's history already keeps
 * the conversation redacted, and the task's copy of it must not be the one place a secret stays raw.
 */
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import { redactValue } from '../../redact/index.js';
import type { StateStore } from '../../spec/index.js';
import { a2aSdk } from './load-a2a-sdk.js';

/** The store methods that keep A2A tasks. */
export type A2ATaskMethods = Required<Pick<StateStore, 'saveA2ATask' | 'loadA2ATask' | 'listA2ATasks'>>;

const defaultPageSize = 50;

export function createStoredTaskStore(store: A2ATaskMethods): TaskStore {
  return {
    async save(task, context) {
      const timestamp = task.status?.timestamp;
      await store.saveA2ATask({
        scope: scopeOf(context),
        taskId: task.id,
        contextId: task.contextId,
        updatedAt: timestamp ? Date.parse(timestamp) || 0 : 0,
        data: JSON.stringify(redactValue(a2aSdk().Task.toJSON(task))),
      });
    },

    async load(taskId, context) {
      const stored = await store.loadA2ATask({ scope: scopeOf(context), taskId });
      return stored && a2aSdk().Task.fromJSON(JSON.parse(stored.data));
    },

    async list(params, context) {
      const { contextId, status, pageSize = defaultPageSize, pageToken, statusTimestampAfter } = params;
      const stored = await store.listA2ATasks({
        scope: scopeOf(context),
        ...(contextId ? { contextId } : {}),
      });
      const after = statusTimestampAfter ? Date.parse(statusTimestampAfter) : undefined;
      const matching = stored
        .filter((row) => after === undefined || row.updatedAt > after)
        .map((row) => a2aSdk().Task.fromJSON(JSON.parse(row.data)))
        // State 0 is "unspecified": no filter.
        .filter((task) => !status || task.status?.state === status);
      const start = pageToken ? matching.findIndex((task) => task.id === pageToken) + 1 : 0;
      const page = start === 0 && pageToken ? [] : matching.slice(start, start + pageSize);
      const last = page.at(-1);
      const hasMore = last !== undefined && start + page.length < matching.length;
      return {
        tasks: page.map((task) => (params.includeArtifacts ? task : { ...task, artifacts: [] })),
        nextPageToken: hasMore ? last.id : '',
        pageSize,
        totalSize: matching.length,
      };
    },
  };
}

/** The caller's scope, as the SDK's own stores draw it: tenant, then the authenticated user. */
function scopeOf(context: ServerCallContext): string {
  const user = context.user?.isAuthenticated ? context.user.userName : '';
  return JSON.stringify([context.tenant ?? '', user]);
}
