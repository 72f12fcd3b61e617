import { HOME_PATH, returnPath } from './return-path';

describe('returnPath', () => {
  it('keeps a path of this app, with its query and fragment', () => {
    expect(returnPath('/rooms/5b0c7a52-2f7e-4a56-9a55-8f1f1b7f3c11')).toBe(
      '/rooms/5b0c7a52-2f7e-4a56-9a55-8f1f1b7f3c11',
    );
    expect(returnPath('/buildings/b1/labels?x=1#top')).toBe('/buildings/b1/labels?x=1#top');
    expect(returnPath('/settings')).toBe('/settings');
  });

  it('goes to the buildings list from the root', () => {
    expect(returnPath('/')).toBe(HOME_PATH);
    expect(returnPath('/?next=/rooms/1')).toBe(HOME_PATH);
  });

  it.each([
    '//evil.example/rooms/1',
    '/\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    'https://evil.example/rooms/1',
    'javascript:alert(1)',
    'rooms/1',
    '',
  ])('never leaves the origin: %j', (requested) => {
    expect(returnPath(requested)).toBe(HOME_PATH);
  });
});
