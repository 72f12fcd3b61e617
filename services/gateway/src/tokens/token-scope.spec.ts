import { scopeCovers, scopeNeeded } from './token-scope';

describe(scopeNeeded.name, () => {
  it('asks read for a read, write for a change, admin for any administrator route', () => {
    expect(scopeNeeded('user', 'GET')).toBe('read');
    expect(scopeNeeded('user', 'head')).toBe('read');
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'])
      expect(scopeNeeded('user', method)).toBe('write');
    expect(scopeNeeded('admin', 'GET')).toBe('admin');
    expect(scopeNeeded('admin', 'POST')).toBe('admin');
  });
});

describe(scopeCovers.name, () => {
  it('lets each scope do what the narrower ones do, and no more', () => {
    expect(scopeCovers('admin', 'write')).toBe(true);
    expect(scopeCovers('write', 'read')).toBe(true);
    expect(scopeCovers('read', 'read')).toBe(true);
    expect(scopeCovers('read', 'write')).toBe(false);
    expect(scopeCovers('write', 'admin')).toBe(false);
  });
});
