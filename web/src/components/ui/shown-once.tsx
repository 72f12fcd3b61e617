import { Copy } from 'lucide-react';
import { type ReactNode } from 'react';
import { Button } from './button';
import { toast } from './use-toast';

interface ShownOnceProps {
  /** The secret: the server keeps only a hash or an encrypted copy, so this is the one showing. */
  value: string;
  /** What it is, in the toast and the button: "signing secret", "token". */
  what: string;
  testId: string;
  children: ReactNode;
  onDone: () => void;
}

/** A secret shown this once, with a copy button. */
export function ShownOnce({ value, what, testId, children, onDone }: ShownOnceProps) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      toast({ title: 'Copied', description: `The ${what} is on the clipboard.` });
    } catch {
      toast({ title: 'Copy failed', description: `Select the ${what} and copy it.`, variant: 'destructive' });
    }
  };
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-700">{children}</p>
      <code data-testid={testId} className="block rounded-lg bg-slate-100 p-3 text-sm break-all select-all">
        {value}
      </code>
      <div className="grid gap-2">
        <Button variant="outline" onClick={() => void copy()}>
          <Copy aria-hidden className="h-4 w-4" />
          Copy {what.split(' ').at(-1)}
        </Button>
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  );
}
