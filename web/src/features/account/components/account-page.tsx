import { authMessages, type TotpProof, type TotpSetup, type TotpStatus } from '@cm/contracts';
import { useQuery } from '@tanstack/react-query';
import { KeyRound, ShieldAlert, ShieldCheck } from 'lucide-react';
import { type FormEvent, Suspense, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { lazyComponent } from '../../../components/ui/lazy-component';
import { LoadError } from '../../../components/ui/load-error';
import { QrCode } from '../../../components/ui/qr-code';
import { Skeleton } from '../../../components/ui/skeleton';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage } from '../../../lib/api';
import {
  totpStatusQuery,
  useNewRecoveryCodes,
  useRefreshTotp,
  useTotpDisable,
  useTotpEnable,
  useTotpSetup,
} from '../api/totp';

// The password form (the form library and its checks) comes once the screen is drawn.
const PasswordCard = lazyComponent(
  () => import('./password-card'),
  (m) => m.PasswordCard,
);

const failed = (title: string) => (error: Error) =>
  toast({ title, description: errorMessage(error), variant: 'destructive' });

/** The key in groups of four, as authenticator apps show a key to type. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

/**
 * The account's own settings: the password and two-factor sign-in (TOTP). `external`: the account
 * signs in through single sign-on, whose password and second factor are the identity provider's
 * business.
 */
export function AccountPage({ external }: { external: boolean }) {
  const status = useQuery({ ...totpStatusQuery, enabled: !external });
  const [codes, setCodes] = useState<string[] | null>(null);

  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold text-slate-900">Account</h1>
      {external ? (
        <Card className="space-y-1 p-5">
          <h2 className="text-lg font-semibold text-slate-900">Two-factor sign-in</h2>
          <p className="text-slate-600">{authMessages.externalTotp}</p>
        </Card>
      ) : codes ? (
        <RecoveryCodesCard codes={codes} onDone={() => setCodes(null)} />
      ) : status.isPending ? (
        <Skeleton className="h-48" aria-label="Loading two-factor sign-in" />
      ) : status.error ? (
        <LoadError what="two-factor sign-in" error={status.error} onRetry={() => void status.refetch()} />
      ) : status.data.enabled ? (
        <EnabledCard status={status.data} onCodes={setCodes} />
      ) : (
        <EnrolCard status={status.data} onCodes={setCodes} />
      )}
      {external ? null : (
        <Suspense fallback={<Skeleton className="h-96" aria-label="Loading the password form" />}>
          <PasswordCard />
        </Suspense>
      )}
    </div>
  );
}

function EnrolCard({ status, onCodes }: { status: TotpStatus; onCodes: (codes: string[]) => void }) {
  const setup = useTotpSetup();
  const enable = useTotpEnable();
  const [started, setStarted] = useState<TotpSetup | null>(null);
  const [code, setCode] = useState('');

  const confirm = (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) return failed('Code needed')(new Error('Enter the 6-digit code the app shows.'));
    enable.mutate(code, {
      onSuccess: ({ recoveryCodes }) => {
        toast({ title: 'Two-factor sign-in is on', description: 'Sign-in will ask for a code from now on.' });
        onCodes(recoveryCodes);
      },
      onError: failed('Code not accepted'),
    });
  };

  return (
    <Card className="space-y-4 p-5">
      {status.required ? (
        <div role="alert" className="flex gap-3 rounded-lg bg-amber-50 p-3 text-amber-900">
          <ShieldAlert aria-hidden className="h-6 w-6 shrink-0" />
          <p>
            Administrators must use two-factor sign-in. Set it up to continue: nothing else is available until
            then.
          </p>
        </div>
      ) : null}
      <div>
        <h2 className="text-lg font-semibold text-slate-900">Two-factor sign-in</h2>
        <p className="text-slate-600">
          Off. With it on, signing in asks for a code from an authenticator app on your phone after the
          password.
        </p>
      </div>
      {!status.available ? (
        <p role="status" className="text-slate-600">
          Two-factor sign-in cannot be set up on this server yet: the administrator has to set AUTH_TOTP_KEY.
        </p>
      ) : !started ? (
        <Button
          disabled={setup.isPending}
          onClick={() => setup.mutate(undefined, { onSuccess: setStarted, onError: failed('Set-up failed') })}
        >
          <KeyRound aria-hidden className="h-5 w-5" />
          {setup.isPending ? 'Starting...' : 'Set up two-factor sign-in'}
        </Button>
      ) : (
        <form onSubmit={confirm} noValidate className="space-y-4">
          <EnrolSteps setup={started} />
          <Field label="Code from the app">
            <Input
              name="code"
              autoComplete="one-time-code"
              inputMode="numeric"
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
          </Field>
          <Button type="submit" disabled={enable.isPending}>
            {enable.isPending ? 'Checking...' : 'Turn on'}
          </Button>
        </form>
      )}
    </Card>
  );
}

