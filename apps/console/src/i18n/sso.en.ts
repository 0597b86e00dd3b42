/** The single sign-on settings page (issue 34 §1), English; loaded with the page. */
export const ssoPageEn = {
  'sso.title': 'Single sign-on (OpenID Connect)',
  'sso.intro':
    'Tenants sign in with your identity provider (authorization code flow with PKCE). Register the redirect URI below with the provider as a confidential client.',
  'sso.enabled': 'Enable single sign-on',
  'sso.redirectUri': 'Redirect URI',
  'sso.issuerLabel': 'Issuer URL',
  'sso.clientIdLabel': 'Client ID',
  'sso.clientSecretLabel': 'Client secret',
  'sso.clientSecretKept': 'Stored (leave empty to keep it)',
  'sso.clientSecretHelp': 'Stored encrypted; never shown again.',
  'sso.scopesLabel': 'Scopes',
  'sso.accountClaimLabel': 'Claim naming the account',
  'sso.accountClaimHelp':
    'Its value is the tenant’s account name (an account made for an e-mail address gets a generated name and keeps its link to the identity).',
  'sso.buttonNameLabel': 'Button name on the login page',
  'sso.unknownAccountLabel': 'An account the platform does not know',
  'sso.unknown.refuse': 'Refuse it',
  'sso.unknown.create': 'Create a tenant (no licence grant)',
  'sso.tenantTypeLabel': 'Type of the new tenant',
  'sso.tenantIndustryLabel': 'Industry of the new tenant',
  'sso.tenantPasswordLogin': 'Tenants may also sign in with a password',
  'sso.tenantPasswordLoginHelp': 'The administrator can always sign in with the password (for recovery).',
  'sso.save': 'Save',
};
