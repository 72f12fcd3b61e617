import { JSONCodec } from 'nats';

const json = JSONCodec<unknown>();

export const encodeJson = (value: unknown): Uint8Array => json.encode(value);

/** The message's JSON, or undefined when it is not JSON (the schema check then refuses it). */
export function decodeJson(data: Uint8Array): unknown {
  try {
    return json.decode(data);
  } catch {
    return undefined;
  }
}
