/**
 * OAuth 2.1 for one HTTP server, as the MCP authorization spec (2025-11-25,
 * 2026-07-28) has it, on the v2 client SDK's `auth()`: a fetch wrapper adds
 * the bearer token, and on 401 runs `auth()` (protected resource metadata from
 * `WWW-Authenticate` or the well-known URLs, authorization server metadata
 * with the older fallbacks, the client: pre-registered, else a client ID
 * metadata document where the server supports one, else dynamic registration;
 * refresh; the redirect's `iss` checked); on 403 `insufficient_scope` it steps up
 * to the union of scopes, at most once per request. The browser step needs an
 * authorizer (`mcp login`, or one given to the plugin); without one a server
 * that needs login fails with `MCP_AUTH_REQUIRED`, naming the command to run.
 */
import {
  auth,
  ClientCredentialsProvider,
  extractWWWAuthenticateParams,
  IssuerMismatchError,
  type AuthOptions,
  type FetchLike,
  type OAuthClientProvider,
} from '@modelcontextprotocol/client';
import { errorMessage, ToolSearchError } from '@tool-search/kernel';
import { StoredOAuthProvider } from './oauth-provider.js';
import type { McpHttpServerConfig, McpOAuthConfig } from './options.js';
import type { McpTokenStore } from './token-store.js';
import { McpErrors } from './errors.js';

/** The browser step of a login: where to come back to, and the wait for it. */
export interface McpAuthorizer {
  /** Starts listening (if needed) and returns the loopback redirect URL; `registered` is the one the client was registered with. */
  redirectUrl(server: string, registered: string | undefined): Promise<string>;
  /**
   * Shows or opens `url`; resolves with the authorization code once the browser is back with `state` (with the
   * redirect's `iss`, RFC 9207, when it had one: an authorization server that promises `iss` must send it).
   */
  authorize(server: string, url: URL, state: string | undefined): Promise<string | McpAuthorizationResponse>;
}

/** What the browser brought back to the redirect URL. */
export interface McpAuthorizationResponse {
  readonly code: string;
  /** The `iss` parameter (RFC 9207), checked against the authorization server's issuer (mix-up defense). */
  readonly iss?: string;
}

export interface OAuthSessionOptions {
  readonly server: string;
  readonly config: McpHttpServerConfig;
  readonly store: McpTokenStore;
  readonly authorizer?: McpAuthorizer;
  readonly env?: NodeJS.ProcessEnv;
}

/** Authorization attempts one request may cause (a 401 login, then one step-up). */
const MAX_AUTH_PER_REQUEST = 2;

export class OAuthSession {
  private provider: OAuthClientProvider | undefined;
  private authorizing: Promise<void> | undefined;
  private legacyIssuer = false;

  constructor(private readonly options: OAuthSessionOptions) {}

  /** Wraps `base` (the transport's fetch): bearer token on every request, 401/403 answered by authorizing. */
  fetch(base: FetchLike = fetch): FetchLike {
    return async (input, init) => {
      let lastChallenge: string | null = null;
      // The operator's own `Authorization` header (config `headers`) is theirs: a 401 to it is not an OAuth matter.
      if (new Headers(init?.headers).has('authorization')) return base(input, init);
      for (let attempt = 0; ; attempt += 1) {
        const response = await base(input, await this.withToken(init));
        const challenge = response.headers.get('www-authenticate');
        const insufficient =
          response.status === 403 && extractWWWAuthenticateParams(response).error === 'insufficient_scope';
        if (response.status !== 401 && !insufficient) return response;
        // The same challenge again after authorizing for it: more attempts would loop.
        if (attempt >= MAX_AUTH_PER_REQUEST || (attempt > 0 && challenge === lastChallenge)) {
          throw this.failed(`the server still answers ${response.status} after authorizing`, {
            status: response.status,
          });
        }
        lastChallenge = challenge;
        await response.body?.cancel().catch(() => {}); // releasing a body we do not read; the retry below is what counts
        await this.authorize(response, insufficient, base);
      }
    };
  }

  private async withToken(init: RequestInit | undefined): Promise<RequestInit | undefined> {
    const headers = new Headers(init?.headers);
    const token = (await (await this.ensureProvider()).tokens())?.access_token;
    if (!token) return init;
    headers.set('authorization', `Bearer ${token}`);
    return { ...init, headers };
  }

  private authorize(response: Response, stepUp: boolean, base: FetchLike): Promise<void> {
    // Concurrent 401s (a POST and the GET stream) share one authorization.
    this.authorizing ??= this.authorizeOnce(response, stepUp, base).finally(() => {
      this.authorizing = undefined;
    });
    return this.authorizing;
  }

  private async authorizeOnce(response: Response, stepUp: boolean, base: FetchLike): Promise<void> {
    const provider = await this.ensureProvider();
    const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
    if (!(provider instanceof StoredOAuthProvider)) return this.run(provider, { resourceMetadataUrl, scope }, base);
    // A step-up widens what was asked; a new login asks again for what an earlier step-up added.
    const wanted = stepUp ? union(provider.requestedScope, scope) : union(scope, provider.rememberedScope);
    await provider.rememberScope(wanted);
    // Without a browser step only a refresh can help, and a step-up cannot be a refresh.
    if (!this.options.authorizer && (stepUp || !provider.hasTokens())) throw this.required(stepUp ? wanted : undefined);
    provider.hideRefreshToken = stepUp;
    try {
      await this.run(provider, { resourceMetadataUrl, scope: wanted }, base);
    } finally {
      provider.hideRefreshToken = false;
    }
  }

