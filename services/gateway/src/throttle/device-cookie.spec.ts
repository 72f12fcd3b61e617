import type { Request, Response } from 'express';
import { type Config } from '../config';
import { DEVICE_COOKIE, DeviceCookies } from './device-cookie';

const config = (secret: string) =>
  ({ SESSION_SECRET: secret, LOGIN_DEVICE_COOKIE_DAYS: 30 }) as unknown as Config;

/** The cookie `issue` sets, as the browser sends it back. */
function issued(sut: DeviceCookies, username: string, secure = false) {
  const set = jest.fn();
  sut.issue({ secure } as Request, { cookie: set } as unknown as Response, username);
  const [name, value, options] = set.mock.calls[0] as [string, string, Record<string, unknown>];
  return { header: `${name}=${value}`, value, options };
}

const request = (cookie?: string) => ({ headers: { cookie } }) as Request;

describe(DeviceCookies.name, () => {
  const sut = new DeviceCookies(config('a session secret of at least 32 characters'));

  it('recognises its own cookie for the username it names, in any letter case, among other cookies', () => {
    const { header } = issued(sut, 'Teacher');
    const device = sut.deviceOf(request(`cm.sid=abc; ${header}; theme=dark`), ' teacher ');
    expect(device).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(sut.deviceOf(request(header), 'TEACHER')).toBe(device);
  });

  it('gives every sign-in a new device id', () => {
    const first = sut.deviceOf(request(issued(sut, 'ana').header), 'ana');
    const second = sut.deviceOf(request(issued(sut, 'ana').header), 'ana');
    expect(first).not.toBe(second);
  });

  it('holds a random id and a MAC only: nothing in it tells whose it is', () => {
    const { value } = issued(sut, 'Teacher.Anna');
    const [device, mac, ...rest] = value.split('.');
    expect(rest).toEqual([]);
    expect(device).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(mac).toMatch(/^[A-Za-z0-9_-]{43}$/);
    for (const part of [device, mac])
      expect(Buffer.from(part, 'base64url').toString('latin1').toLowerCase()).not.toContain('anna');
    expect(value.toLowerCase()).not.toContain('anna');
  });

  it('refuses a cookie for another username, a tampered one, one signed with another secret, and garbage', () => {
    const { header, value } = issued(sut, 'ana');
    const [device, mac] = value.split('.');
    const bens = issued(sut, 'ben').value.split('.')[1];
    const other = new DeviceCookies(config('another session secret, also 32 characters'));
    for (const cookie of [
      `${DEVICE_COOKIE}=${device}.${bens}`,
      `${DEVICE_COOKIE}=${device}x.${mac}`,
      `${DEVICE_COOKIE}=${value}.extra`,
      `${DEVICE_COOKIE}=${Buffer.from('ana').toString('base64url')}.${value}`,
      'cm.device=nonsense',
      'cm.device=',
      undefined,
    ])
      expect([cookie, sut.deviceOf(request(cookie), 'ana')]).toEqual([cookie, null]);
    expect(sut.deviceOf(request(header), 'ben')).toBeNull();
    expect(other.deviceOf(request(header), 'ana')).toBeNull();
  });

  it('sends it to sign-in only, out of reach of scripts and other sites, Secure over TLS', () => {
    expect(issued(sut, 'ana', true).options).toEqual({
      httpOnly: true,
      sameSite: 'strict',
      secure: true,
      path: '/api/login',
      maxAge: 30 * 86_400_000,
    });
    expect(issued(sut, 'ana', false).options).toMatchObject({ secure: false });
  });
});
