import { ErrorCode } from '@cm/contracts';
import { identityOf } from './identity';

const settings = {
  OIDC_USERNAME_CLAIM: 'preferred_username',
  OIDC_GROUPS_CLAIM: 'groups',
  OIDC_ADMIN_GROUPS: ['av-admins'],
};
const issuer = 'https://login.campus.edu';

describe('identityOf', () => {
  it('takes the username from the configured claim, and the profile from the standard ones', () => {
    const claims = {
      sub: '00u1',
      upn: 'gh@campus.edu',
      preferred_username: 'grace',
      email: 'Grace@Campus.EDU',
      given_name: ' Grace ',
      family_name: 'Hopper',
    };
    expect(identityOf(issuer, claims, settings)).toEqual({
      issuer,
      subject: '00u1',
      username: 'grace',
      email: 'grace@campus.edu',
      firstName: 'Grace',
      lastName: 'Hopper',
      role: 'user',
    });
    expect(identityOf(issuer, claims, { ...settings, OIDC_USERNAME_CLAIM: 'upn' }).username).toBe(
      'gh@campus.edu',
    );
  });

  it('makes an administrator of a member of an admin group, whether groups come as a list or as one', () => {
    const role = (groups: unknown, claim = 'groups') =>
      identityOf(issuer, { sub: 's', preferred_username: 'u', [claim]: groups }, settings).role;
    expect(role(['staff', 'av-admins'])).toBe('admin');
    expect(role('av-admins')).toBe('admin');
    expect(role(['staff', 'AV-Admins'])).toBe('user');
    expect(role(undefined)).toBe('user');
    expect(role(['av-admins'], 'roles')).toBe('user');
  });

  it('leaves out what does not fit rather than refusing the person', () => {
    const identity = identityOf(
      issuer,
      {
        sub: 's',
        preferred_username: 'u',
        email: 'not an address',
        given_name: 'x'.repeat(121),
        family_name: 7,
      },
      settings,
    );
    expect(identity).toMatchObject({ email: null, firstName: null, lastName: null });
  });

  it('takes names on one line, without control characters, as the user form does', () => {
    const claims = {
      sub: 's',
      preferred_username: 'u',
      given_name: 'Ada\r\nAdmin',
      family_name: 'By\u0007ron',
    };
    expect(identityOf(issuer, claims, settings)).toMatchObject({ firstName: 'Ada Admin', lastName: 'Byron' });
  });

  it.each([
    ['no username claim', { sub: 's' }],
    ['a username that is no text', { sub: 's', preferred_username: 42 }],
    ['a username of invisible characters', { sub: 's', preferred_username: '\u200b' }],
    ['no subject', { preferred_username: 'u' }],
  ])('refuses %s, naming the setting to check', (_case, claims) => {
    expect(() => identityOf(issuer, claims, settings)).toThrow(
      expect.objectContaining({ code: ErrorCode.SSO_NO_USERNAME }),
    );
  });
});
