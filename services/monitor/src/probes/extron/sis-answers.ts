/** What an Extron device tells about itself before any login: its copyright banner. */
export interface SisIdentity {
  model?: string;
  firmware?: string;
  partNumber?: string;
}

const PART_NUMBER = /^\d{2}-\d{3,4}-\d{2}$/;

/**
 * `(c) Copyright 2019, Extron Electronics, DXP 84 HD 4K PLUS, V1.05, 60-1495-01`: the field after
 * the company is the model, `V…` the firmware, the last the part number. Undefined when the text
 * holds no such line.
 */
export function parseSisBanner(text: string): SisIdentity | undefined {
  const line = text.split(/\r?\n/).find((l) => /extron/i.test(l) && l.includes(','));
  if (!line) return undefined;
  const fields = line.split(',').map((f) => f.trim());
  const company = fields.findIndex((f) => /extron/i.test(f));
  const model = fields[company + 1];
  const firmware = fields.find((f) => /^V\d+(\.\d+)+/i.test(f))?.replace(/^V/i, '');
  const partNumber = fields.find((f) => PART_NUMBER.test(f));
  return {
    model: model && !/^V\d/i.test(model) && !PART_NUMBER.test(model) ? model.slice(0, 120) : undefined,
    firmware: firmware?.slice(0, 120),
    partNumber,
  };
}

/** `E10`, `E13`…: the device refused the command. */
export function isSisError(line: string): boolean {
  return /^E\d{2}$/.test(line);
}

/** `Q` answers `1.05` (verbose mode `Ver01*1.05`); `N` answers `60-1495-01` (verbose `Pno60-1495-01`). */
export function readSisFirmware(line: string): string | undefined {
  const value = line.replace(/^Ver\d*\*/i, '').trim();
  return /^\d+(\.\d+)+/.test(value) ? value.slice(0, 120) : undefined;
}

export function readSisPartNumber(line: string): string | undefined {
  const value = line.replace(/^Pno/i, '').trim();
  return PART_NUMBER.test(value) ? value : undefined;
}
