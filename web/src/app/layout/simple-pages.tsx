import { Link } from 'wouter';
import { Card } from '../../components/ui/card';

export function NotFoundPage() {
  return (
    <Card className="space-y-3 p-6 text-center">
      <h1 className="text-xl font-bold text-slate-900">404 Page Not Found</h1>
      <p className="text-slate-600">There is no page at this address.</p>
      <Link href="/buildings" className="inline-block font-medium text-brand-700 underline">
        Go to Buildings
      </Link>
    </Card>
  );
}
