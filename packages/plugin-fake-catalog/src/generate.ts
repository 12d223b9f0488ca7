/**
 * Deterministic fake plugin tools. Tool `i` depends only on (seed, i), so a
 * catalog of 50 is the first 50 of a catalog of 1,000. Sizes of
 * `{ name, description, inputSchema }` follow a log-normal shape like real MCP
 * tools (median about 950 bytes, long right tail).
 */
import type { JsonSchema, ToolAnnotations } from '@tool-search/kernel';
import { DOMAINS, EXTRA_SENTENCES, GENERIC_PARAMS, VERBS, type ParamSpec } from './domains.js';

export interface FakeToolSpec {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly annotations: ToolAnnotations;
}

/** Median and spread (log-normal sigma) of the target JSON size. */
export const SIZE_MODEL = Object.freeze({ medianBytes: 920, sigma: 0.95, minBytes: 200, maxBytes: 16_000 });

export function fakeToolName(index: number): string {
  return `fake_plugin_tool_${String(index).padStart(4, '0')}`;
}

export function generateFakeTool(index: number, seed: number): FakeToolSpec {
  const rng = mulberry32(hash(`${seed}:${index}`));
  const domain = pick(rng, DOMAINS);
  const entity = pick(rng, domain.entities);
  const { verb, readOnly, destructive } = pick(rng, VERBS);
  const target = targetSize(rng);
  const name = fakeToolName(index);

  const sentences = [lead(verb, entity, domain.product, domain.area)];
  const params: ParamSpec[] = [];
  const required: string[] = [];
  const idParam = `${slug(entity)}_id`;
  if (['get', 'update', 'delete', 'archive', 'assign'].includes(verb)) {
    params.push({ name: idParam, type: 'string', description: `Identifier of the ${entity}` });
    required.push(idParam);
  } else if (['list', 'search', 'export', 'summarize'].includes(verb)) {
    params.push({
      name: 'query',
      type: 'string',
      description: `Text to match against ${entity} names and descriptions`,
    });
    if (verb === 'search') required.push('query');
  }
  const paramPool = shuffle(rng, [...domain.params, ...GENERIC_PARAMS]);
  const sentencePool = shuffle(rng, [...domain.notes, ...EXTRA_SENTENCES]);
  if (verb === 'create' && paramPool[0]) required.push(paramPool[0].name);

  const build = (): FakeToolSpec => ({
    name,
    description: sentences.join(' '),
    inputSchema: schemaOf(params, required),
    annotations: { readOnlyHint: readOnly, destructiveHint: destructive, idempotentHint: readOnly },
  });
  // Grow until the serialized size reaches the target: parameters first, then prose, then worked examples.
  // The size is kept up to date by what each step adds (JSON is additive here), not re-serialized per step.
  let size = byteSize(build());
  for (let step = 0; size < target; step++) {
    const param = step % 3 !== 2 ? paramPool.shift() : undefined;
    if (param) {
      if (!params.some((existing) => existing.name === param.name)) {
        // `"name":{…}`, plus a comma after an earlier property.
        size += propertyBytes(param) + (params.length > 0 ? 1 : 0);
        params.push(param);
      }
      continue;
    }
    const sentence = sentencePool.shift() ?? example(rng, verb, entity, params);
    // One more sentence: its escaped text without quotes, plus the joining space.
    size += textBytes(sentence) - 2 + 1;
    sentences.push(sentence);
  }
  return build();
}

export function byteSize(tool: Pick<FakeToolSpec, 'name' | 'description' | 'inputSchema'>): number {
  return Buffer.byteLength(
    JSON.stringify({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }),
  );
}

