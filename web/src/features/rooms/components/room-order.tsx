import { Button } from '../../../components/ui/button';

/** The rooms list's order: by floor (the spec's), or by next class (in use first, soonest next). */
export function RoomOrder({
  byNextClass,
  onChange,
}: {
  byNextClass: boolean;
  onChange: (v: boolean) => void;
}) {
  const option = (label: string, value: boolean) => (
    <Button
      variant={byNextClass === value ? 'primary' : 'outline'}
      aria-pressed={byNextClass === value}
      onClick={() => onChange(value)}
      className="flex-1"
    >
      {label}
    </Button>
  );
  return (
    <div role="group" aria-label="Sort rooms" className="flex gap-2">
      {option('By floor', false)}
      {option('By next class', true)}
    </div>
  );
}
