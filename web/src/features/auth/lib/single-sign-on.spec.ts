import { singleSignOnMessages } from '@cm/contracts';
import { signInErrorOf, singleSignOnHref, withoutSignInError } from './single-sign-on';

describe('signInErrorOf', () => {
  it("answers our sentence for a refusal's code", () => {
    expect(signInErrorOf('?signInError=AUTH.SSO_CANCELLED')).toBe(singleSignOnMessages['AUTH.SSO_CANCELLED']);
  });

  it.each([
    '',
    '?other=1',
    '?signInError=',
    '?signInError=AUTH.INVALID_CREDENTIALS',
    '?signInError=toString',
  ])('answers nothing for %j', (search) => {
    expect(signInErrorOf(search)).toBeNull();
  });
});

describe('withoutSignInError', () => {
  const address = (search: string) => ({ pathname: '/rooms/r1', search, hash: '#top' });

  it('drops only the refusal', () => {
    expect(withoutSignInError(address('?signInError=AUTH.SSO_FAILED'))).toBe('/rooms/r1#top');
    expect(withoutSignInError(address('?a=1&signInError=AUTH.SSO_FAILED&b=2'))).toBe('/rooms/r1?a=1&b=2#top');
  });

  it('leaves an address without one as it is', () => {
    expect(withoutSignInError(address('?q=a%20b'))).toBe('/rooms/r1?q=a%20b#top');
    expect(withoutSignInError(address(''))).toBe('/rooms/r1#top');
  });
});

describe('singleSignOnHref', () => {
  it('starts the sign-in with the address to come back to', () => {
    expect(singleSignOnHref('/rooms/r1?a=1#top')).toBe(
      '/api/auth/oidc/start?returnTo=%2Frooms%2Fr1%3Fa%3D1%23top',
    );
  });
});
