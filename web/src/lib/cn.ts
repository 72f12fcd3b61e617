import { twMerge } from 'tailwind-merge';

type ClassValue = string | false | null | undefined;

/**
 * Joins class names, skipping the falsy ones (`cond && 'class'`); of two Tailwind classes that
 * set the same thing, the later one wins, so a caller's `className` overrides a component's own.
 */
export const cn = (...classes: ClassValue[]): string => twMerge(classes.filter(Boolean).join(' '));
