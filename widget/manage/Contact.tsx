import type { Language } from './model.js';

/** Who to ask: the organization's name, e-mail and phone, on a booking's page and on an offer's. */
export function Contact({ organization, m }: { organization: { name: string; email: string; phone: string | null }; m: Language['m'] }) {
  return (
    <section class="contact" aria-labelledby="contact-title">
      <h2 id="contact-title">{m.contactTitle}</h2>
      <p>{m.contactText(organization.name)}</p>
      <ul>
        <li>
          {m.emailLabel}: <a href={`mailto:${organization.email}`}>{organization.email}</a>
        </li>
        {organization.phone && (
          <li>
            {m.phoneLabel}: <a href={`tel:${organization.phone.replace(/[^\d+]/g, '')}`}>{organization.phone}</a>
          </li>
        )}
      </ul>
    </section>
  );
}
