import { ErrorCode, type Login, returnPath } from '@cm/contracts';
import { CircleX, MonitorSmartphone } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { Button, buttonClass } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { ApiError, errorMessage, NetworkError } from '../../../lib/api';
import { useSignIn } from '../api/sign-in';
import { useSingleSignOn } from '../api/sign-in-options';
import { signInErrorOf, singleSignOnHref, withoutSignInError } from '../lib/single-sign-on';

/** The sign-in screen; `inDialog`: its card alone, over a screen whose session ended. */
export function SignInPage({ inDialog = false }: { inDialog?: boolean }) {
  const [, navigate] = useLocation();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [challenge, setChallenge] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const singleSignOn = useSingleSignOn();
  const [refusal] = useState(() => signInErrorOf(window.location.search));
  // The message stays on screen; the address loses it, so a reload or a bookmark does not repeat it.
  useEffect(() => {
    const address = withoutSignInError(window.location);
    if (address !== window.location.pathname + window.location.search + window.location.hash)
      window.history.replaceState(window.history.state, '', address);
  }, []);
  const { password: signIn, code: codeSignIn } = useSignIn({
    onChallenge: (next) => {
      setCode('');
      setChallenge(next);
    },
    onSuccess: () => {
      toast({ title: 'Welcome back!', description: 'You have successfully signed in.' });
      // A deep link (a room's QR code) opened while signed out stays where it pointed; the
      // app's root goes to the buildings list.
      const here = window.location.pathname + window.location.search + window.location.hash;
      const target = returnPath(here);
      if (target !== here) navigate(target);
    },
    onError: (error) => {
      // A challenge that ran out starts the sign-in again; a wrong code may be typed again.
      if (error instanceof ApiError && error.body.includes(ErrorCode.TOTP_CHALLENGE_EXPIRED))
        setChallenge(null);
      toast({ title: 'Sign in failed', description: errorMessage(error), variant: 'destructive' });
    },
  });

  const card = (
    <Card className={inDialog ? 'border-0 p-0 shadow-none' : 'p-5'}>
      {refusal ? (
        <div role="alert" className="mb-4 flex gap-3 rounded-lg bg-red-50 p-3 text-sm text-red-800">
          <CircleX aria-hidden className="h-5 w-5 shrink-0" />
          <p>{refusal}</p>
        </div>
      ) : null}
      {challenge ? (
        <CodeForm
          code={code}
          onCode={setCode}
          pending={codeSignIn.isPending}
          onSubmit={() => codeSignIn.mutate({ challenge, code })}
          onBack={() => setChallenge(null)}
        />
      ) : (
        <PasswordForm
          username={username}
          password={password}
          onUsername={setUsername}
          onPassword={setPassword}
          pending={signIn.isPending}
          onSubmit={(credentials) => signIn.mutate(credentials)}
        />
      )}
      {singleSignOn && !challenge ? <SingleSignOnLink displayName={singleSignOn.displayName} /> : null}
    </Card>
  );
  if (inDialog) return card;
  return (
    <main className="mx-auto flex min-h-dvh max-w-md flex-col justify-center px-4 py-10">
      <SignInHeading />
      {card}
    </main>
  );
}

function SignInHeading() {
  return (
    <div className="mb-8 flex flex-col items-center text-center">
      <div className="mb-4 flex h-16 w-16 items-center justify-center rounded-2xl bg-brand-700 text-white shadow-md">
        <MonitorSmartphone aria-hidden className="h-9 w-9" />
      </div>
      <h1 className="text-2xl font-bold text-slate-900">Classroom Monitor</h1>
      <p className="mt-1 text-slate-600">Sign in to access the system</p>
    </div>
  );
}

const missing = (description: string): void => {
  toast({ title: 'Missing information', description, variant: 'destructive' });
};

function PasswordForm({
  username,
  password,
  onUsername,
  onPassword,
  pending,
  onSubmit,
}: {
  username: string;
  password: string;
  onUsername: (value: string) => void;
  onPassword: (value: string) => void;
  pending: boolean;
  onSubmit: (credentials: Login) => void;
}) {
  // The form's schema comes with zod once the page is drawn, not with it (issue 37's 120 kB).
  useEffect(() => void loginSchemaOf().catch(() => undefined), []);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const loginSchema = await loginSchemaOf().catch(() => null);
    if (!loginSchema) return missing(new NetworkError('offline').message);
    const parsed = loginSchema.safeParse({ username, password });
    if (!parsed.success) return missing('Please enter both username and password.');
    onSubmit(parsed.data);
  };
  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="space-y-4">
      <Field label="Username">
        <Input
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          value={username}
          onChange={(e) => onUsername(e.target.value)}
        />
      </Field>
      <Field label="Password">
        <Input
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => onPassword(e.target.value)}
        />
      </Field>
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? 'Signing In...' : 'Sign In'}
      </Button>
    </form>
  );
}

function CodeForm({
  code,
  onCode,
  pending,
  onSubmit,
  onBack,
}: {
  code: string;
  onCode: (value: string) => void;
  pending: boolean;
  onSubmit: () => void;
  onBack: () => void;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) return missing('Please enter the code from your authenticator app.');
    onSubmit();
  };
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <Field
        label="Two-factor code"
        hint="The 6-digit code from your authenticator app, or one of your recovery codes."
      >
        <Input
          name="code"
          autoComplete="one-time-code"
          inputMode="text"
          autoCapitalize="none"
          value={code}
          onChange={(e) => onCode(e.target.value)}
        />
      </Field>
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? 'Checking...' : 'Verify'}
      </Button>
      <Button variant="ghost" className="w-full" onClick={onBack}>
        Back to username and password
      </Button>
    </form>
  );
}

function SingleSignOnLink({ displayName }: { displayName: string }) {
  return (
    <>
      <p className="my-4 flex items-center gap-3 text-sm text-slate-600">
        <span aria-hidden className="h-px flex-1 bg-slate-200" />
        or
        <span aria-hidden className="h-px flex-1 bg-slate-200" />
      </p>
      <a
        href={singleSignOnHref(withoutSignInError(window.location))}
        className={buttonClass({ variant: 'outline', className: 'w-full' })}
      >
        {`Sign in with ${displayName}`}
      </a>
    </>
  );
}

const loginSchemaOf = () => import('../lib/login-schema').then((m) => m.loginSchema);
