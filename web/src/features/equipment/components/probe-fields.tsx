import { type ProbeSecretName, type ProbeType, probePortOf, probeTypes } from '@cm/contracts';
import { useFormContext, useWatch } from 'react-hook-form';
import { SelectField } from '../../../components/form/select-field';
import { SwitchField } from '../../../components/form/switch-field';
import { TextField } from '../../../components/form/text-field';
import {
  AUTOMATIC,
  automaticLabel,
  automaticProbe,
  type ProbeHost,
  probeTypeLabels,
} from '../lib/probe-form';
import { SecretField } from './secret-field';
import { SnmpFields } from './snmp-fields';

const isProbeType = (v: string): v is ProbeType => (probeTypes as readonly string[]).includes(v);

/**
 * How the monitor reads the device beyond ping: the protocol, its port and how often, and the
 * protocol's own settings. `secretsSet`: the secrets the server holds, shown as set, never read.
 * `automatic`: new equipment may leave the choice to the server.
 */
export function ProbeFields({
  secretsSet,
  automatic,
}: {
  secretsSet: readonly ProbeSecretName[];
  automatic: boolean;
}) {
  const form = useFormContext<ProbeHost>();
  const [type, https, ...equipment] = useWatch({
    control: form.control,
    name: ['probe.type', 'probe.https', 'model', 'type', 'ipAddress'],
  });
  const port = isProbeType(type) ? probePortOf({ type, https }) : undefined;
  const [model, kind, ipAddress] = equipment;
  const automaticChoice = automaticLabel(automaticProbe({ model, type: kind, ipAddress }));
  const typeLabel = (v: string) =>
    isProbeType(v) ? probeTypeLabels[v] : v === AUTOMATIC ? automaticChoice : v;
  return (
    <fieldset className="space-y-4 rounded-xl border border-slate-200 p-3" data-testid="probe-fields">
      <legend className="px-1 text-base font-semibold text-slate-900">Health probe</legend>
      <SelectField
        form={form}
        name="probe.type"
        label="Protocol"
        options={automatic ? [AUTOMATIC, ...probeTypes] : probeTypes}
        labelOf={typeLabel}
        placeholder="Choose how to read it"
        hint="Beyond ping: power, lamp hours, errors and firmware, as the device reports them"
      />
      {type === AUTOMATIC ? (
        <p className="text-sm text-slate-600">
          Chosen by the preset product or the type: projectors are read by PJLink, Q-SYS processors by QRC and
          network switches by SNMP; other equipment and address ranges are pinged only.
        </p>
      ) : null}
      {type === 'icmp' || !isProbeType(type) ? null : (
        <>
          <div className="grid grid-cols-2 gap-3">
            <TextField
              form={form}
              name="probe.port"
              label="Port"
              max={undefined}
              inputMode="numeric"
              autoComplete="off"
              placeholder={port === undefined ? '' : String(port)}
            />
            <TextField
              form={form}
              name="probe.intervalSeconds"
              label="Every (seconds)"
              max={undefined}
              inputMode="numeric"
              autoComplete="off"
              placeholder="300"
            />
          </div>
          <TypeFields type={type} secretsSet={secretsSet} />
        </>
      )}
    </fieldset>
  );
}

function TypeFields({ type, secretsSet }: { type: ProbeType; secretsSet: readonly ProbeSecretName[] }) {
  const form = useFormContext<ProbeHost>();
  const passwordSet = secretsSet.includes('password');
  switch (type) {
    case 'pjlink':
      return (
        <>
          <SecretField
            name="password"
            label="PJLink password"
            isSet={passwordSet}
            hint="Only when the projector asks for one"
          />
          {/* The maker's figures: the lamp bar, its warning and the replace-by day need them. */}
          <div className="grid grid-cols-2 gap-3">
            <TextField
              form={form}
              name="probe.lampRatedHours"
              label="Lamp life (hours)"
              max={undefined}
              inputMode="numeric"
              autoComplete="off"
            />
            <TextField
              form={form}
              name="probe.filterRatedHours"
              label="Filter life (hours)"
              max={undefined}
              inputMode="numeric"
              autoComplete="off"
            />
          </div>
        </>
      );
    case 'extron':
      return (
        <SecretField
          name="password"
          label="Extron password"
          isSet={passwordSet}
          hint="Only when the device asks for one"
        />
      );
    case 'qsys':
      return (
        <>
          <TextField
            form={form}
            name="probe.username"
            label="Q-SYS user name"
            max={64}
            autoComplete="off"
            autoCapitalize="none"
            hint="Only when the core asks for a logon"
          />
          <SecretField name="password" label="Q-SYS password" isSet={passwordSet} />
        </>
      );
    case 'snmp':
      return <SnmpFields secretsSet={secretsSet} />;
    case 'http':
      return (
        <>
          <SwitchField control={form.control} name="probe.https" label="Use HTTPS" />
          <TextField
            form={form}
            name="probe.path"
            label="Path"
            max={2048}
            autoComplete="off"
            autoCapitalize="none"
            placeholder="/"
          />
        </>
      );
    default:
      return null;
  }
}
