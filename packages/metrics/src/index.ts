export { metricsPlugin, type MetricsOptions, type MetricsPlugin, type MetricsRoute } from './plugin.js';
