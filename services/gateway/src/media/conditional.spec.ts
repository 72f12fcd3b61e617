import { isNotModified } from './conditional';

describe(isNotModified.name, () => {
  const etag = '"5d41402abc4b2a76b9719d911017c592"';
  const modified = new Date('2026-11-20T10:15:30.250Z');
  const sut = (headers: Record<string, string>) => isNotModified(headers, etag, modified);

  it('matches the ETag, weak or strong, in a list, or *', () => {
    expect(sut({ 'if-none-match': etag })).toBe(true);
    expect(sut({ 'if-none-match': `"other", W/${etag}` })).toBe(true);
    expect(sut({ 'if-none-match': '*' })).toBe(true);
    expect(sut({ 'if-none-match': '"other"' })).toBe(false);
  });

  it('compares dates to the second', () => {
    expect(sut({ 'if-modified-since': modified.toUTCString() })).toBe(true);
    expect(sut({ 'if-modified-since': new Date('2026-11-20T10:15:29Z').toUTCString() })).toBe(false);
    expect(sut({ 'if-modified-since': 'yesterday' })).toBe(false);
  });

  it('lets If-None-Match decide when both are sent', () => {
    expect(sut({ 'if-none-match': '"other"', 'if-modified-since': modified.toUTCString() })).toBe(false);
  });

  it('is false for an unconditional request', () => {
    expect(sut({})).toBe(false);
  });
});
