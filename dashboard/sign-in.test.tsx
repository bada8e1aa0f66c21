import { fireEvent, screen, waitFor } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api.js';
import { PASSWORD, session } from './test-helpers/fake-api.js';
import { mountAt, useDashboardTests } from './test-helpers/dashboard-under-test.js';

useDashboardTests();

const fill = (label: string, value: string) => fireEvent.input(screen.getByLabelText(label), { target: { value } });

describe('the sign-in form', () => {
  it('sends a signed-out visitor to Sign in, keeping where they were going', async () => {
    mountAt('/dashboard?date=2026-12-03');
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    expect(location.pathname).toBe('/dashboard/sign-in');
    expect(new URLSearchParams(location.search).get('next')).toBe('/dashboard?date=2026-12-03');
    expect(document.title).toBe('Sign in · Outing');
    expect(screen.getByLabelText('Email').getAttribute('autocomplete')).toBe('username');
    expect(screen.getByLabelText('Password').getAttribute('type')).toBe('password');
  });

  it('shows a wrong password as an alert and moves focus to the password', async () => {
    const t = mountAt('/dashboard/sign-in');
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    fill('Email', session.user.email);
    fill('Password', 'not it');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('The e-mail or password is not right. Check both and try again.');
    expect(document.activeElement).toBe(screen.getByLabelText('Password'));
    expect(t.calls).toEqual(['getSession', 'signIn']);
    // What was typed stays: the form is not re-created.
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe(session.user.email);
  });

  it('names an empty field next to it, without asking the server', async () => {
    const t = mountAt('/dashboard/sign-in');
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByText('Enter your e-mail address.');
    const email = screen.getByLabelText('Email');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(email.getAttribute('aria-describedby')).toBe('email-error');
    expect(document.activeElement).toBe(email);
    expect(t.calls).toEqual(['getSession']);
  });

  it('signs in, lands where the visitor was going, and sends the CSRF token from then on', async () => {
    const t = mountAt('/dashboard?date=2026-12-03');
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    fill('Email', session.user.email);
    fill('Password', PASSWORD);
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByRole('heading', { level: 1, name: 'Thursday, December 3, 2026' });
    expect(location.pathname + location.search).toBe('/dashboard?date=2026-12-03');
    expect(t.calls).toEqual(['getSession', 'signIn', 'getManifest', 'listExperiences']);
    expect(t.tokens.slice(2)).toEqual(['csrf-token-1', 'csrf-token-1']);
    expect(document.activeElement?.id).toBe('heading');
  });

  it('says when too many attempts were made', async () => {
    const t = mountAt('/dashboard/sign-in');
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    t.failures.set('signIn', new ApiError(429, 'RATE_LIMITED', 'Too many failed sign-ins'));
    fill('Email', session.user.email);
    fill('Password', PASSWORD);
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('Too many attempts'));
  });
});
