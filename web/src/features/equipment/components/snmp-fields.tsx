import {
  comparisonOperators,
  type ProbeSecretName,
  SNMP_OIDS_MAX,
  snmpAuthProtocols,
  snmpOidCheckSchema,
  snmpPrivProtocols,
  snmpSecurityLevels,
} from '@cm/contracts';
import { useId } from 'react';
import { useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { SelectField } from '../../../components/form/select-field';
import { TextField } from '../../../components/form/text-field';
import { Button } from '../../../components/ui/button';
import { maxLengthsOf } from '../../../lib/text-limit';
import { emptyOid, type ProbeHost } from '../lib/probe-form';
import { SecretField } from './secret-field';

const versionLabels: Record<string, string> = { '2c': 'v2c', '3': 'v3' };
const levelLabels: Record<string, string> = {
  noAuthNoPriv: 'No authentication',
  authNoPriv: 'Authentication only',
  authPriv: 'Authentication and privacy',
};
const protocolLabels: Record<string, string> = {
  md5: 'MD5',
  sha: 'SHA-1',
  sha224: 'SHA-224',
  sha256: 'SHA-256',
  sha384: 'SHA-384',
  sha512: 'SHA-512',
  des: 'DES',
  aes: 'AES-128',
  aes256b: 'AES-256 (Blumenthal)',
  aes256r: 'AES-256 (Reeder)',
};
// Screen readers say "greater than or equal to" for ≥, and read > and < as their names.
const operatorLabels: Record<string, string> = {
  '>': '>',
  '>=': '≥',
  '<': '<',
  '<=': '≤',
  '=': '=',
  '!=': '≠',
};
const labelOf = (labels: Record<string, string>) => (v: string) => labels[v] ?? v;

/** SNMP v2c (a community) or v3 (a user, its security level and keys), and the values to watch. */
export function SnmpFields({ secretsSet }: { secretsSet: readonly ProbeSecretName[] }) {
  const form = useFormContext<ProbeHost>();
  const [version, level] = useWatch({
    control: form.control,
    name: ['probe.version', 'probe.securityLevel'],
  });
  return (
    <>
      <SelectField
        form={form}
        name="probe.version"
        label="SNMP version"
        options={['2c', '3']}
        labelOf={labelOf(versionLabels)}
        placeholder="Choose a version"
      />
      {version === '3' ? (
        <>
          <TextField
            form={form}
            name="probe.username"
            label="SNMP user name"
            max={64}
            autoComplete="off"
            autoCapitalize="none"
          />
          <SelectField
            form={form}
            name="probe.securityLevel"
            label="Security level"
            options={snmpSecurityLevels}
            labelOf={labelOf(levelLabels)}
            placeholder="Choose a level"
          />
          {level === 'noAuthNoPriv' ? null : <V3Key which="auth" isSet={secretsSet.includes('authKey')} />}
          {level === 'authPriv' ? <V3Key which="priv" isSet={secretsSet.includes('privKey')} /> : null}
        </>
      ) : (
        <SecretField name="community" label="Community" isSet={secretsSet.includes('community')} />
      )}
      <OidList />
    </>
  );
}

const v3Keys = {
  auth: {
    protocol: 'probe.authProtocol',
    options: snmpAuthProtocols,
    key: 'authKey',
    name: 'Authentication',
  },
  priv: { protocol: 'probe.privProtocol', options: snmpPrivProtocols, key: 'privKey', name: 'Privacy' },
} as const;

/** An SNMP v3 key and the protocol it is used with. */
function V3Key({ which, isSet }: { which: keyof typeof v3Keys; isSet: boolean }) {
  const form = useFormContext<ProbeHost>();
  const { protocol, options, key, name } = v3Keys[which];
  return (
    <>
      <SelectField
        form={form}
        name={protocol}
        label={`${name} protocol`}
        options={options}
        labelOf={labelOf(protocolLabels)}
        placeholder="Choose a protocol"
      />
      <SecretField name={key} label={`${name} key`} isSet={isSet} />
    </>
  );
}

const oidMax = maxLengthsOf(snmpOidCheckSchema);

/** Administrator-defined values: an OID, and the limits past which it warns or errs. */
function OidList() {
  const form = useFormContext<ProbeHost>();
  const { fields, append, remove } = useFieldArray({ control: form.control, name: 'probe.oids' });
  const id = useId();
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-medium text-slate-800">Values to watch</legend>
      <p className="text-xs text-slate-600">
        A value read by its OID gives a warning or an error past a limit: a display&apos;s temperature above
        60, say.
      </p>
      {fields.map((oid, i) => (
        <div
          key={oid.id}
          role="group"
          aria-labelledby={`${id}-${i}`}
          className="space-y-3 rounded-lg bg-slate-50 p-3"
          data-testid="snmp-value"
        >
          <p id={`${id}-${i}`} className="text-sm font-semibold text-slate-800">
            Value {i + 1}
          </p>
          <TextField
            form={form}
            name={`probe.oids.${i}.label`}
            label="Label"
            max={oidMax.label}
            placeholder="e.g. Panel temperature"
          />
          <TextField
            form={form}
            name={`probe.oids.${i}.oid`}
            label="OID"
            max={undefined}
            inputMode="decimal"
            autoComplete="off"
            placeholder="e.g. 1.3.6.1.4.1.9.9.13.1.3.1.3.1"
          />
          <div className="grid grid-cols-3 gap-2">
            <SelectField
              form={form}
              name={`probe.oids.${i}.operator`}
              label="Compare"
              options={comparisonOperators}
              labelOf={labelOf(operatorLabels)}
              placeholder="Choose"
            />
            <TextField form={form} name={`probe.oids.${i}.warning`} label="Warning" max={oidMax.warning} />
            <TextField form={form} name={`probe.oids.${i}.error`} label="Error" max={oidMax.error} />
          </div>
          <Button variant="ghost" className="text-red-700" onClick={() => remove(i)}>
            Remove value {i + 1}
          </Button>
        </div>
      ))}
      {fields.length < SNMP_OIDS_MAX ? (
        <Button variant="outline" onClick={() => append(emptyOid)}>
          Add a value to watch
        </Button>
      ) : null}
    </fieldset>
  );
}
