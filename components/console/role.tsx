'use client';

import { createContext, useContext, type ReactNode } from 'react';
import { hasRole, type TRole } from '@/lib/console/staff/roles';

// The signed-in staff member's role, for hiding what it cannot do. Hiding is only for the eye: the
// server checks every page, route and action itself (lib/console/staff/session.ts, with-staff.ts).

const RoleContext = createContext<string>('viewer');

export function RoleProvider({ role, children }: { role: string; children: ReactNode }) {
  return <RoleContext.Provider value={role}>{children}</RoleContext.Provider>;
}

/** Whether the staff member's role reaches `min`. */
export function useCan(min: TRole): boolean {
  return hasRole(useContext(RoleContext), min);
}

/** Its children only for a role that reaches `min`, else `otherwise`. */
export function Can({ min, children, otherwise = null }: { min: TRole; children: ReactNode; otherwise?: ReactNode }) {
  return useCan(min) ? children : otherwise;
}
