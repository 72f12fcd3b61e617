import { explainSocketError } from './pinger';

describe(explainSocketError.name, () => {
  it('says how to grant NET_RAW when the kernel refuses the raw socket', () => {
    // What raw-socket throws for a process without CAP_NET_RAW.
    const sut = explainSocketError(new Error('Operation not permitted'));
    expect(sut.message).toMatch(/needs the NET_RAW capability/);
    expect(sut.message).toMatch(/Run it as root/);
    expect(sut.message).toMatch(/setcap cap_net_raw\+ep/);
    expect(sut.message).toContain('(Operation not permitted)');
  });

  it('leaves any other error as it was', () => {
    const other = new Error('Address family not supported by protocol');
    expect(explainSocketError(other)).toBe(other);
  });
});