/** How to add the key to an authenticator app: by its QR code, or typed. */
function EnrolSteps({ setup }: { setup: TotpSetup }) {
  return (
    <ol className="list-decimal space-y-3 pl-5 text-slate-700">
      <li>
        Scan this QR code with an authenticator app (such as Google Authenticator, Microsoft Authenticator or
        FreeOTP).
        <QrCode
          text={setup.otpauthUrl}
          label="QR code for your authenticator app"
          className="mx-auto mt-2 w-48"
        />
      </li>
      <li>
        Or type this key into the app:
        <code data-testid="totp-secret" className="mt-1 block break-all font-mono text-base text-slate-900">
          {grouped(setup.secret)}
        </code>
      </li>
      <li>Enter the 6-digit code the app shows.</li>
    </ol>
  );
}

function EnabledCard({ status, onCodes }: { status: TotpStatus; onCodes: (codes: string[]) => void }) {
  const disable = useTotpDisable();
  const renew = useNewRecoveryCodes();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const proof = (): TotpProof | null => {
    if (code.trim()) return { code };
    if (password) return { password };
    failed('Proof needed')(new Error('Enter a code from the app (or a recovery code) or your password.'));
    return null;
  };
  const clear = () => {
    setCode('');
    setPassword('');
  };

  const turnOff = () => {
    const given = proof();
    if (!given || !window.confirm('Turn two-factor sign-in off? Sign-in will ask for the password only.'))
      return;
    disable.mutate(given, {
      onSuccess: () => {
        clear();
        toast({ title: 'Two-factor sign-in is off' });
      },
      onError: failed('Not turned off'),
    });
  };
  const newCodes = () => {
    const given = proof();
    if (!given) return;
    renew.mutate(given, {
      onSuccess: ({ recoveryCodes }) => {
        clear();
        onCodes(recoveryCodes);
      },
      onError: failed('No new recovery codes'),
    });
  };

  return (
    <Card className="space-y-4 p-5">
      <div className="flex gap-3">
        <ShieldCheck aria-hidden className="h-6 w-6 shrink-0 text-emerald-700" />
        <div>
          <h2 className="text-lg font-semibold text-slate-900">Two-factor sign-in is on</h2>
          <p className="text-slate-600">
            {status.recoveryCodesLeft} of 10 recovery codes left. Each signs in once without the app.
          </p>
        </div>
      </div>
      <p className="text-slate-700">To turn it off or get new recovery codes, confirm it is you:</p>
      <Field label="Code from the app or a recovery code">
        <Input
          name="proof-code"
          autoComplete="one-time-code"
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      </Field>
      <Field label="Or your password">
        <Input
          name="proof-password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </Field>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" disabled={renew.isPending} onClick={newCodes}>
          New recovery codes
        </Button>
        <Button variant="destructive" disabled={disable.isPending} onClick={turnOff}>
          Turn off
        </Button>
      </div>
    </Card>
  );
}

/** Shown once: the server keeps only their hashes. */
function RecoveryCodesCard({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const refresh = useRefreshTotp();
  return (
    <Card className="space-y-4 p-5">
      <div>
        <h2 className="text-lg font-semibold text-slate-900">Your recovery codes</h2>
        <p className="text-slate-600">
          Keep them somewhere safe, away from your phone. Each signs in once if the app is lost. They are
          shown only now.
        </p>
      </div>
      <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-2 font-mono text-base text-slate-900">
        {codes.map((c) => (
          <li key={c} className="rounded bg-slate-100 px-2 py-1 text-center">
            {c}
          </li>
        ))}
      </ul>
      <Button
        onClick={() => {
          onDone();
          void refresh();
        }}
      >
        I have saved these codes
      </Button>
    </Card>
  );
}
