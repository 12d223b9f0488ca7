// Resolve hook (see node20-shim.mjs): only the conformance package's `fs` import is redirected.
const FS_WITH_GLOB = new URL('./fs-with-glob.mjs', import.meta.url).href;

export async function resolve(specifier, context, next) {
  if (
    (specifier === 'fs' || specifier === 'node:fs') &&
    context.parentURL?.includes('/@modelcontextprotocol/conformance/')
  ) {
    return { url: FS_WITH_GLOB, shortCircuit: true };
  }
  return next(specifier, context);
}
