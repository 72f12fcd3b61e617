import { signOutNavigation } from './sign-out';

describe(signOutNavigation.name, () => {
  it("carries the session's sign-out token from its cookie, among others", () => {
    expect(signOutNavigation('theme=dark; cm.signout=Ab-9_x; other=1')).toBe('/api/logout?token=Ab-9_x');
  });

  it('sends an empty token without the cookie (the gateway then signs nobody out)', () => {
    expect(signOutNavigation('theme=dark')).toBe('/api/logout?token=');
    expect(signOutNavigation('')).toBe('/api/logout?token=');
  });
});
