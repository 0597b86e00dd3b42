import type * as oidc from 'openid-client';

/** openid-client, loaded on the first sign-on rather than at every start. */
let library: Promise<typeof oidc> | undefined;
const openidClient = () => {
  library ??= import('openid-client');
  return library;
};

/** What the relying party needs of the settings. */
export interface ProviderSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** Limit of each call to the provider (discovery, keys, token, userinfo). */
const PROVIDER_TIMEOUT_S = 10;
/** A discovered provider is trusted this long before its metadata is read again. */
const DISCOVERY_TTL_MS = 10 * 60_000;

/** The provider could not be reached or answered nonsense: not the user's fault. */
export class ProviderUnavailable extends Error {}

/**
 * The OpenID Connect relying party (openid-client): discovery (cached), the authorization URL with
 * PKCE (S256), state and nonce, and the code exchanged for a signed ID token whose signature, issuer,
 * audience, expiry and nonce are checked. http is allowed for loopback issuers only (settings schema).
 */
export class OidcRelyingParty {
  private cached: { key: string; at: number; config: Promise<oidc.Configuration> } | undefined;

  forget(): void {
    this.cached = undefined;
  }

  private configuration(settings: ProviderSettings): Promise<oidc.Configuration> {
    const key = JSON.stringify([settings.issuer, settings.clientId, settings.clientSecret]);
    const now = performance.now();
    if (this.cached?.key === key && now - this.cached.at < DISCOVERY_TTL_MS) return this.cached.config;
    const insecure = new URL(settings.issuer).protocol === 'http:';
    const config = openidClient().then(async (client) => {
      const configuration = await client.discovery(
        new URL(settings.issuer),
        settings.clientId,
        { client_secret: settings.clientSecret },
        client.ClientSecretPost(settings.clientSecret),
        { timeout: PROVIDER_TIMEOUT_S, ...(insecure ? { execute: [client.allowInsecureRequests] } : {}) },
      );
      configuration.timeout = PROVIDER_TIMEOUT_S;
      // The ID token's signature is checked against the provider's keys, not only trusted for its TLS.
      client.enableNonRepudiationChecks(configuration);
      return configuration;
    });
    this.cached = { key, at: now, config };
    config.catch(() => {
      if (this.cached?.config === config) this.cached = undefined;
    });
    return config;
  }

  /** Where to send the browser, with a fresh PKCE verifier, state and nonce (kept by the caller). */
  async authorizationUrl(
    settings: ProviderSettings,
    request: { redirectUri: string; scope: string; state: string; nonce: string; codeVerifier: string },
  ): Promise<URL> {
    const config = await this.provider(settings);
    const client = await openidClient();
    return client.buildAuthorizationUrl(config, {
      redirect_uri: request.redirectUri,
      scope: request.scope,
      response_type: 'code',
      code_challenge: await client.calculatePKCECodeChallenge(request.codeVerifier),
      code_challenge_method: 'S256',
      state: request.state,
      nonce: request.nonce,
    });
  }

  /**
   * The provider's answer (`callbackUrl`, the full URL it sent the browser to) turned into the ID
   * token's claims, with the userinfo's added for `claim` when the ID token lacks it. Throws
   * `ProviderUnavailable` for a provider that cannot be reached; any other error is a refused answer.
   */
  async claims(
    settings: ProviderSettings,
    callbackUrl: URL,
    expected: { state: string; nonce: string; codeVerifier: string; claim: string },
  ): Promise<Record<string, unknown>> {
    const config = await this.provider(settings);
    const client = await openidClient();
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: expected.codeVerifier,
        expectedState: expected.state,
        expectedNonce: expected.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      throw unreachable(error) ? new ProviderUnavailable('token endpoint unreachable', { cause: error }) : error;
    }
    const claims: Record<string, unknown> = { ...tokens.claims() };
    if (claims[expected.claim] === undefined && typeof claims.sub === 'string') {
      try {
        const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
        if (info[expected.claim] !== undefined) claims[expected.claim] = info[expected.claim];
      } catch (error) {
        if (unreachable(error)) throw new ProviderUnavailable('userinfo endpoint unreachable', { cause: error });
        throw error;
      }
    }
    return claims;
  }

  private async provider(settings: ProviderSettings): Promise<oidc.Configuration> {
    try {
      return await this.configuration(settings);
    } catch (error) {
      throw new ProviderUnavailable('discovery failed', { cause: error });
    }
  }
}

/** A network failure or a timeout (not an answer the provider gave). */
function unreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return true;
  return error instanceof TypeError && error.message === 'fetch failed';
}
