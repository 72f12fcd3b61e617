import { createHash } from 'node:crypto';
import { type ProbeSettings } from '@cm/contracts';
import { type DeviceProbe, type ProbeRequest, type ProbeResult } from '../probe';
import {
  answerProblem,
  classOneQuestions,
  classTwoQuestions,
  isClassTwo,
  type PjlinkAnswers,
  type PjlinkQuestion,
  questionLine,
  readingFrom,
} from './pjlink-answers';
import { PjlinkSession, PjlinkStopped } from './pjlink-session';

/** Projectors may take 2 s to answer; more than this for one answer is a device that is not there. */
export const PJLINK_ANSWER_TIMEOUT_MS = 5_000;

export const WRONG_PASSWORD = 'Wrong PJLink password';
export const PASSWORD_NEEDED = 'PJLink password needed';

export interface PjlinkProbeOptions {
  answerTimeoutMs?: number;
}

type PjlinkRequest = ProbeRequest<Extract<ProbeSettings, { type: 'pjlink' }>>;

/** What one conversation has read so far, kept when it stops part way. */
interface Conversation {
  session: PjlinkSession;
  /** MD5 of the device's random and the password, sent with the first command only. */
  digest: string;
  answers: PjlinkAnswers;
  asked: number;
  lastAnswerAt?: number;
}

/**
 * PJLink class 1 and 2 (TCP, 4352 by default): one connection, one question at a time, as the
 * devices serve one controller and answer in order. The password's digest goes with the first
 * command only: the specification authenticates the connection, not each command.
 */
export class PjlinkProbe implements DeviceProbe<'pjlink'> {
  readonly type = 'pjlink' as const;
  private readonly answerTimeoutMs: number;

  constructor(options: PjlinkProbeOptions = {}) {
    this.answerTimeoutMs = options.answerTimeoutMs ?? PJLINK_ANSWER_TIMEOUT_MS;
  }

  async probe(request: PjlinkRequest): Promise<ProbeResult> {
    const started = performance.now();
    const session = new PjlinkSession({
      address: request.address,
      port: request.port,
      timeoutMs: request.timeoutMs,
      answerTimeoutMs: this.answerTimeoutMs,
      signal: request.signal,
    });
    const talk: Conversation = { session, digest: '', answers: {}, asked: 0 };
    try {
      await session.opened();
      talk.digest = this.digest(await session.nextLine(), request.secrets.password);
      await this.askAll(talk);
      return {
        outcome: 'answered',
        durationMs: since(started, talk.lastAnswerAt),
        ...readingFrom(talk.answers),
      };
    } catch (error) {
      return stoppedResult(error, talk, started);
    } finally {
      session.close();
    }
  }

  /** The digest the greeting asks for ('' when it asks for none). */
  private digest(greeting: string, password: string | undefined): string {
    if (/^PJLINK 0$/i.test(greeting)) return '';
    if (/^PJLINK ERRA$/i.test(greeting)) throw new PjlinkStopped('auth', WRONG_PASSWORD);
    const random = /^PJLINK 1 (\S{1,32})$/i.exec(greeting)?.[1];
    if (random === undefined)
      throw new PjlinkStopped('garbled', `Not a PJLink greeting: "${greeting.slice(0, 40)}"`);
    if (!password) throw new PjlinkStopped('auth', PASSWORD_NEEDED);
    return createHash('md5')
      .update(random + password)
      .digest('hex');
  }

  private async askAll(talk: Conversation): Promise<void> {
    for (const question of classOneQuestions) await this.ask(talk, question);
    if (!isClassTwo(talk.answers)) return;
    for (const question of classTwoQuestions) await this.ask(talk, question);
  }

  private async ask(talk: Conversation, question: PjlinkQuestion): Promise<void> {
    talk.session.send(`${talk.asked === 0 ? talk.digest : ''}${questionLine(question)}\r`);
    talk.asked += 1;
    const line = await talk.session.nextLine();
    const answer = /^%[1-9]([A-Za-z0-9]{4})=(.*)$/.exec(line);
    // Class 1 devices refuse a password with `PJLINK ERRA`, some class 2 ones as the answer.
    if (/^PJLINK ERRA$/i.test(line) || answer?.[2] === 'ERRA')
      throw new PjlinkStopped('auth', WRONG_PASSWORD);
    if (!answer || answer[1].toUpperCase() !== question)
      throw new PjlinkStopped('garbled', `Unexpected answer to ${question}: "${line.slice(0, 40)}"`);
    const problem = answerProblem(question, answer[2]);
    if (problem) throw new PjlinkStopped('garbled', problem);
    talk.answers[question] = answer[2];
    talk.lastAnswerAt = performance.now();
  }
}

/**
 * A conversation that stopped: a device that answered some questions and then went quiet or
 * closed is there, and what it said is kept; one that never answered is unreachable.
 */
function stoppedResult(error: unknown, talk: Conversation, started: number): ProbeResult {
  if (!(error instanceof PjlinkStopped))
    return { outcome: 'protocol-error', findings: [], detail: String(error).slice(0, 300) };
  switch (error.kind) {
    case 'auth':
      return {
        outcome: 'auth-failed',
        findings: [{ state: 'error', reason: error.detail }],
        detail: error.detail,
      };
    case 'garbled':
      return { outcome: 'protocol-error', findings: [], detail: error.detail };
    case 'timeout':
    case 'closed': {
      const answered = Object.keys(talk.answers).length;
      if (answered === 0) break;
      return {
        outcome: 'answered',
        durationMs: since(started, talk.lastAnswerAt),
        ...readingFrom(talk.answers),
        detail: `Read ${answered} of ${talk.asked} answers: ${error.detail}`,
      };
    }
  }
  return { outcome: 'unreachable', findings: [], detail: error.detail };
}

function since(started: number, at: number | undefined): number | undefined {
  return at === undefined ? undefined : Math.round(at - started);
}
