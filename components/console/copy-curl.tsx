import { CopyButton } from './copy-button';

// "Copy as cURL": the command (lib/console/export/curl-command.ts) behind a copy button, with a
// note when the body is sent from base64. Rendered for operators and admins only.

export function CopyCurl({ command, utf8, testId = 'copy-curl' }: { command: string; utf8: boolean; testId?: string }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5" data-testid={testId}>
      <CopyButton value={command} label="Copy as cURL" />
      {utf8 ? null : <span className="text-xs text-slate-500">body not UTF-8: sent from base64</span>}
    </span>
  );
}
