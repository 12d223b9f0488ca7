export {
  imagePlugin,
  IMAGE_PLUGIN_NAME,
  DEFAULT_PROMPT,
  DEFAULT_MAX_BYTES_MB,
  DEFAULT_MAX_PIXELS,
  type ImagePluginOptions,
} from './plugin.js';
export { ImageErrors } from './errors.js';
