/**
 * The SDK's `OAuthClientProvider` for one server, backed by a token store:
 * the SDK's `auth()` does discovery, registration (dynamic, or a client ID
 * metadata document), PKCE, the `resource` parameter and refresh, and calls
 * back here to read and keep what it learns. Pre-registered clients come from
 * the server's `auth` config and win over anything stored.
 */
import { randomBytes } from 'node:crypto';
import type {
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { McpOAuthConfig } from './options.js';
import type { McpAuthRecord, McpTokenStore } from './token-store.js';

/** Used before any login chose a loopback port; never listened on. */
const PLACEHOLDER_REDIRECT = 'http://127.0.0.1/callback';

export class StoredOAuthProvider implements OAuthClientProvider {
  private record: McpAuthRecord;
  private verifier: string | undefined;
  private currentState: string | undefined;
  /** Set during a step-up: the refresh token cannot widen scopes, so `auth()` must not see it. */
  hideRefreshToken = false;
  /** Called with the authorization URL; the session decides whether a browser step is possible. */
  onRedirect: (url: URL) => void | Promise<void> = () => {};

  constructor(
    private readonly server: string,
    serverUrl: string,
    private readonly config: McpOAuthConfig,
    private readonly store: McpTokenStore,
    loaded: McpAuthRecord | undefined,
    private readonly secret: string | undefined,
  ) {
    // A record made for another URL is not this server's: start clean rather than send its tokens elsewhere.
    this.record = loaded?.serverUrl === serverUrl ? loaded : { serverUrl };
    this.redirect = config.redirectUrl ?? this.record.redirectUrl ?? PLACEHOLDER_REDIRECT;
  }

  /** The loopback URL of the login in progress (or the one registered last). */
  redirect: string;

  /** The redirect URL the client is registered with (configured, or from the last registration). */
  get registeredRedirect(): string | undefined {
    return this.config.redirectUrl ?? this.record.redirectUrl;
  }

  /**
   * Whether the client in use is ours to re-register: not pre-registered, and not the metadata document URL (a
   * server without CIMD support registered us dynamically even when `clientMetadataUrl` is configured).
   */
  get registersDynamically(): boolean {
    return !this.config.clientId && this.record.client?.client_id !== this.config.clientMetadataUrl;
  }

  get redirectUrl(): string {
    return this.redirect;
  }

  get clientMetadataUrl(): string | undefined {
    return this.config.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.config.clientName ?? 'Tool Search',
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: this.secret ? 'client_secret_basic' : 'none',
      ...(this.config.scope ? { scope: this.config.scope } : {}),
    };
  }

  /** What was asked for last: the configured scope, widened by any step-up. */
  get requestedScope(): string | undefined {
    return this.record.scope ?? this.config.scope;
  }

  /** The scopes asked for in an earlier authorization (kept by the store), if any. */
  get rememberedScope(): string | undefined {
    return this.record.scope;
  }

  hasTokens(): boolean {
    return this.record.tokens !== undefined;
  }

  state(): string {
    this.currentState = randomBytes(16).toString('base64url');
    return this.currentState;
  }

  get expectedState(): string | undefined {
    return this.currentState;
  }

  async clientInformation(ctx?: OAuthClientInformationContext): Promise<StoredOAuthClientInformation | undefined> {
    if (this.config.clientId) {
      // The issuer is configured, or bound at first use (the secret then goes to that authorization server only).
      const stamped = this.record.client?.client_id === this.config.clientId ? this.record.client.issuer : undefined;
      let issuer = this.config.issuer ?? stamped;
      if (!issuer && ctx?.issuer) {
        issuer = ctx.issuer;
        await this.update({ client: { client_id: this.config.clientId, issuer } });
      }
      return {
        client_id: this.config.clientId,
        ...(this.secret ? { client_secret: this.secret } : {}),
        ...(issuer ? { issuer } : {}),
      };
    }
    return this.record.client;
  }

  async saveClientInformation(client: StoredOAuthClientInformation): Promise<void> {
    if (this.config.clientId) {
      // Pre-registered: only the issuer stamp is remembered, never the secret.
      if (client.client_id === this.config.clientId && client.issuer)
        await this.update({ client: { client_id: client.client_id, issuer: client.issuer } });
      return;
    }
    await this.update({ client, redirectUrl: this.redirect });
  }

  tokens(): StoredOAuthTokens | undefined {
    const tokens = this.record.tokens;
    if (!tokens || !this.hideRefreshToken) return tokens;
    const { refresh_token: _hidden, ...rest } = tokens;
    return rest;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    await this.update({ tokens });
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    await this.onRedirect(url);
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('no PKCE code verifier: the authorization was not started by this process');
    return this.verifier;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.record.discovery;
  }

  async saveDiscoveryState(discovery: OAuthDiscoveryState): Promise<void> {
    await this.update({ discovery });
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier') {
      this.verifier = undefined;
      return;
    }
    const { tokens, client, discovery, ...rest } = this.record;
    const keep = {
      ...rest,
      ...(scope !== 'all' && scope !== 'tokens' && tokens ? { tokens } : {}),
      ...(scope !== 'all' && scope !== 'client' && client ? { client } : {}),
      ...(scope !== 'all' && scope !== 'discovery' && discovery ? { discovery } : {}),
    };
    this.record = keep;
    await this.store.save(this.server, this.record);
  }

  async rememberScope(scope: string | undefined): Promise<void> {
    if (scope && scope !== this.record.scope) await this.update({ scope });
  }

  private async update(change: Partial<McpAuthRecord>): Promise<void> {
    this.record = { ...this.record, ...change };
    await this.store.save(this.server, this.record);
  }
}
