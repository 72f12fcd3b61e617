import { parseEnv } from '@cm/platform';
import { configProblems } from '@cm/platform/testing';
import { configSchema } from './config';

describe('auth configuration: single sign-on', () => {
  const base = { DATABASE_URL: 'postgres://127.0.0.1/test', NATS_URL: 'nats://127.0.0.1:4222' };
  const sut = (env: Record<string, string>) => parseEnv(configSchema, { ...base, ...env });
  const problemsOf = (env: Record<string, string>) => configProblems(configSchema, { ...base, ...env });
  const provider = { OIDC_ISSUER_URL: 'https://login.campus.edu/realms/staff', OIDC_CLIENT_ID: 'cm' };

  it('is off unless set, and reads its settings with their defaults', () => {
    expect(sut({}).OIDC_ISSUER_URL).toBeUndefined();
    expect(sut({ ...provider, OIDC_ADMIN_GROUPS: ' av-admins, ,it-admins ' })).toMatchObject({
      OIDC_ADMIN_GROUPS: ['av-admins', 'it-admins'],
      OIDC_DISPLAY_NAME: 'SSO',
      OIDC_USERNAME_CLAIM: 'preferred_username',
      OIDC_GROUPS_CLAIM: 'groups',
      OIDC_SCOPES: 'openid profile email',
    });
  });

  it('takes an http issuer only on loopback, where no token crosses a network', () => {
    expect(sut({ ...provider, OIDC_ISSUER_URL: 'http://localhost:8080/realms/dev' }).OIDC_ISSUER_URL).toBe(
      'http://localhost:8080/realms/dev',
    );
    expect(sut({ ...provider, OIDC_ISSUER_URL: 'http://127.0.0.1:9000' }).OIDC_ISSUER_URL).toBe(
      'http://127.0.0.1:9000',
    );
    expect(problemsOf({ ...provider, OIDC_ISSUER_URL: 'http://login.campus.edu' })).toEqual([
      'OIDC_ISSUER_URL: must be the https URL of the OpenID provider (its issuer), e.g. https://login.example.edu/realms/campus',
    ]);
  });

  it('names what is missing or wrong', () => {
    expect(problemsOf({ OIDC_ISSUER_URL: provider.OIDC_ISSUER_URL })).toEqual([
      'OIDC_CLIENT_ID: set OIDC_ISSUER_URL and OIDC_CLIENT_ID together (single sign-on needs both)',
    ]);
    expect(problemsOf({ ...provider, OIDC_SCOPES: 'profile email' })).toEqual([
      'OIDC_SCOPES: must include openid',
    ]);
  });
});
