'use client';

import { Can } from '@/components/console/role';
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ErrorCallout } from '@/components/console/callout';
import type { TErrorInfo } from '@/app/(console)/_lib/errors';
import { Button } from '@/components/console/form';
import { resendMessageAction } from './actions';
import { webhookQueriesKey } from './use-timeline';

// Resend one message to this webhook (EXT). The new attempt shows in the polled views at once;
// a server-rendered page (`refresh`) is re-rendered. Hidden once the service says it has no resend.

function ResendButtonForRole({ webhookId, messageId, refresh = false }: { webhookId: string; messageId: string; refresh?: boolean }) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<TErrorInfo | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [unsupported, setUnsupported] = useState(false);

  const resend = () =>
    startTransition(async () => {
      setError(null);
      setNotice(null);
      const r = await resendMessageAction(webhookId, messageId);
      if (r.ok) {
        setNotice('Resent — the new attempt appears in the list.');
        await queryClient.invalidateQueries({ queryKey: webhookQueriesKey(webhookId) });
        if (refresh) router.refresh();
      } else if (r.unsupported) {
        setUnsupported(true);
      } else {
        setError(r.error);
      }
    });

  if (unsupported) return <span className="text-xs text-slate-500">This service offers no resend.</span>;
  return (
    <div className="flex min-w-0 flex-col items-end gap-1">
      <div className="flex flex-wrap items-center justify-end gap-2">
        {notice ? (
          <span role="status" className="text-xs text-emerald-700">
            {notice}
          </span>
        ) : null}
        <Button size="sm" onClick={resend} disabled={pending}>
          {pending ? 'Resending…' : 'Resend'}
        </Button>
      </div>
      {error ? <ErrorCallout error={error} title="Resend failed" /> : null}
    </div>
  );
}

/** Shown only to operators and admins (the server refuses the others anyway). */
export function ResendButton(props: Parameters<typeof ResendButtonForRole>[0]) {
  return (
    <Can min="operator">
      <ResendButtonForRole {...props} />
    </Can>
  );
}
