/**
 * The keys a run's provider and model match in per-provider config
 * (`byProvider` policy, `toolSearch` overrides): `provider/model` (most
 * specific) then `provider`, lower-cased. One definition, so every
 * per-provider setting matches the same way.
 */
export function providerCandidates(request: { readonly provider?: string; readonly model?: string }): string[] {
  const provider = request.provider?.trim().toLowerCase() || undefined;
  const model = request.model?.trim().toLowerCase() || undefined;
  const out: string[] = [];
  if (model && provider) out.push(model.startsWith(`${provider}/`) ? model : `${provider}/${model}`);
  else if (model?.includes('/')) out.push(model);
  const bare = provider ?? (model?.includes('/') ? model.slice(0, model.indexOf('/')) : undefined);
  if (bare) out.push(bare);
  return out;
}
