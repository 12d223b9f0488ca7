export {
  imagePlugin,
  IMAGE_PLUGIN_NAME,
  DEFAULT_PROMPT,
  DEFAULT_MAX_BYTES_MB,
  type ImagePluginOptions,
} from './plugin.js';
export { ImageErrors } from './errors.js';
