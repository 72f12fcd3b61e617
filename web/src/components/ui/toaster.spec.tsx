import { act, render, screen } from '@testing-library/react';
import { Toaster } from './toaster';
import { toast } from './use-toast';

describe(Toaster.name, () => {
  it('shows one toast at a time, the newest, failures in the destructive style', () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'Success', description: 'Room created successfully' });
      toast({ title: 'Error', description: 'Failed to delete room', variant: 'destructive' });
    });
    expect(screen.queryByText('Room created successfully')).not.toBeInTheDocument();
    const shown = screen.getByText('Failed to delete room').closest('[data-slot="toast"]');
    expect(shown).toHaveAttribute('data-variant', 'destructive');
    expect(document.querySelectorAll('[data-slot="toast"]')).toHaveLength(1);
  });

  it('closes a toast by itself after 5000 ms', () => {
    jest.useFakeTimers();
    try {
      render(<Toaster />);
      act(() => {
        toast({ title: 'Success', description: 'Building added successfully' });
      });
      act(() => jest.advanceTimersByTime(4900));
      expect(screen.getByText('Building added successfully')).toBeInTheDocument();
      act(() => jest.advanceTimersByTime(200));
      expect(screen.queryByText('Building added successfully')).not.toBeInTheDocument();
    } finally {
      jest.useRealTimers();
    }
  });
});
