import { type ApiToken, type ApiTokenScope, apiTokenScopeLabels, type UserRole } from '@cm/contracts';
import { useQuery } from '@tanstack/react-query';
import { KeyRound, Trash2 } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { CardHeading } from '../../../components/ui/card-heading';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { LoadError } from '../../../components/ui/load-error';
import { Select } from '../../../components/ui/select';
import { ShownOnce } from '../../../components/ui/shown-once';
import { Skeleton } from '../../../components/ui/skeleton';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage, fieldErrorsOf } from '../../../lib/api';
import { useNow } from '../../../lib/use-now';
import { apiTokensQuery, useCreateApiToken, useRevokeApiToken } from '../api/tokens';

const lifetimes = ['30', '90', '365'] as const;
const lifetimeLabel = (days: string) => `${days} days`;
const dayMs = 24 * 3600 * 1000;
const when = (iso: string) => new Date(iso).toLocaleString();

const scopeHelp: Record<ApiTokenScope, string> = {
  read: 'Can read, never change anything.',
  write: 'Can read and change what you can change, except administration.',
  admin: 'Can do everything you can as an administrator. Needs a current code when two-factor sign-in is on.',
};

type DialogState = { open: false } | { open: true; token?: string };

/** Settings → API Tokens: the signed-in person's tokens for scripts and integrations. */
export function ApiTokensTab({ userRole }: { userRole: UserRole }) {
  const now = useNow(60_000);
  const tokens = useQuery(apiTokensQuery);
  const revoke = useRevokeApiToken();
  const [dialog, setDialog] = useState<DialogState>({ open: false });

  const confirmRevoke = (token: ApiToken) => {
    if (!window.confirm(`Revoke the API token ${token.name}? Programs using it stop working at once.`))
      return;
    revoke.mutate(token.id, {
      onSuccess: () => toast({ title: 'Token revoked', description: `${token.name} no longer works.` }),
      onError: (error) =>
        toast({ title: 'Error revoking token', description: errorMessage(error), variant: 'destructive' }),
    });
  };

  return (
    <Card className="space-y-3 p-4">
      <CardHeading
        icon={KeyRound}
        title="API Tokens"
        addLabel="Create token"
        onAdd={() => setDialog({ open: true })}
      />
      <p className="text-sm text-slate-600">
        Scripts and integrations send a token as <code>Authorization: Bearer …</code> on any /api request. A
        token acts as you, within its scope, until it expires or is revoked.
      </p>
      {tokens.isPending ? (
        <Skeleton className="h-16 w-full" />
      ) : tokens.isError ? (
        <LoadError what="API tokens" error={tokens.error} onRetry={() => tokens.refetch()} />
      ) : tokens.data.length === 0 ? (
        <p className="text-sm text-slate-600">No API tokens yet.</p>
      ) : (
        <ul className="space-y-2">
          {tokens.data.map((token) => (
            <TokenItem
              key={token.id}
              token={token}
              expired={new Date(token.expiresAt).getTime() <= now}
              revoking={revoke.isPending && revoke.variables === token.id}
              onRevoke={() => confirmRevoke(token)}
            />
          ))}
        </ul>
      )}
      <Dialog open={dialog.open} onOpenChange={(open) => !open && setDialog({ open: false })}>
        <DialogContent title={dialog.open && dialog.token ? 'Your New API Token' : 'Create API Token'}>
          {dialog.open && dialog.token ? (
            <ShownOnce
              value={dialog.token}
              what="token"
              testId="api-token-value"
              onDone={() => setDialog({ open: false })}
            >
              Copy this token now: it will not be shown again. Only a hash of it is kept.
            </ShownOnce>
          ) : dialog.open ? (
            <TokenForm
              userRole={userRole}
              onCreated={(token) => setDialog({ open: true, token })}
              onCancel={() => setDialog({ open: false })}
            />
          ) : null}
        </DialogContent>
      </Dialog>
    </Card>
  );
}

