import type { KernelPlugin } from '@tool-search/kernel';

/** A complete third-party tool plugin: one tool, its schema, its code, and a usage note. */
export function weatherPlugin(options: { units?: 'metric' | 'imperial' } = {}): KernelPlugin {
  const units = options.units ?? 'metric';
  return {
    name: 'weather-plugin',
    apply({ hooks }) {
      hooks.listTools.tap((sink) => {
        sink.add({
          name: 'get_forecast',
          source: 'plugin',
          owner: 'weather',
          description: 'Weather forecast for a city for the next days',
          inputSchema: {
            type: 'object',
            properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1, maximum: 7 } },
            required: ['city'],
            additionalProperties: false,
          },
          execute: ({ city, days = 1 }) => ({ content: [{ type: 'text', text: `${String(city)}: sunny for ${String(days)} day(s), ${units}` }] }),
        });
        sink.guidance({ title: 'Weather', text: 'Ask for the city before calling get_forecast.', tools: ['get_forecast'] });
      });
    },
  };
}
