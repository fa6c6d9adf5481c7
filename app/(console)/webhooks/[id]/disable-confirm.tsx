'use client';

import { Button } from '@/components/console/form';

// The step before disabling a webhook, inline where the Disable button was: disabling stops every
// delivery, so it is asked once more. Escape or Cancel goes back; focus starts on Cancel.

export function DisableConfirm({ onConfirm, onCancel }: { onConfirm: () => void; onCancel: () => void }) {
  return (
    <div
      role="group"
      aria-label="Confirm disabling"
      data-testid="disable-confirm"
      onKeyDown={(e) => {
        if (e.key === 'Escape') onCancel();
      }}
      className="flex flex-wrap items-center gap-2 rounded-md border border-rose-200 bg-rose-50 px-2 py-1"
    >
      <span className="text-sm text-rose-900">Disable this webhook? Deliveries stop.</span>
      <Button variant="danger" size="sm" onClick={onConfirm}>
        Disable
      </Button>
      <Button autoFocus size="sm" onClick={onCancel}>
        Cancel
      </Button>
    </div>
  );
}
