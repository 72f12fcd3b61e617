import { SendError } from '../send-error';
import { type TargetAnswer, WebhookFailure, type WebhookTargets } from '../webhook-targets';
import { webhookUrlRefusal } from '../webhook-url';

/** The most of a service desk's answer that is read: a record's id, number and state. */
const ANSWER_MAX_BYTES = 256 * 1024;

/**
 * JSON requests to a service desk's REST API as its integration user (basic authentication),
 * through the webhook targets' address rules and timeout. An answer's body is parsed for the ids
 * the caller asks for and never kept: a failure is logged with its status alone, and our own
 * words for what to check.
 */
export class DeskHttp {
  private readonly base: string;
  private readonly authorization: string;

  constructor(
    private readonly targets: WebhookTargets,
    private readonly allowedHosts: string[] | undefined,
    url: string,
    username: string,
    secret: string,
  ) {
    this.base = url.replace(/\/+$/, '');
    this.authorization = `Basic ${Buffer.from(`${username}:${secret}`).toString('base64')}`;
  }

  get baseUrl(): string {
    return this.base;
  }

  /** The parsed answer of a 2xx; a `SendError` naming `what` failed and the status otherwise. */
  async json<T>(
    method: 'GET' | 'POST' | 'PATCH' | 'PUT',
    path: string,
    what: string,
    body?: object,
  ): Promise<T> {
    const url = `${this.base}${path}`;
    const refusal = webhookUrlRefusal(url, this.allowedHosts);
    if (refusal) throw new SendError(refusal);
    const headers = {
      accept: 'application/json',
      authorization: this.authorization,
      'user-agent': 'ClassroomMonitor/1',
      ...(body ? { 'content-type': 'application/json' } : {}),
    };
    let answer: TargetAnswer;
    try {
      answer = await this.targets.request(
        method,
        url,
        headers,
        body ? JSON.stringify(body) : null,
        ANSWER_MAX_BYTES,
      );
    } catch (error) {
      const word = error instanceof WebhookFailure ? error.word : 'connection failed';
      throw new SendError(`Could not reach ${new URL(url).host} to ${what}: ${word}`);
    }
    const { status, retryAfterMs } = answer;
    if (status < 200 || status > 299) {
      const wait = status === 429 || status === 503 ? retryAfterMs : null;
      throw new SendError(`${new URL(url).host} answered HTTP ${status} to ${what}${hint(status)}`, wait);
    }
    try {
      return (answer.body ? JSON.parse(answer.body) : {}) as T;
    } catch {
      throw new SendError(`${new URL(url).host} answered ${what} with something other than JSON`);
    }
  }
}

/** What to check for a status, in our words (the service desk's own text is not shown). */
function hint(status: number): string {
  if (status === 401) return ' (check the username and the password or API token)';
  if (status === 403) return ' (the integration user lacks a role it needs: see docs/operations.md)';
  if (status === 400) return " (a field it requires may be missing: check the channel's mapping)";
  return '';
}
