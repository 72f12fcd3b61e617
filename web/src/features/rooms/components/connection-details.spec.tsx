import { render, screen } from '@testing-library/react';
import { userEvent } from '../../../test/user-event';
import { ConnectionDetails } from './connection-details';

describe(ConnectionDetails.name, () => {
  const nameBox = () => screen.getByLabelText('New field name');
  const addButton = () => screen.getByRole('button', { name: 'Add' });

  it('keeps Add disabled until the name has more than spaces', async () => {
    render(<ConnectionDetails />);
    expect(addButton()).toBeDisabled();
    await userEvent.type(nameBox(), '   ');
    expect(addButton()).toBeDisabled();
    await userEvent.type(nameBox(), 'HDMI');
    expect(addButton()).toBeEnabled();
  });

  it('adds a field with its name trimmed by the button or by Enter, and empties the name box', async () => {
    render(<ConnectionDetails />);
    await userEvent.type(nameBox(), '  Projector HDMI  ');
    await userEvent.click(addButton());
    expect(screen.getByLabelText('Projector HDMI')).toHaveValue('');
    expect(nameBox()).toHaveValue('');
    await userEvent.type(nameBox(), 'Wall plate{Enter}');
    expect(screen.getAllByTestId('connection-field')).toHaveLength(2);
    await userEvent.type(screen.getByLabelText('Wall plate'), 'Port 3');
    expect(screen.getByLabelText('Wall plate')).toHaveValue('Port 3');
  });

  it('does nothing on Enter with a blank name', async () => {
    render(<ConnectionDetails />);
    await userEvent.type(nameBox(), '  {Enter}');
    expect(screen.queryAllByTestId('connection-field')).toHaveLength(0);
  });

  it('removes a field', async () => {
    render(<ConnectionDetails />);
    await userEvent.type(nameBox(), 'VLAN{Enter}');
    await userEvent.click(screen.getByRole('button', { name: 'Remove VLAN' }));
    expect(screen.queryAllByTestId('connection-field')).toHaveLength(0);
  });
});
