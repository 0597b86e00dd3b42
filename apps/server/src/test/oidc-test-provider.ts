import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

/** An account of the test provider: its subject and what it says of itself. */
export interface TestIdentity {
  sub: string;
  preferred_username?: string;
  email?: string;
}

export const TEST_CLIENT = { id: 'gantry-console', secret: 'test-client-secret-7f3c9a' };

/**
 * A real OpenID provider (oidc-provider) on loopback for the tests, with its development login
 * pages (any password), consent skipped, and a hook that can change the ID token on its way out
 * (re-signed with the provider's own key): a wrong audience, another nonce, an expired token.
 */
export interface TestProvider {
  issuer: string;
  identities: Map<string, TestIdentity>;
  /** Changes the next ID tokens' claims (undefined: none), re-signed with the provider's key unless `foreignKey`. */
  tamper: { claims?: JWTPayload; foreignKey?: boolean } | undefined;
  /** Signs in at the provider as `login` through its pages (cookies kept), from `authorizationUrl` to the redirect back. */
  signIn(authorizationUrl: string, login: string): Promise<URL>;
  close(): Promise<void>;
}

export async function startTestProvider(redirectUris: string[]): Promise<TestProvider> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const foreign = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const identities = new Map<string, TestIdentity>();
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: TEST_CLIENT.id,
        client_secret: TEST_CLIENT.secret,
        redirect_uris: redirectUris,
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [jwk] },
    pkce: { required: () => true },
    claims: { openid: ['sub'], profile: ['preferred_username'], email: ['email'] },
    conformIdTokenClaims: false,
    findAccount: async (_ctx, id) => {
      const identity = identities.get(id) ?? { sub: id, preferred_username: id };
      return { accountId: id, claims: async () => ({ ...identity }) };
    },
    // Consent is not what these tests are about: every client is granted what it asks.
    loadExistingGrant: async (ctx) => {
      const oidc = ctx.oidc;
      if (!oidc.client || !oidc.session?.accountId) return undefined;
      const grant = new oidc.provider.Grant({ clientId: oidc.client.clientId, accountId: oidc.session.accountId });
      grant.addOIDCScope('openid profile email');
      await grant.save();
      return grant;
    },
    cookies: { keys: ['test-cookie-key'] },
  });
  const state: TestProvider = {
    issuer,
    identities,
    tamper: undefined,
    signIn: (url, login) => signInThrough(url, login),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  provider.use(async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    await next();
    const tamper = state.tamper;
    const body: unknown = ctx.body;
    if (ctx.path !== '/token' || !tamper || !body || typeof body !== 'object' || !('id_token' in body)) return;
    const original = decodeJwt(String(body.id_token));
    const key = tamper.foreignKey ? foreign.privateKey : privateKey;
    const id_token = await new SignJWT({ ...original, ...tamper.claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
      .sign(key);
    ctx.body = { ...body, id_token };
  });
  server.on('request', provider.callback());
  return state;
}

/** Follows the provider's pages as a browser would: the login form posted, cookies kept, until it leaves for the client. */
async function signInThrough(authorizationUrl: string, login: string): Promise<URL> {
  const jar = new Map<string, string>();
  const origin = new URL(authorizationUrl).origin;
  let url = authorizationUrl;
  let method = 'GET';
  let body: URLSearchParams | undefined;
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(url, {
      method,
      redirect: 'manual',
      headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
      ...(body ? { body } : {}),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const location = response.headers.get('location');
    if (location) {
      const next = new URL(location, url);
      if (next.origin !== origin) return next;
      url = next.href;
      method = 'GET';
      body = undefined;
      continue;
    }
    const page = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    if (!action) throw new Error(`the provider's page has no form (${response.status}): ${page.slice(0, 300)}`);
    url = new URL(action.replaceAll('&amp;', '&'), url).href;
    method = 'POST';
    const prompt = /name="prompt" value="([^"]+)"/.exec(page)?.[1] ?? 'login';
    body = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any' } : { prompt });
  }
  throw new Error('the provider did not send the browser back');
}
