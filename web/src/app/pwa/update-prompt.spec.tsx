import { act, render, screen } from '@testing-library/react';
import { userEvent } from '../../test/user-event';
import { UpdatePrompt } from './update-prompt';
import { setUpdateWaiting } from './update-store';

describe(UpdatePrompt.name, () => {
  it('shows nothing until a new release waits, then switches to it only when asked', async () => {
    render(<UpdatePrompt />);
    expect(screen.queryByText('New version')).not.toBeInTheDocument();

    const switchToNewRelease = jest.fn();
    act(() => setUpdateWaiting(switchToNewRelease));
    expect(screen.getByRole('status')).toHaveTextContent('New version');
    expect(switchToNewRelease).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(switchToNewRelease).toHaveBeenCalledTimes(1);
  });
});