function lead(verb: string, entity: string, product: string, area: string): string {
  const plural = entity.endsWith('s') ? entity : `${entity}s`;
  switch (verb) {
    case 'list':
      return `List ${plural} in ${product}, the ${area} service, with optional filters.`;
    case 'search':
      return `Search ${product} ${plural} by keyword and return the best matches (${area}).`;
    case 'get':
      return `Get one ${entity} from ${product} by its identifier, with all fields (${area}).`;
    case 'create':
      return `Create a new ${entity} in ${product} (${area}) and return it.`;
    case 'update':
      return `Update fields of an existing ${entity} in ${product} (${area}); fields you leave out are unchanged.`;
    case 'delete':
      return `Permanently delete a ${entity} from ${product} (${area}). This cannot be undone.`;
    case 'archive':
      return `Archive a ${entity} in ${product} (${area}) so it no longer shows in default views.`;
    case 'export':
      return `Export ${plural} from ${product} (${area}) as CSV or JSON for reporting.`;
    case 'summarize':
      return `Summarize recent ${plural} in ${product} (${area}): counts, trends and notable changes.`;
    case 'assign':
      return `Assign a ${entity} in ${product} (${area}) to a user or team.`;
    case 'schedule':
      return `Schedule a ${entity} in ${product} (${area}) for a future time.`;
    default:
      return `Sync ${plural} between ${product} (${area}) and a connected system.`;
  }
}

function example(rng: () => number, verb: string, entity: string, params: readonly ParamSpec[]): string {
  const chosen = params.filter(() => rng() < 0.6).slice(0, 4);
  const args = Object.fromEntries(chosen.map((param) => [param.name, sampleValue(rng, param)]));
  return `Example: to ${verb} a ${entity}, call with ${JSON.stringify(args)}.`;
}

function sampleValue(rng: () => number, param: ParamSpec): unknown {
  switch (param.type) {
    case 'integer':
      return 1 + Math.floor(rng() * 50);
    case 'number':
      return Math.round(rng() * 10000) / 100;
    case 'boolean':
      return rng() < 0.5;
    case 'array':
      return [`item-${Math.floor(rng() * 100)}`];
    case 'enum':
      return param.values?.[Math.floor(rng() * param.values.length)] ?? 'value';
    default:
      return `${param.name.replace(/_/g, '-')}-${Math.floor(rng() * 1000)}`;
  }
}

function schemaOf(params: readonly ParamSpec[], required: readonly string[]): JsonSchema {
  const properties: Record<string, unknown> = {};
  for (const param of params) properties[param.name] = propertyOf(param);
  return {
    type: 'object',
    properties,
    ...(required.length ? { required: [...required] } : {}),
    additionalProperties: false,
  };
}

function propertyOf(param: ParamSpec): Record<string, unknown> {
  if (param.type === 'enum') return { type: 'string', enum: param.values, description: param.description };
  if (param.type === 'array') return { type: 'array', items: { type: 'string' }, description: param.description };
  return { type: param.type, description: param.description };
}

// Parameters and sentences come from small fixed pools: their sizes are measured once per process.
const propertySizes = new WeakMap<ParamSpec, number>();
const textSizes = new Map<string, number>();

/** Bytes of `"name":{…}` in the serialized schema. */
function propertyBytes(param: ParamSpec): number {
  let size = propertySizes.get(param);
  if (size === undefined) propertySizes.set(param, (size = jsonBytes(param.name) + 1 + jsonBytes(propertyOf(param))));
  return size;
}

/** Bytes of the JSON string of `text`, quotes included. */
function textBytes(text: string): number {
  let size = textSizes.get(text);
  if (size === undefined) {
    size = jsonBytes(text);
    if (!text.startsWith('Example:')) textSizes.set(text, size); // worked examples are one-off
  }
  return size;
}

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}

function targetSize(rng: () => number): number {
  // Box-Muller: a standard normal from two uniforms.
  const normal = Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
  const size = SIZE_MODEL.medianBytes * Math.exp(SIZE_MODEL.sigma * normal);
  return Math.round(Math.min(Math.max(size, SIZE_MODEL.minBytes), SIZE_MODEL.maxBytes));
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
}

function pick<T>(rng: () => number, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)]!;
}

function shuffle<T>(rng: () => number, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
