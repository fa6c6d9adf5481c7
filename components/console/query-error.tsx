import Link from 'next/link';
import { Callout } from './callout';
import { PageHeader } from './page-header';

// A page whose query cannot be read (staffQueryView's `queryError`): its title, the message naming the
// bad parameter (the same words its JSON route's 400 gives), and a link back to the page without it.
export function QueryError({ title, heading, message, back }: { title: string; heading: string; message: string; back: { href: string; label: string } }) {
  return (
    <div className="space-y-4">
      <PageHeader title={title} />
      <Callout tone="error" title={heading}>
        {message}{' '}
        <Link href={back.href} className="font-medium underline">
          {back.label}
        </Link>
      </Callout>
    </div>
  );
}
