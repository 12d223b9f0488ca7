/**
 * Validates the `tools` / `agents` sections at the boundary, so a bad policy
 * never reaches a run: an unknown profile, a non-string entry or a
 * misspelled key inside a section this package owns is a `ConfigError`
 * (`CONFIG_INVALID`, with `path` and `rule`). Keys owned by others are kept.
 */
import { ConfigError, deepFreeze, type JsonSchema, type SchemaIssue, valueIssues } from '@tool-search/kernel';
import { PROFILES } from './groups.js';
import type { PolicyOptions } from './types.js';

const entryList = { type: 'array', items: { type: 'string', minLength: 1 } } as const;
const profile = { type: 'string', enum: Object.keys(PROFILES) } as const;
const allowDeny = {
  type: 'object',
  properties: { allow: entryList, alsoAllow: entryList, deny: entryList },
  additionalProperties: false,
} as const;
const byProvider = {
  type: 'object',
  propertyNames: { minLength: 1 },
  // `toolSearch` is the config package's (an exposure override), not a policy key.
  additionalProperties: {
    type: 'object',
    properties: { profile, allow: entryList, alsoAllow: entryList, deny: entryList, toolSearch: true },
    additionalProperties: false,
  },
} as const;
const scope = {
  type: 'object',
  properties: {
    profile,
    allow: entryList,
    alsoAllow: entryList,
    deny: entryList,
    byProvider,
    sandbox: { type: 'object', properties: { tools: allowDeny } },
  },
} as const;

/** JSON Schema of `PolicyOptions` (draft-07); other keys of `tools` and `agents` are allowed. */
export const policyOptionsSchema: JsonSchema = Object.freeze({
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    tools: scope,
    agents: {
      type: 'object',
      properties: {
        list: {
          type: 'array',
          items: {
            type: 'object',
            required: ['id'],
            properties: { id: { type: 'string', minLength: 1 }, tools: scope },
          },
        },
      },
    },
  },
});

/** Checks the options and returns a frozen copy (later changes by the caller cannot widen the policy). */
export function parsePolicyOptions(options: unknown): PolicyOptions {
  // Plain options (no policy: `{ tools: {}, agents: {} }`, or simple allow/deny lists) need no compiled validator.
  const issues = valueIssues(policyOptionsSchema, options ?? {});
  if (issues.length) throw toConfigError(issues);
  const copy = structuredClone((options ?? {}) as PolicyOptions);
  checkUnique(copy);
  return deepFreeze(copy);
}

function checkUnique(options: PolicyOptions): void {
  const seen = new Map<string, number>();
  (options.agents?.list ?? []).forEach((agent, index) => {
    const id = agent.id.toLowerCase();
    if (seen.has(id))
      throw new ConfigError(
        `agents.list[${index}].id`,
        'unique',
        `agents.list[${index}].id "${agent.id}" repeats agents.list[${seen.get(id)}].id; agent ids must be unique (case-insensitive)`,
      );
    seen.set(id, index);
    checkProviderKeys(agent.tools?.byProvider, `agents.list[${index}].tools.byProvider`);
  });
  checkProviderKeys(options.tools?.byProvider, 'tools.byProvider');
}

function checkProviderKeys(map: object | undefined, path: string): void {
  const seen = new Set<string>();
  for (const key of Object.keys(map ?? {})) {
    const normal = key.trim().toLowerCase();
    if (seen.has(normal))
      throw new ConfigError(
        `${path}`,
        'unique',
        `${path} has two keys for "${normal}"; provider keys are matched case-insensitively, merge them`,
      );
    seen.add(normal);
  }
}

function toConfigError(issues: readonly SchemaIssue[]): ConfigError {
  const first = issues[0] ?? { path: '/', rule: 'schema', message: 'invalid' };
  const path = toDotPath(first.path);
  return new ConfigError(
    path,
    first.rule,
    `Tool policy config is invalid at ${path || '(root)'}: ${first.message} (rule ${first.rule})`,
    {
      details: { issues: issues.map((issue) => ({ ...issue, path: toDotPath(issue.path) })) },
    },
  );
}

/** `/agents/list/0/tools/profile` → `agents.list[0].tools.profile`. */
function toDotPath(pointer: string): string {
  let out = '';
  for (const raw of pointer.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(segment)) out += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(segment)) out += out ? `.${segment}` : segment;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}
