import { expect, it } from 'vitest';
import { createKernel, ErrorCode } from '@tool-search/kernel';
import { weatherPlugin } from './weather-plugin.js';

it('answers a forecast, shows its guidance, and rejects bad arguments before running', async () => {
  const run = await createKernel({ plugins: [weatherPlugin()] }).createRun();
  const outcome = await run.call('get_forecast', { city: 'Oslo', days: 2 });
  expect(outcome).toMatchObject({ status: 'ok', toolId: 'plugin:weather:get_forecast' });
  expect((await run.exposure('direct')).system).toContain('Ask for the city');
  await expect(run.call('get_forecast', { days: 9 })).rejects.toMatchObject({ code: ErrorCode.TOOL_ARGUMENTS_INVALID });
});
