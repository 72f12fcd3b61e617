import { isAddressError, parseAddressTarget } from './address';

describe(parseAddressTarget.name, () => {
  it('takes one IPv4 address as it is', () => {
    expect(parseAddressTarget(' 10.4.2.17 ')).toEqual({ text: '10.4.2.17', addresses: ['10.4.2.17'] });
  });

  it('expands a range of the last part, both ends included', () => {
    const sut = parseAddressTarget('192.168.1.70-73');
    expect(sut).toEqual({
      text: '192.168.1.70-73',
      addresses: ['192.168.1.70', '192.168.1.71', '192.168.1.72', '192.168.1.73'],
    });
  });

  it('accepts a one-address range', () => {
    expect(parseAddressTarget('127.0.0.5-5')).toEqual({ text: '127.0.0.5-5', addresses: ['127.0.0.5'] });
  });

  it.each([
    ['256.1.1.1', 'one IPv4 address'],
    ['10.0.0', 'one IPv4 address'],
    ['projector.local', 'one IPv4 address'],
    ['10.0.0.9-3', 'must not be below its start (9)'],
    ['10.0.0.9-256', 'at most 255'],
    ['10.0.0.1-10.0.0.5', 'one IPv4 address'],
  ])('refuses %s with a message saying what is wrong', (input, fragment) => {
    const sut = parseAddressTarget(input);
    expect(isAddressError(sut)).toBe(true);
    expect((sut as { error: string }).error).toContain(fragment);
  });
});
