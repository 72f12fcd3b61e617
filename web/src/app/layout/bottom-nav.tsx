import { Building2, ChartColumn, Search, Settings, Users } from 'lucide-react';
import { type ComponentType } from 'react';
import { Link, useLocation } from 'wouter';
import { cn } from '../../lib/cn';

interface Item {
  label: string;
  href: string;
  icon: ComponentType<{ className?: string; 'aria-hidden'?: boolean }>;
  active: (location: string) => boolean;
}

const buildings: Item = {
  label: 'Buildings',
  href: '/buildings',
  icon: Building2,
  active: (l) => l === '/' || l.startsWith('/buildings') || l.startsWith('/rooms'),
};
const reports: Item = {
  label: 'Reports',
  href: '/reports',
  icon: ChartColumn,
  active: (l) => l === '/reports',
};
const users: Item = { label: 'Users', href: '/users', icon: Users, active: (l) => l === '/users' };
const settings: Item = {
  label: 'Settings',
  href: '/settings',
  icon: Settings,
  active: (l) => l === '/settings' || l.startsWith('/settings/'),
};

const search: Item = { label: 'Search', href: '/search', icon: Search, active: (l) => l === '/search' };

const itemClass = 'flex min-h-14 flex-1 flex-col items-center justify-center gap-0.5 text-xs font-medium';

/**
 * Spec section 2: Buildings, Reports, Users (administrators only), Settings and Search, which the
 * spec shows disabled and is live here (docs/spec-differences.md).
 */
export function BottomNav({ isAdmin }: { isAdmin: boolean }) {
  const [location] = useLocation();
  const items = isAdmin
    ? [buildings, reports, users, settings, search]
    : [buildings, reports, settings, search];
  return (
    <nav
      aria-label="Main"
      className="fixed inset-x-0 bottom-0 z-40 border-t border-slate-200 bg-white pb-[env(safe-area-inset-bottom)]"
    >
      <div className="mx-auto flex max-w-md">
        {items.map(({ label, href, icon: Icon, active }) => {
          const current = active(location);
          return (
            <Link
              key={href}
              href={href}
              aria-current={current ? 'page' : undefined}
              className={cn(itemClass, current ? 'text-brand-700' : 'text-slate-600 hover:text-slate-800')}
            >
              <Icon aria-hidden className="h-6 w-6" />
              {label}
            </Link>
          );
        })}
      </div>
    </nav>
  );
}
