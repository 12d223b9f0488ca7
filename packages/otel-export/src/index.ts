// The public surface of @tool-search/otel-export: named exports only.
export { startOtlpExport, DEFAULT_EXPORT_INTERVAL_MS, DEFAULT_SERVICE_NAME } from './export.js';
export type { OtlpConfig, OtlpExport, OtlpExportOptions } from './export.js';
