import { type PowerState, type ProbeFinding } from '@cm/contracts';
import { type ProbeResult } from '../probe';

/**
 * The questions, most useful first: a slow device may run out of time part way, and power,
 * errors and lamps matter more than names. INFO (free text that differs by maker) is not asked.
 */
export const classOneQuestions = [
  'POWR',
  'ERST',
  'LAMP',
  'CLSS',
  'INF2',
  'INF1',
  'NAME',
  'INPT',
  'AVMT',
] as const;
/** Asked only of devices whose CLSS answer is 2: class 1 devices do not know them. */
export const classTwoQuestions = ['FILT', 'SNUM', 'SVER', 'RLMP', 'RFIL'] as const;
export type PjlinkQuestion = (typeof classOneQuestions)[number] | (typeof classTwoQuestions)[number];

/** What the device answered, by question: the text after `=`, ERR1–ERR4 included. */
export type PjlinkAnswers = Partial<Record<PjlinkQuestion, string>>;

const classTwo = new Set<string>(classTwoQuestions);

/** The line that asks `question`, without the terminator. */
export function questionLine(question: PjlinkQuestion): string {
  return `%${classTwo.has(question) ? 2 : 1}${question} ?`;
}

/** ERR1 undefined command, ERR2 out of parameter, ERR3 unavailable time, ERR4 device failure. */
const deviceErrors = /^ERR[1-4]$/;

const formats: Partial<Record<PjlinkQuestion, RegExp>> = {
  POWR: /^[0-3]$/,
  ERST: /^[0-2]{6}$/,
  LAMP: /^\d{1,6} [01]( \d{1,6} [01]){0,7}$/,
  CLSS: /^[1-9A-Z]$/,
  FILT: /^\d{1,6}$/,
  INPT: /^[1-9][1-9A-Z]$/,
  AVMT: /^[1-3][01]$/,
};

/** Why an answer cannot be read, or undefined when it can. */
export function answerProblem(question: PjlinkQuestion, value: string): string | undefined {
  const format = formats[question];
  if (deviceErrors.test(value) || !format || format.test(value)) return undefined;
  return `Unreadable answer to ${question}: "${value.slice(0, 40)}"`;
}

/** A device of class 2 or later answers the class 2 questions. */
export function isClassTwo(answers: PjlinkAnswers): boolean {
  const value = answers.CLSS;
  return value !== undefined && !deviceErrors.test(value) && value >= '2';
}

const powerStates: Record<string, PowerState> = { '0': 'standby', '1': 'on', '2': 'cooling', '3': 'warming' };
// ERST's sixth digit is "other": to a person it is the device itself.
const errorParts = ['Fan', 'Lamp', 'Temperature', 'Cover', 'Filter', 'Device'];
const inputTypes: Record<string, string> = {
  '1': 'RGB',
  '2': 'Video',
  '3': 'Digital',
  '4': 'Storage',
  '5': 'Network',
  '6': 'Internal',
};
const mutes: Record<string, string> = {
  '11': 'picture muted',
  '21': 'sound muted',
  '31': 'picture and sound muted',
};

export const FAILURE_REASON = 'The device reports a failure';

/** The reading's fields from the answers; questions answered with an ERR code are left out. */
export function readingFrom(answers: PjlinkAnswers): Omit<ProbeResult, 'outcome' | 'durationMs' | 'detail'> {
  const value = (question: PjlinkQuestion) => {
    const text = answers[question]?.trim();
    return text && !deviceErrors.test(text) ? text : undefined;
  };
  const text = (question: PjlinkQuestion, max = 120) => value(question)?.slice(0, max);
  const filter = value('FILT');
  return {
    findings: findingsFrom(answers, value('ERST')),
    power: powerStates[value('POWR') ?? ''],
    lamps: lampsFrom(value('LAMP')),
    filterHours: filter === undefined ? undefined : Number(filter),
    input: inputFrom(value('INPT'), value('AVMT')),
    model: modelFrom(value('INF1'), value('INF2')),
    serial: text('SNUM'),
    firmware: text('SVER'),
    deviceName: text('NAME', 200),
    replacementLamp: text('RLMP'),
    replacementFilter: text('RFIL'),
  };
}

function findingsFrom(answers: PjlinkAnswers, errorStatus: string | undefined): ProbeFinding[] {
  const findings: ProbeFinding[] = [];
  if (Object.values(answers).includes('ERR4')) findings.push({ state: 'error', reason: FAILURE_REASON });
  [...(errorStatus ?? '')].forEach((digit, index) => {
    if (digit === '1') findings.push({ state: 'warning', reason: `${errorParts[index]} warning` });
    if (digit === '2') findings.push({ state: 'error', reason: `${errorParts[index]} error` });
  });
  return findings;
}

function lampsFrom(lamp: string | undefined): ProbeResult['lamps'] {
  if (lamp === undefined) return undefined;
  const parts = lamp.split(' ');
  const lamps: NonNullable<ProbeResult['lamps']> = [];
  for (let i = 0; i + 1 < parts.length; i += 2)
    lamps.push({ hours: Number(parts[i]), on: parts[i + 1] === '1' });
  return lamps;
}

/** "Digital 1", "HDMI 2" is the device's own name and needs class 2's INNM, not asked. */
function inputFrom(input: string | undefined, mute: string | undefined): string | undefined {
  const source = input && `${inputTypes[input[0]] ?? 'Input'} ${input[1]}`;
  const muted = mute && mutes[mute];
  if (source && muted) return `${source}, ${muted}`;
  return source || (muted ? muted[0].toUpperCase() + muted.slice(1) : undefined);
}

/** INF2 is the model; the maker goes in front unless the model already starts with it. */
function modelFrom(maker: string | undefined, model: string | undefined): string | undefined {
  if (!model) return undefined;
  const named = maker && !model.toLowerCase().startsWith(maker.toLowerCase()) ? `${maker} ${model}` : model;
  return named.slice(0, 120);
}
