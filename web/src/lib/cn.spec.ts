import { cn } from './cn';

describe(cn.name, () => {
  it('joins the classes it is given and skips the falsy ones', () => {
    const hidden = false;
    expect(cn('flex', hidden && 'hidden', null, undefined, '', 'gap-2')).toBe('flex gap-2');
  });

  it('lets a later class override a conflicting earlier one', () => {
    expect(cn('rounded-lg px-4 bg-slate-100', 'rounded-full bg-white/90')).toBe(
      'px-4 rounded-full bg-white/90',
    );
    expect(cn('text-sm text-slate-700', 'text-brand-700')).toBe('text-sm text-brand-700');
  });
});
