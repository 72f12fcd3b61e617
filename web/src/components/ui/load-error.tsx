import { errorMessage } from '../../lib/api';
import { Button } from './button';
import { Card } from './card';

/** A list that could not be loaded: why, and a way to try again. */
export function LoadError({ what, error, onRetry }: { what: string; error: unknown; onRetry: () => void }) {
  return (
    <Card role="alert" className="space-y-3 p-5 text-center">
      <p className="text-slate-700">
        Could not load the {what}: {errorMessage(error)}
      </p>
      <Button variant="outline" onClick={onRetry}>
        Try again
      </Button>
    </Card>
  );
}