function TokenItem({
  token,
  expired,
  revoking,
  onRevoke,
}: {
  token: ApiToken;
  expired: boolean;
  revoking: boolean;
  onRevoke: () => void;
}) {
  return (
    <li className="rounded-lg border border-slate-200 p-3" data-testid="api-token">
      <div className="flex items-start gap-2">
        <div className="min-w-0 flex-1 space-y-1">
          <h3 className="font-semibold break-words text-slate-900">{token.name}</h3>
          <dl className="grid grid-cols-[auto_1fr] gap-x-2 text-sm text-slate-600">
            <dt>Expires</dt>
            <dd>{when(token.expiresAt)}</dd>
            <dt>Last used</dt>
            <dd data-testid="token-last-used">{token.lastUsedAt ? when(token.lastUsedAt) : 'Never'}</dd>
          </dl>
          <div className="flex flex-wrap gap-1.5">
            <Badge variant="neutral">{apiTokenScopeLabels[token.scope]}</Badge>
            {expired ? <Badge variant="danger">Expired</Badge> : null}
          </div>
        </div>
        <Button variant="outline" aria-label={`Revoke ${token.name}`} disabled={revoking} onClick={onRevoke}>
          <Trash2 aria-hidden className="h-4 w-4" />
          Revoke
        </Button>
      </div>
    </li>
  );
}

function TokenForm({
  userRole: role,
  onCreated,
  onCancel,
}: {
  userRole: UserRole;
  onCreated: (token: string) => void;
  onCancel: () => void;
}) {
  const create = useCreateApiToken();
  const nameId = useId();
  const [name, setName] = useState('');
  const [days, setDays] = useState<string>('90');
  const [scope, setScope] = useState<ApiTokenScope>('read');
  const [code, setCode] = useState('');
  const errors = Object.fromEntries(fieldErrorsOf(create.error).map((e) => [e.path, e.message]));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const expiresAt = new Date(Date.now() + Number(days) * dayMs).toISOString();
    create.mutate(
      { name, scope, expiresAt, ...(scope === 'admin' && code ? { code } : {}) },
      {
        onSuccess: (created) => onCreated(created.token),
        onError: (error) =>
          toast({ title: 'Error creating token', description: errorMessage(error), variant: 'destructive' }),
      },
    );
  };

  // The admin scope is an administrator's only.
  const scopes: ApiTokenScope[] = role === 'admin' ? ['read', 'write', 'admin'] : ['read', 'write'];
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <Field label="Name *" error={errors.name}>
        <Input
          id={nameId}
          value={name}
          onChange={(e) => setName(e.target.value)}
          maxLength={120}
          autoComplete="off"
        />
      </Field>
      <Field label="Expires in" error={errors.expiresAt}>
        <Select
          value={days}
          onValueChange={setDays}
          options={lifetimes}
          labelOf={lifetimeLabel}
          placeholder="Choose"
        />
      </Field>
      <Field label="Scope" hint={scopeHelp[scope]} error={errors.scope}>
        <Select
          value={scope}
          onValueChange={(v) => setScope(v as ApiTokenScope)}
          options={scopes}
          labelOf={(v) => apiTokenScopeLabels[v as ApiTokenScope]}
          placeholder="Select scope"
        />
      </Field>
      {scope === 'admin' ? (
        <Field label="Code from your authenticator app" error={errors.code}>
          <Input
            value={code}
            onChange={(e) => setCode(e.target.value)}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={32}
          />
        </Field>
      ) : null}
      <FormActions creating={create.isPending} onCancel={onCancel} />
    </form>
  );
}

function FormActions({ creating, onCancel }: { creating: boolean; onCancel: () => void }) {
  return (
    <div className="grid gap-2">
      <Button type="submit" disabled={creating}>
        {creating ? 'Creating...' : 'Create Token'}
      </Button>
      <Button type="button" variant="outline" onClick={onCancel}>
        Cancel
      </Button>
    </div>
  );
}
