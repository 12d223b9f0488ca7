/**
 * What the search modes share about their options: the JSON Schema of the search keys every mode takes, and one
 * check of a mode's options against its schema (Ajv through the kernel's compile-once cache), so no mode checks its
 * options by hand and each error names the path, the rule and the fix.
 */
import { ConfigError, ErrorCode, type JsonSchema, type SchemaIssue, valueIssues } from '@tool-search/kernel';

/** Longest operator extension of a search tool's description (config `tools.toolSearch.description`). */
export const MAX_DESCRIPTION_CHARS = 2000;

/** Schemas of the search keys every mode takes (config `tools.toolSearch.*`). */
export const searchOptionsProperties = Object.freeze({
  searchDefaultLimit: { type: 'integer', minimum: 1, description: 'Hits per query when the model gives no `limit`.' },
  maxSearchLimit: { type: 'integer', minimum: 1, description: 'Upper bound on `limit`.' },
  description: {
    type: 'string',
    maxLength: MAX_DESCRIPTION_CHARS,
    description: "Appended to the search tool's description.",
  },
} as const);

export interface ModeOptionsCheck {
  /** The plugin's npm name, named in the error. */
  readonly plugin: string;
  readonly schema: JsonSchema;
  /** How the error's `path` is written: a JSON pointer (`/limits/x`, default) or dotted (`limits.x`). */
  readonly pathStyle?: 'pointer' | 'dotted';
}

/**
 * Checks `options` against the mode's schema; throws a `ConfigError` (`OPTIONS_INVALID`) with the first issue's
 * path and rule, every issue in `details.issues`. Cross-key rules (a default above its maximum) stay with the mode.
 */
export function checkModeOptions<T>(options: T, check: ModeOptionsCheck): T {
  const found = valueIssues(check.schema, options);
  if (found.length === 0) return options;
  const issues = found.map((issue) => explained(issue, options));
  const first = issues[0]!;
  throw optionsError(check, first.path, first.rule, first.message, { issues });
}

/** A `ConfigError` (`OPTIONS_INVALID`) about one option, for the rules a schema cannot say. */
export function optionsError(
  check: Pick<ModeOptionsCheck, 'plugin' | 'pathStyle'>,
  pointer: string,
  rule: string,
  message: string,
  details?: Record<string, unknown>,
): ConfigError {
  const path = check.pathStyle === 'dotted' ? pointer.split('/').filter(Boolean).join('.') || '(root)' : pointer;
  const key = path === '/' || path === '(root)' ? 'options' : path.replace(/^\//, '').replaceAll('/', '.');
  return new ConfigError(path, rule, `${check.plugin} options: ${key} ${message}`, {
    code: ErrorCode.OPTIONS_INVALID,
    plugin: check.plugin,
    ...(details ? { details } : {}),
  });
}

/** Ajv's message with the value's size and the fix where the rule is a bound. */
function explained(issue: SchemaIssue, options: unknown): SchemaIssue {
  const value = at(options, issue.path);
  if (issue.rule === 'maxLength' && typeof value === 'string') {
    const limit = /\d+/.exec(issue.message)?.[0] ?? 'the limit';
    return {
      ...issue,
      message: `has ${value.length} characters; keep it to ${limit} (say what the catalog holds, not every tool)`,
    };
  }
  if (issue.rule === 'additionalProperties') return { ...issue, message: 'is not an option of this mode' };
  return { ...issue, message: `${issue.message}, got ${JSON.stringify(value) ?? 'undefined'}` };
}

function at(value: unknown, pointer: string): unknown {
  let current = value;
  for (const segment of pointer.split('/').filter(Boolean)) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return current;
}
