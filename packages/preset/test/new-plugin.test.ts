// Issue 27: a new plugin with its own error codes, event, ToolMeta field and options schema needs no edit outside its
// package (test/fixtures/plugin-station) and the config that names it: the kernel, the config package and the
// preset stay as they are.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  ErrorCode,
  listErrorCodes,
  type KernelPlugin,
  type RunEvent,
  type RunEventMap,
  type ToolMeta,
} from '@tool-search/kernel';
import { createToolSearchKernel, deploymentErrorCodes } from '@tool-search/preset';
import type { StationReading } from './fixtures/plugin-station/src/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const MODULE = './fixtures/plugin-station/src/index.ts';
const config = (options: Record<string, unknown>) => ({ plugins: { [MODULE]: options } });

/** An observer in another plugin: sees the station's event, typed by the fixture's declaration merging. */
function readingsObserver(seen: StationReading[]): KernelPlugin {
  return {
    name: 'readings-observer',
    apply({ hooks }) {
      hooks.runEvent.tap((event: RunEvent) => {
        if (event.type === 'station-reading') seen.push(event);
      });
    },
  };
}

describe('a new plugin in its own package', () => {
  it('declares its codes: listed with their owner, and raised by its tool', async () => {
    const { kernel } = await createToolSearchKernel(config({ stations: ['oslo', 'bergen'], offline: ['bergen'] }), {
      baseDir: here,
    });
    try {
      const run = await kernel.createRun();
      const outcome = await run.call('station_reading', { station: 'bergen' });
      expect(outcome).toMatchObject({ status: 'error', error: { code: 'WEATHER_STATION_OFFLINE' } });
      const owned = {
        code: 'WEATHER_STATION_OFFLINE',
        owner: '@acme/plugin-station',
        description: expect.stringContaining('did not answer'),
      };
      expect(listErrorCodes()).toContainEqual(owned);
      expect(await deploymentErrorCodes(config({ stations: ['oslo'] }), here)).toContainEqual(owned);
      expect(ErrorCode).not.toHaveProperty('WEATHER_STATION_OFFLINE');
    } finally {
      await kernel.close();
    }
  });

  it('emits its own event, which another plugin observes with its declared type, and carries its ToolMeta field', async () => {
    const seen: StationReading[] = [];
    const { kernel } = await createToolSearchKernel(config({ stations: ['oslo'] }), {
      baseDir: here,
      plugins: [readingsObserver(seen)],
    });
    try {
      const run = await kernel.createRun();
      expect(run.catalog.find((tool) => tool.name === 'station_reading')?.meta?.stations).toEqual(['oslo']);
      expect(await run.call('station_reading', { station: 'oslo' })).toMatchObject({ status: 'ok' });
      expect(seen).toEqual([{ type: 'station-reading', station: 'oslo', celsius: 14 }]);
    } finally {
      await kernel.close();
    }
    expectTypeOf<RunEventMap['station-reading']>().toEqualTypeOf<StationReading>();
    expectTypeOf<Extract<RunEvent, { type: 'station-reading' }>['celsius']>().toEqualTypeOf<number>();
    expectTypeOf<ToolMeta['stations']>().toEqualTypeOf<readonly string[] | undefined>();
  });

  it('validates its options with the schema it exports: bad options are OPTIONS_INVALID naming the path', async () => {
    await expect(createToolSearchKernel(config({ stations: 'oslo' }), { baseDir: here })).rejects.toMatchObject({
      code: ErrorCode.OPTIONS_INVALID,
      path: `/plugins/${MODULE.replaceAll('~', '~0').replaceAll('/', '~1')}/stations`, // a JSON Pointer into the config
    });
    await expect(
      createToolSearchKernel(config({ stations: ['oslo'], colour: 'red' }), { baseDir: here }),
    ).rejects.toMatchObject({
      code: ErrorCode.OPTIONS_INVALID,
      rule: 'additionalProperties',
    });
  });

  it('is named nowhere in the kernel, the config package or the preset', () => {
    const packages = join(here, '../..');
    const sources = ['kernel/src', 'config/src', 'preset/src'].flatMap((dir) =>
      readdirSync(join(packages, dir), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.ts'))
        .map((file) => readFileSync(join(packages, dir, file), 'utf8')),
    );
    expect(sources.length).toBeGreaterThan(20);
    for (const name of ['WEATHER_STATION_OFFLINE', 'station-reading', 'plugin-station', 'stations?']) {
      expect(
        sources.filter((text) => text.includes(name)),
        name,
      ).toEqual([]);
    }
  });
});
