/**
 * An example third-party plugin module: one tool that converts lengths. It is
 * shaped the way `@tool-search/preset` loads modules from a config: the
 * factory is the default export, the options schema is `optionsSchema`, and
 * the kernel range comes from this package's `peerDependencies`.
 */
import type { KernelPlugin } from '@tool-search/kernel';

export interface UnitsPluginOptions {
  /** Decimal places in answers (default 2). */
  readonly precision?: number;
  /** The tool's owner, which is part of its id `plugin:<owner>:convert_length` (default `units`). */
  readonly owner?: string;
}

export const optionsSchema = {
  type: 'object',
  properties: {
    precision: { type: 'integer', minimum: 0, maximum: 10 },
    owner: { type: 'string', pattern: '^[a-z][a-z0-9_-]{0,31}$' },
  },
  additionalProperties: false,
} as const;

/** Metres per unit. */
const UNITS: Readonly<Record<string, number>> = Object.freeze({
  mm: 0.001,
  cm: 0.01,
  m: 1,
  km: 1000,
  in: 0.0254,
  ft: 0.3048,
  mi: 1609.344,
});

export function unitsPlugin(options: UnitsPluginOptions = {}): KernelPlugin {
  const precision = options.precision ?? 2;
  const owner = options.owner ?? 'units';
  return {
    name: '@tool-search/example-plugin',
    apply({ hooks }) {
      hooks.listTools.tap((sink) => {
        sink.add({
          name: 'convert_length',
          source: 'plugin',
          owner,
          description: 'Convert a length between metric and imperial units (mm, cm, m, km, in, ft, mi)',
          inputSchema: {
            type: 'object',
            properties: {
              value: { type: 'number' },
              from: { type: 'string', enum: Object.keys(UNITS) },
              to: { type: 'string', enum: Object.keys(UNITS) },
            },
            required: ['value', 'from', 'to'],
            additionalProperties: false,
          },
          execute: ({ value, from, to }) => {
            const metres = Number(value) * UNITS[String(from)]!;
            const text = `${String(value)} ${String(from)} = ${(metres / UNITS[String(to)]!).toFixed(precision)} ${String(to)}`;
            return { content: [{ type: 'text', text }] };
          },
        });
      });
    },
  };
}
