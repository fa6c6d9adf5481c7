'use client';

// The toggle of a timeline message; its name says which message, for screen readers and tests.

export function ExpandButton({ messageId, open, onToggle, label }: { messageId: string; open: boolean; onToggle: () => void; label?: string }) {
  return (
    <button
      type="button"
      aria-expanded={open}
      // A visible label starts the name (WCAG 2.5.3, "label in name"): "Attempts and receipts: expand msg_…".
      aria-label={`${label ? `${label}: ` : ''}${open ? 'Collapse' : 'Expand'} ${messageId}`}
      onClick={(e) => {
        e.stopPropagation();
        onToggle();
      }}
      className="inline-flex items-center gap-1 rounded p-0.5 text-slate-500 hover:bg-slate-200"
    >
      <span aria-hidden className={`inline-block transition-transform ${open ? 'rotate-90' : ''}`}>
        ▸
      </span>
      {label ? <span className="text-xs font-medium text-slate-700">{label}</span> : null}
    </button>
  );
}