  /** One `auth()`, and when it wants the browser: the authorizer's code, then the exchange. */
  private async run(
    provider: OAuthClientProvider,
    params: { resourceMetadataUrl?: URL; scope?: string },
    base: FetchLike,
  ): Promise<void> {
    const serverUrl = this.options.config.url;
    let redirected: URL | undefined;
    if (provider instanceof StoredOAuthProvider) {
      if (this.options.authorizer)
        await this.useRedirect(
          provider,
          await this.options.authorizer.redirectUrl(this.options.server, provider.registeredRedirect),
        );
      provider.onRedirect = (url) => void (redirected = url);
    }
    try {
      const result = await this.auth(provider, { serverUrl, ...params, fetchFn: base });
      if (result === 'AUTHORIZED') return;
      if (!redirected || !this.options.authorizer || !(provider instanceof StoredOAuthProvider))
        throw this.required(params.scope);
      const answer = await this.options.authorizer.authorize(this.options.server, redirected, provider.expectedState);
      const { code, iss } = typeof answer === 'string' ? { code: answer, iss: undefined } : answer;
      if (
        (await this.auth(provider, {
          serverUrl,
          ...params,
          authorizationCode: code,
          ...(iss !== undefined ? { iss } : {}),
          fetchFn: base,
        })) !== 'AUTHORIZED'
      ) {
        throw this.failed('the authorization code was not accepted');
      }
    } catch (error) {
      if (ToolSearchError.isInstance(error)) throw error;
      throw this.failed(errorMessage(error), {}, error);
    }
  }

  /**
   * The SDK's `auth()`, checking that the authorization server's metadata names it as issuer (RFC 8414 §3.3).
   * One exception, kept for this server from then on: a 2025-03-26 server with no protected resource metadata is
   * its own authorization server (its origin), and such servers published an issuer with a path on that same
   * origin (the conformance suite's `2025-03-26-oauth-metadata-backcompat`); nothing crosses origins.
   */
  private async auth(provider: OAuthClientProvider, options: AuthOptions): Promise<'AUTHORIZED' | 'REDIRECT'> {
    if (this.legacyIssuer) return auth(provider, { ...options, skipIssuerMetadataValidation: true });
    try {
      return await auth(provider, options);
    } catch (error) {
      if (!isLegacySameOriginIssuer(error, this.options.config.url)) throw error;
      this.legacyIssuer = true;
      return auth(provider, { ...options, skipIssuerMetadataValidation: true });
    }
  }

  /** A client registered for another loopback port cannot come back to this one: register again. */
  private async useRedirect(provider: StoredOAuthProvider, redirect: string): Promise<void> {
    if (provider.registeredRedirect && provider.registeredRedirect !== redirect && provider.registersDynamically) {
      await provider.invalidateCredentials('client');
    }
    provider.redirect = redirect;
  }

  private async ensureProvider(): Promise<OAuthClientProvider> {
    if (this.provider) return this.provider;
    const { server, config, store, env = process.env } = this.options;
    const settings: McpOAuthConfig = config.auth ?? {};
    const secret = settings.clientSecret ?? (settings.clientSecretEnv ? env[settings.clientSecretEnv] : undefined);
    if (settings.grant === 'client_credentials') {
      if (!settings.clientId || !secret)
        throw this.failed('client_credentials needs auth.clientId and auth.clientSecret (or clientSecretEnv)');
      this.provider = new ClientCredentialsProvider({
        clientId: settings.clientId,
        clientSecret: secret,
        ...(settings.scope ? { scope: settings.scope } : {}),
        ...(settings.issuer ? { expectedIssuer: settings.issuer } : {}),
      });
    } else {
      this.provider = new StoredOAuthProvider(server, config.url, settings, store, await store.load(server), secret);
    }
    return this.provider;
  }

  private required(scope?: string): ToolSearchError {
    const { server } = this.options;
    const why = scope ? `needs more OAuth scopes (${scope})` : 'needs an OAuth login and has no usable token';
    return new ToolSearchError(
      McpErrors.MCP_AUTH_REQUIRED,
      `MCP server "${server}" ${why}: run \`tool-search mcp login ${server}\``,
      {
        details: { server, ...(scope ? { scope } : {}) },
      },
    );
  }

  private failed(why: string, details: Record<string, unknown> = {}, cause?: unknown): ToolSearchError {
    const { server } = this.options;
    return new ToolSearchError(McpErrors.MCP_AUTH_FAILED, `OAuth with MCP server "${server}" failed: ${why}`, {
      details: { server, ...details },
      ...(cause !== undefined ? { cause } : {}),
    });
  }
}

function union(...scopes: Array<string | undefined>): string | undefined {
  const all = new Set(scopes.flatMap((scope) => scope?.split(' ').filter(Boolean) ?? []));
  return all.size ? [...all].join(' ') : undefined;
}

/** An issuer mismatch where the expected issuer is the MCP server's own origin and the metadata's is on that origin. */
function isLegacySameOriginIssuer(error: unknown, serverUrl: string): boolean {
  if (!IssuerMismatchError.isInstance(error) || error.kind !== 'metadata' || !error.received) return false;
  try {
    if (!error.expected) return false;
    const expected = new URL(error.expected);
    const origin = new URL(serverUrl).origin;
    return expected.pathname === '/' && expected.origin === origin && new URL(error.received).origin === origin;
  } catch {
    return false;
  }
}
