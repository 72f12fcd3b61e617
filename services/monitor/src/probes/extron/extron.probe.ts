import type { ProbeSettings } from '@cm/contracts';
import type { DeviceProbe, ProbeRequest, ProbeResult } from '../probe';
import { runTcpSession, type TcpSession } from '../tcp/tcp-session';
import {
  isSisError,
  parseSisBanner,
  readSisFirmware,
  readSisPartNumber,
  type SisIdentity,
} from './sis-answers';

type ExtronRequest = ProbeRequest<Extract<ProbeSettings, { type: 'extron' }>>;

/**
 * How long the device may stay quiet after its banner before the probe takes it that no password
 * prompt follows. Devices send banner and prompt together; a query sent into a pending prompt
 * would count as a wrong password.
 */
const PROMPT_GRACE_MS = 400;
/** More than any banner or answer: a device that keeps talking is not speaking SIS. */
const MAX_TEXT = 16 * 1024;

type Phase = 'banner' | 'login' | 'firmware' | 'part-number';

/**
 * Extron SIS over telnet (23, or 2001 on some): the banner names the model and firmware without a
 * login; `Q` (firmware) and `N` (part number) follow, after the password when the device asks.
 */
export class ExtronProbe implements DeviceProbe<'extron'> {
  readonly type = 'extron' as const;

  probe(request: ExtronRequest): Promise<ProbeResult> {
    const conversation = new SisConversation(request.secrets.password);
    return runTcpSession(request, {
      onConnect: (session) => conversation.start(session),
      onData: (chunk, session) => conversation.hear(chunk.toString('latin1'), session),
      onEnd: () => conversation.partial(),
      onTimeout: () => conversation.partial(),
    }).finally(() => conversation.stop());
  }
}

class SisConversation {
  private phase: Phase = 'banner';
  private text = '';
  private identity: SisIdentity = {};
  private heardAt?: number;
  private grace?: NodeJS.Timeout;

  constructor(private readonly password: string | undefined) {}

  start(session: TcpSession): void {
    this.awaitPrompt(session);
  }

  stop(): void {
    clearTimeout(this.grace);
  }

  hear(text: string, session: TcpSession): void {
    this.text += text;
    this.heardAt = session.elapsedMs();
    if (this.text.length > MAX_TEXT) throw new Error('the device does not stop talking');
    if (this.phase === 'banner') return this.hearBanner(session);
    if (this.phase === 'login') return this.hearLogin(session);
    const line = this.firstLine();
    if (line === undefined) return;
    if (this.phase === 'firmware') {
      this.identity.firmware = (!isSisError(line) && readSisFirmware(line)) || this.identity.firmware;
      return this.ask('N', 'part-number', session);
    }
    this.identity.partNumber = (!isSisError(line) && readSisPartNumber(line)) || this.identity.partNumber;
    session.finish(this.answered());
  }

  /** What was read when the device fell silent or hung up midway; undefined before any banner. */
  partial(): ProbeResult | undefined {
    if (this.phase === 'login') return undefined;
    return this.identity.model || this.identity.firmware ? this.answered() : undefined;
  }

  private hearBanner(session: TcpSession): void {
    Object.assign(this.identity, parseSisBanner(this.text));
    if (!/Password:\s*$/i.test(this.text)) return this.awaitPrompt(session);
    clearTimeout(this.grace);
    // Without a password set, the banner is all there is to read; it is enough for model and firmware.
    if (!this.password) return session.finish(this.answered());
    this.phase = 'login';
    this.text = '';
    session.write(`${this.password}\r`);
  }

  private hearLogin(session: TcpSession): void {
    if (/Login (Administrator|User)/i.test(this.text)) return this.ask('Q', 'firmware', session);
    if (/Password:\s*$/i.test(this.text) || /(^|\n)E\d{2}\s*$/.test(this.text))
      session.finish({
        outcome: 'auth-failed',
        findings: [],
        durationMs: this.heardAt,
        detail: 'Wrong Extron password',
      });
  }

  private awaitPrompt(session: TcpSession): void {
    clearTimeout(this.grace);
    this.grace = setTimeout(() => {
      if (this.phase === 'banner') this.ask('Q', 'firmware', session);
    }, PROMPT_GRACE_MS);
  }

  private ask(command: string, phase: Phase, session: TcpSession): void {
    this.phase = phase;
    this.text = '';
    session.write(command);
  }

  /** The first complete, non-empty line heard since the last command. */
  private firstLine(): string | undefined {
    const lines = this.text.split('\n');
    lines.pop();
    return lines.map((l) => l.trim()).find((l) => l.length > 0);
  }

  private answered(): ProbeResult {
    const { model, firmware, partNumber } = this.identity;
    return {
      outcome: 'answered',
      findings: [],
      durationMs: this.heardAt,
      model: model ?? partNumber,
      firmware,
      values: partNumber ? { 'Part number': partNumber } : undefined,
    };
  }
}
