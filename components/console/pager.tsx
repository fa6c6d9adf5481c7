import Link from 'next/link';

// Newest ← → Older under a list that pages by an opaque token (the API's, or a cursor): there is
// no "previous", so the way back is the newest page. Nothing when there is neither link nor end.

const LINK = 'font-medium text-indigo-700 hover:underline';

export function Pager({
  newest,
  older,
  end,
  testId,
}: {
  /** The first page, when not on it. */ newest?: string | null;
  /** The next older page, if any. */ older?: string | null;
  /** Said when there is no older page (the list's last page). */ end?: string | null;
  testId?: string;
}) {
  if (!newest && !older && !end) return null;
  return (
    <div className="flex items-center justify-between text-sm">
      {newest ? (
        <Link href={newest} className={LINK}>
          ← Newest
        </Link>
      ) : (
        <span />
      )}
      {older ? (
        <Link href={older} className={LINK} data-testid={testId}>
          Older →
        </Link>
      ) : end ? (
        <span className="text-xs text-slate-500">{end}</span>
      ) : null}
    </div>
  );
}
