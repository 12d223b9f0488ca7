/**
 * Request checks shared by the front ends: every malformed body becomes a
 * `REQUEST_INVALID` error naming the JSON path (HTTP 400), before anything is
 * serialized or sent upstream. Depth is checked iteratively first, so deeply
 * nested content cannot overflow a recursive step later on.
 */
import { ToolSearchError } from '@tool-search/kernel';
import type { ClientFunctionTool } from './turn.js';
import { GatewayErrors } from './errors.js';

/** Deeper JSON than this is refused (the APIs' own shapes need under ten levels; tool schemas a few more). */
export const MAX_BODY_DEPTH = 64;

export function invalid(path: string, message: string): ToolSearchError {
  return new ToolSearchError(GatewayErrors.REQUEST_INVALID, `${path || 'body'}: ${message}`, { details: { path } });
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The body as an object no deeper than `MAX_BODY_DEPTH`, or a `REQUEST_INVALID` error. */
export function requestObject(body: unknown): Record<string, unknown> {
  if (!isRecord(body)) throw invalid('', 'the body must be a JSON object');
  const stack: [unknown, number][] = [[body, 1]];
  while (stack.length) {
    const [value, depth] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_BODY_DEPTH) throw invalid('', `the body is nested deeper than ${MAX_BODY_DEPTH} levels`);
    for (const child of Array.isArray(value) ? value : Object.values(value))
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return body;
}

export function optionalString(value: unknown, path: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalid(path, 'must be a string');
  return value;
}

export function requiredString(value: unknown, path: string): string {
  if (typeof value !== 'string' || !value) throw invalid(path, 'must be a non-empty string');
  return value;
}

export function optionalPositiveInt(value: unknown, path: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    throw invalid(path, 'must be a positive integer');
  return value;
}

export function arrayAt(
  value: unknown,
  path: string,
  options: { optional?: boolean; nonEmpty?: boolean } = {},
): readonly unknown[] {
  if (value === undefined && options.optional) return [];
  if (!Array.isArray(value)) throw invalid(path, 'must be an array');
  if (options.nonEmpty && value.length === 0) throw invalid(path, 'must not be empty');
  return value;
}

export function recordAt(value: unknown, path: string): Record<string, unknown> {
  if (!isRecord(value)) throw invalid(path, 'must be an object');
  return value;
}

/** Text of `string | [{ type, text }]` content; other part types are refused (the gateway forwards text only). */
export function textContent(value: unknown, path: string, textTypes: readonly string[]): string {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) throw invalid(path, 'must be a string or an array of content parts');
  return value
    .map((part, i) => {
      const at = `${path}/${i}`;
      const record = recordAt(part, at);
      if (!textTypes.includes(String(record.type)))
        throw invalid(
          `${at}/type`,
          `must be ${textTypes.map((t) => `"${t}"`).join(' or ')} (the gateway forwards text)`,
        );
      if (typeof record.text !== 'string') throw invalid(`${at}/text`, 'must be a string');
      return record.text;
    })
    .join('');
}

/**
 * Client tools of an API whose tools are flat `{ type, name, description, <schema key> }`
 * (Responses: `parameters`; Anthropic: `input_schema`), as chat function tools.
 */
export function flatClientTools(
  value: unknown,
  spec: { accepts: (type: unknown) => boolean; refusal: string; schemaKey: string },
): ClientFunctionTool[] {
  return arrayAt(value, '/tools', { optional: true }).map((tool, i) => {
    const record = recordAt(tool, `/tools/${i}`);
    if (!spec.accepts(record.type)) throw invalid(`/tools/${i}/type`, spec.refusal);
    const schema = record[spec.schemaKey];
    return {
      type: 'function',
      function: {
        name: requiredString(record.name, `/tools/${i}/name`),
        ...(typeof record.description === 'string' ? { description: record.description } : {}),
        parameters: isRecord(schema) ? schema : { type: 'object' },
      },
    };
  });
}
